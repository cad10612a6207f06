// Reading the service's answers. The views are the contract's (contract/views.ts), in their
// `loose` form: a field the service adds later is kept, not refused; a missing or mistyped
// field of the specification is an error naming the route and the field path (see parseBody).
// Types via the contract: Connector is `Loose<"Connector">`, and so on.
import { z } from "zod";
import { loose, type Loose } from "../../contract/views";
import { ResponseFormatError } from "./errors";
import type { SentRequest } from "./service-text";

// The value lists of the specification, for filters. Responses take any string for these
// (a value the service adds later must not make every list unreadable), except supportedType.
export {
  DATA_TYPES,
  DATA_TYPE_CATEGORIES,
  PLATFORM_TYPES,
  SUPPORTED_TYPES,
  type DataType,
  type DataTypeCategory,
  type PlatformType,
  type SupportedType,
} from "../../contract/values";
export { loose, type Loose, type Page } from "../../contract/views";

/** View G (Get Connector). */
export type Connector = Loose<"Connector">;
/** View L (List Connectors). */
export type CatalogueConnector = Loose<"CatalogueConnector">;
/** View A (List Added Connectors, Add Connector). */
export type AddedConnectorView = Loose<"AddedConnectorView">;
/** View S (List Supported Connectors). */
export type SupportedConnector = Loose<"SupportedConnector">;
export type FieldDescriptor = Loose<"FieldDescriptor">;
/** The configuration payload (Get Connector Configuration, Configure Connector). */
export type ConnectorConfigurationView = Loose<"ConnectorConfigurationView">;
export type AddResult = Loose<"AddResult">;
export type AccessTokenResponse = Loose<"AccessToken">;

/** "response.items[3].srcConnections" from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The answer an error is about. Every BodyContext of an answer is built in client.ts call(), with `sent`. */
export interface BodyContext {
  route: string;
  requestId: string;
  status: number;
  /** The call's request: after one that carried secrets, a ResponseFormatError shows no shape or key of the answer. */
  sent?: SentRequest;
}

/**
 * Validates a decoded JSON body. Zod's messages name the expected and received types,
 * never the values, so a malformed token answer cannot leak the token.
 */
export function parseBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
  ctx: BodyContext,
  at: readonly PropertyKey[] = [],
): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues;
    const pathOf = (issue: z.core.$ZodIssue) => formatPath([...at, ...issue.path]) || "(body)";
    const listed = issues.slice(0, 3).map((issue) => `${pathOf(issue)}: ${issue.message}`);
    const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : "";
    const fieldPath = issues[0] ? formatPath([...at, ...issues[0].path]) : "";
    throw new ResponseFormatError({ ...ctx, fieldPath, problem: `${listed.join("; ")}${more}` });
  }
  return result.data;
}

const AnyEnvelope = loose.envelope(z.unknown());

/** The payload of an envelope; statusCode must be 0 or equal the HTTP status. */
export function parseEnvelope<T extends z.ZodType>(payload: T, body: unknown, ctx: BodyContext): z.infer<T> {
  const envelope = parseBody(AnyEnvelope, body, ctx);
  if (envelope.statusCode !== 0 && envelope.statusCode !== ctx.status) {
    throw new ResponseFormatError({
      ...ctx,
      fieldPath: "statusCode",
      problem: `statusCode: ${envelope.statusCode} differs from the HTTP status ${ctx.status}`,
    });
  }
  return parseBody(payload, envelope.response, ctx, ["response"]);
}

/** The token from a bare answer (as the specification shows) or an enveloped one. */
export function parseToken(body: unknown, ctx: BodyContext): AccessTokenResponse {
  const enveloped =
    body !== null && typeof body === "object" && "statusCode" in body && "response" in body && !("accessToken" in body);
  return enveloped ? parseEnvelope(loose.AccessToken, body, ctx) : parseBody(loose.AccessToken, body, ctx);
}
