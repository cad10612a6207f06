// Every answer of the service, each view's fields written ONCE, in two forms with the same
// names: `strict` is what the service declares (z.object: unknown keys are dropped on output,
// the value lists are enums, and the OpenAPI document is generated from it); `loose` is what
// the client reads (z.looseObject: a field the service adds later is kept, and dataType,
// dataTypeCategory and platformType take any string, so that a value the service adds later
// does not make every list unreadable; so does supportedType, and lastUpdated may be absent).
//
// Views of a connector (specification): G = Connector (Get Connector), L = CatalogueConnector
// (List Connectors), A = AddedConnectorView (List Added Connectors, Add Connector),
// S = SupportedConnector (List Supported Connectors).
import { z } from "zod";
import { DATA_TYPES, DATA_TYPE_CATEGORIES, PLATFORM_TYPES, SUPPORTED_TYPES } from "./values";

type ObjectOf<C extends z.core.$ZodObjectConfig> = <S extends z.core.$ZodLooseShape>(shape: S) => z.ZodObject<S, C>;

/**
 * The views built with one kind of object and one reading: `read` holds what differs between
 * the service's declaration of a shape and the client's reading of it. (One type parameter a
 * field: through a single `R extends { … }` the fields' own types would be lost to the constraint.)
 */
function defineViews<
  C extends z.core.$ZodObjectConfig,
  D extends z.ZodType<string>,
  DC extends z.ZodType<string>,
  P extends z.ZodType<string>,
  B extends z.ZodType<number>,
  M extends z.ZodType<string | undefined>,
  T extends z.ZodType<string>,
  S extends z.ZodType<string>,
  U extends z.ZodType<number | undefined>,
>(
  object: ObjectOf<C>,
  read: {
    /** Fields that may grow on the service: enums when declared, any string when read. */
    readonly dataType: D;
    readonly dataTypeCategory: DC;
    readonly platformType: P;
    /** A field descriptor's min and max: integers when declared, any number when read. */
    readonly bound: B;
    /** The envelope's statusMessage: always sent, not required when read. */
    readonly statusMessage: M;
    /** The token's type: "Bearer" when declared, any string when read. */
    readonly tokenType: T;
    /**
     * Source or Destination when declared; any string when read (a connector usable on both
     * sides may say so with a value of its own: kept, and matched by lookups as documented).
     */
    readonly supportedType: S;
    /** A configuration's lastUpdated: always sent, not required when read (drift then uses the field digests alone). */
    readonly lastUpdated: U;
  },
) {
  const count = z.number().int().min(0);
  const common = {
    connectorId: z.string(),
    platformId: z.string(),
    name: z.string(),
    logo: z.string(),
    dataType: read.dataType,
    dataTypeCategory: read.dataTypeCategory,
    platformType: read.platformType,
    supportedType: read.supportedType,
  };
  const urls = { docUrl: z.string().optional(), overviewUrl: z.string().optional() };
  const usage = { configured: z.boolean(), description: z.string(), srcConnections: count, destConnections: count };

  const AddedConnectorView = object({
    ...common,
    transfer: z.boolean(),
    ...usage,
    editable: z.boolean(),
    env: z.string(),
  });
  const FieldDescriptor = object({
    id: z.string(),
    label: z.string(),
    description: z.string().optional(),
    type: z.string().describe("Text, Number, Date, Select, Multi-Select, Password; the list is open"),
    required: z.boolean(),
    readonly: z.boolean(),
    value: z.string().optional().describe("never returned for Password; Multi-Select values are comma-separated"),
    min: read.bound.optional(),
    max: read.bound.optional(),
    options: z.array(z.string()).optional(),
  });
  const fields = z.array(FieldDescriptor);
  const SecretConfig = object({
    configurationId: z.string(),
    name: z.string(),
    secretName: z.string(),
    configured: z.boolean(),
    lastUpdated: read.lastUpdated,
    configuration: fields,
  });
  const ConnectionConfig = object({ configurationId: z.string(), name: z.string(), configuration: fields });
  const FieldError = object({ field: z.string(), message: z.string() });
  const ConflictCounts = object({ srcConnections: count, destConnections: count });

  return {
    /** View G. */
    Connector: object({ ...common, ...urls, integrated: z.boolean(), status: z.number().int() }),
    /** View L. */
    CatalogueConnector: object({ ...common, ...urls, transfer: z.boolean() }),
    /** View A. */
    AddedConnectorView,
    /** View S. */
    SupportedConnector: object({ ...common, transfer: z.boolean(), ...usage }),
    FieldDescriptor,
    SecretConfig,
    ConnectionConfig,
    /** The configuration payload (Get Connector Configuration, Configure Connector). */
    ConnectorConfigurationView: object({
      secretConfig: z.array(SecretConfig),
      connectionConfig: z.array(ConnectionConfig),
      editable: z.boolean(),
      env: z.string(),
      configured: z.boolean(),
      lastUpdated: read.lastUpdated,
      secretName: z.string(),
      configuration: fields,
    }),
    AddResult: object({ added: z.array(AddedConnectorView), alreadyAdded: z.array(z.string()) }),
    RemoveResult: object({ removed: z.string() }),
    /** The token answer: bare, as the specification shows it. */
    AccessToken: object({ accessToken: z.string().min(1), tokenType: read.tokenType, expiry: z.number().int().min(0) }),
    FieldError,
    ConflictCounts,
    /** Every error answer: counts on 409, field errors on 400, null otherwise. */
    ErrorEnvelope: object({
      statusCode: z.number().int(),
      statusMessage: read.statusMessage,
      response: ConflictCounts.nullable(),
      errors: z.array(FieldError).optional(),
    }),
    /** One page of a list route. */
    page<T extends z.ZodType>(item: T) {
      return object({
        items: z.array(item),
        page: z.number().int().min(1),
        pageSize: z.number().int().min(1),
        total: count,
      });
    },
    /** `{ statusCode, statusMessage, response }`: every JSON answer but the token. */
    envelope<T extends z.ZodType>(payload: T) {
      return object({ statusCode: z.number().int(), statusMessage: read.statusMessage, response: payload });
    },
  };
}

/** What the service declares: its responses are validated and serialized with these. */
export const strict = defineViews((shape) => z.object(shape), {
  dataType: z.enum(DATA_TYPES),
  dataTypeCategory: z.enum(DATA_TYPE_CATEGORIES),
  platformType: z.enum(PLATFORM_TYPES),
  bound: z.number().int(),
  statusMessage: z.string(),
  tokenType: z.literal("Bearer"),
  supportedType: z.enum(SUPPORTED_TYPES),
  lastUpdated: z.number().int(),
});

/** What the client reads: the same views, open to what the service may add later. */
export const loose = defineViews((shape) => z.looseObject(shape), {
  dataType: z.string(),
  dataTypeCategory: z.string(),
  platformType: z.string(),
  bound: z.number(),
  statusMessage: z.string().optional(),
  tokenType: z.string(),
  supportedType: z.string(),
  lastUpdated: z.number().int().optional(),
});

type Views = typeof strict;
/** The name of a view (not of the page and envelope builders). */
export type ViewName = { [K in keyof Views]: Views[K] extends z.ZodType ? K : never }[keyof Views];
/** A view as the service sends it, e.g. `Strict<"AddedConnectorView">`. */
export type Strict<K extends ViewName> = z.infer<(typeof strict)[K]>;
/** A view as the client reads it, e.g. `Loose<"AddedConnectorView">`. */
export type Loose<K extends ViewName> = z.infer<(typeof loose)[K]>;

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}
