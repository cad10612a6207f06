// The schema of a service profile (docs/service-profile.md): what a profile file may say,
// and the resolved form every reader gets (profile.ts lays a file over the built-in default).
import { z } from "zod";
import { MAX_PAGE_SIZE } from "./ids";
import type {
  BodyField,
  EnvelopeShape,
  ListShape,
  PagingStyle,
  ProfileSemantics,
  RequestParameter,
} from "./profile-types";
import { ROUTES, type OperationName } from "./routes";

export const OPERATIONS = Object.keys(ROUTES) as OperationName[];
/** The list operations (they page). */
export const LIST_OPERATIONS = ["listConnectors", "listAddedConnectors", "listSupportedConnectors"] as const;
/** The parameters a request may carry, by the client's name: the wire name is the profile's `query`. */
export const REQUEST_PARAMETERS = [
  "accountId",
  "connectorId",
  "dataType",
  "dataTypeCategory",
  "platformType",
  "supportedType",
  "name",
] as const;
/** Body fields by the client's name (Add: connectorIds; Configure: the rest). */
export const BODY_FIELDS = ["connectorIds", "configurationId", "name", "secretName", "secretConfig"] as const;
/** The placeholders a path template may name. */
export const PATH_PLACEHOLDERS = ["accountId", "connectorId"] as const;
export type PathPlaceholder = (typeof PATH_PLACEHOLDERS)[number];

const wireName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "expected a parameter or field name (letters, digits, _ . -)");
/** "response.data": a dotted path into a JSON body; "" is the value itself. */
const dottedPath = z
  .string()
  .regex(/^$|^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/, 'expected a dotted path such as "items" or "data.items"');
const pathTemplate = z
  .string()
  .regex(/^\/[A-Za-z0-9_\-./{}~]*$/, 'expected a path starting with "/", such as "/es/v2/connectors/{connectorId}"');
/** A closed object whose refusal of an unknown key names the keys it takes. */
function closed<S extends z.core.$ZodLooseShape>(shape: S) {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown key ${issue.keys.join(", ")}; expected one of ${known}` : undefined,
  });
}
const maxSize = z.number().int().min(1).max(10_000);

const Paging = z.discriminatedUnion("style", [
  closed({
    style: z.literal("page"),
    page: wireName.default("page"),
    pageSize: wireName.default("pageSize"),
    maxSize: maxSize.default(MAX_PAGE_SIZE),
    /** The number of the first page: 1 (the contract's), or 0 for a service that counts pages from 0. */
    firstPage: z.union([z.literal(0), z.literal(1)]).optional(),
  }),
  closed({
    style: z.literal("offset"),
    offset: wireName.default("offset"),
    size: wireName.default("size"),
    maxSize: maxSize.default(MAX_PAGE_SIZE),
  }),
  closed({ style: z.literal("none") }),
]);

const List = closed({
  /** Where the items are in the payload; "" = the payload is the array. A bare array is read whatever this says. */
  items: dottedPath,
  /** Where the total count is; null = the service sends none. */
  total: dottedPath.nullable(),
  /** Where a next page's offset, number or link is; null = none (short or empty pages end the list). */
  next: dottedPath.nullable(),
});

const Envelope = closed({
  /** present: every answer is `{status, message, payload}`; absent: the body is the payload; auto: either. */
  mode: z.enum(["present", "absent", "auto"]),
  /** The key of the payload inside the envelope. */
  payload: wireName,
  /** Where a status is found in a body (first found wins); an error status there is that error, even in a 2xx. */
  status: z.array(dottedPath).min(1),
  /** Where the status message is found. */
  message: z.array(dottedPath),
});

const fieldsOf = <K extends readonly string[]>(keys: K) =>
  closed(
    Object.fromEntries(keys.map((k) => [k, wireName.optional()])) as Record<K[number], z.ZodOptional<typeof wireName>>,
  );

const Override = closed({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
  path: pathTemplate.optional(),
  query: fieldsOf(REQUEST_PARAMETERS).optional(),
  paging: Paging.optional(),
  list: List.partial().optional(),
  envelope: Envelope.partial().optional(),
  fields: fieldsOf(BODY_FIELDS).optional(),
  /** What a success answer holds: the view (today), or nothing to rely on (the client confirms by reading). */
  success: z.enum(["view", "empty"]).optional(),
});
const Defaults = Override.omit({ method: true, path: true });

/** What the service does beyond the wire: the client detects each at run time; the local service simulates them. */
const Semantics = closed({
  /** Add answers ids that were already added in `alreadyAdded`. */
  addReportsAlreadyAdded: z.boolean(),
  /** Get Configuration of a connector not yet added: answered (configured: false), or 404. */
  configurationBeforeAdd: z.enum(["readable", "notFound"]),
  /** lastUpdated of a configuration: strictly increasing per write, or absent. */
  lastUpdated: z.enum(["increasing", "absent"]),
  /** Remove's 409 carries srcConnections/destConnections. */
  conflictCounts: z.boolean(),
  /** Where an error's status is: the HTTP status, or inside a 2xx body (envelope.status). */
  errorStatusIn: z.enum(["http", "body"]),
  /** The supportedType values the service uses (a connector usable on both sides may have its own). */
  supportedTypes: z.array(z.string().min(1)).min(1),
  /**
   * What Configure does with a field its body leaves out: `whole` (the contract's PUT) clears it,
   * `given` keeps what the service holds. A configuration whose Passwords the service holds
   * (`heldByService`) can be written only where it keeps them.
   */
  configureWrites: z.enum(["whole", "given"]),
  /**
   * Field type names the service uses for a secret, besides Password and Secret in any letter case
   * (provider/schema/secret-fields.ts): such a field is never read, digested, generated or adopted as
   * a value. Matched in any letter case.
   */
  secretFieldTypes: z.array(z.string().trim().min(1)),
});

const operationsShape = Object.fromEntries(OPERATIONS.map((op) => [op, Override.optional()])) as Record<
  OperationName,
  z.ZodOptional<typeof Override>
>;

/** A profile file: every key optional, each overriding the built-in default's. */
export const ServiceProfileSchema = closed({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  /** Applied to every operation before its own entry (no method or path here). */
  defaults: Defaults.optional(),
  operations: closed(operationsShape).optional(),
  semantics: Semantics.partial().optional(),
});
export type ServiceProfile = z.input<typeof ServiceProfileSchema>;
export type ProfileOverride = z.output<typeof Override>;
export type {
  BodyField,
  EnvelopeShape,
  ListShape,
  PagingStyle,
  ProfileSemantics,
  RequestParameter,
  ResolvedOperation,
  ResolvedProfile,
} from "./profile-types";

// The written-out types (profile-types.ts) take what the schema gives, so they cannot drift apart.
type Fits<A extends B, B> = A;
export type SchemaFitsTypes = [
  Fits<z.output<typeof Paging>, PagingStyle>,
  Fits<z.output<typeof List>, ListShape>,
  Fits<z.output<typeof Envelope>, EnvelopeShape>,
  Fits<z.output<typeof Semantics>, ProfileSemantics>,
  Fits<(typeof REQUEST_PARAMETERS)[number], RequestParameter>,
  Fits<(typeof BODY_FIELDS)[number], BodyField>,
];
