// A zod schema for every answer of the service (types via z.infer). Objects are loose:
// a field the service adds later is kept, not refused; a missing or mistyped field of the
// specification is an error naming the route and the field path (see parseBody).
import { z } from "zod";
import { ResponseFormatError } from "./errors";

// The value lists of the specification, for filters. Responses take any string for these
// (a value the service adds later must not make every list unreadable), except supportedType.
export const DATA_TYPES = [
  "Custom Audiences", "identity management", "reporting", "data store", "Campaign", "customer match",
  "offline conversions", "analytics", "campaign posting", "Audiences - Data API", "audiences",
  "custom file audiences", "geo events", "events", "ads management", "raw real-time conversion events",
  "Conversions", "audience DMP segments", "Insights", "transcoding", "click conversions", "ads analytics",
  "ID match", "raw offline conversion events", "raw events data stream", "Audiences - CRM API",
] as const;
export const DATA_TYPE_CATEGORIES = [
  "audience activation", "identity management", "reporting", "data store", "campaign management", "events",
] as const;
export const PLATFORM_TYPES = [
  "Social Media Platform", "CRM Platform", "Demand-Side Platform (DSP)", "Cloud Storage Provider",
  "Media Management System", "Identity Management", "Supply-Side Platform (SSP)",
  "Customer Data Platform (CDP)", "E-Commerce Platform", "Data Provider",
] as const;
export const SUPPORTED_TYPES = ["Source", "Destination"] as const;

export type DataType = (typeof DATA_TYPES)[number];
export type DataTypeCategory = (typeof DATA_TYPE_CATEGORIES)[number];
export type PlatformType = (typeof PLATFORM_TYPES)[number];
export type SupportedType = (typeof SUPPORTED_TYPES)[number];

const count = z.number().int().min(0);

const common = {
  connectorId: z.string(),
  platformId: z.string(),
  name: z.string(),
  logo: z.string(),
  dataType: z.string(),
  dataTypeCategory: z.string(),
  platformType: z.string(),
  supportedType: z.enum(SUPPORTED_TYPES),
};
const urls = { docUrl: z.string().optional(), overviewUrl: z.string().optional() };
const usage = {
  configured: z.boolean(),
  description: z.string(),
  srcConnections: count,
  destConnections: count,
};

/** View G (Get Connector). */
export const ConnectorSchema = z.looseObject({ ...common, ...urls, integrated: z.boolean(), status: z.number().int() });
/** View L (List Connectors). */
export const CatalogueConnectorSchema = z.looseObject({ ...common, ...urls, transfer: z.boolean() });
/** View A (List Added Connectors). */
export const AddedConnectorViewSchema = z.looseObject({
  ...common,
  transfer: z.boolean(),
  ...usage,
  editable: z.boolean(),
  env: z.string(),
});
/** View S (List Supported Connectors). */
export const SupportedConnectorSchema = z.looseObject({ ...common, transfer: z.boolean(), ...usage });

export const FieldDescriptorSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string().optional(),
  type: z.string(), // open list: unknown types pass through
  required: z.boolean(),
  readonly: z.boolean(),
  value: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string()).optional(),
});

export const SecretConfigSchema = z.looseObject({
  configurationId: z.string(),
  name: z.string(),
  secretName: z.string(),
  configured: z.boolean(),
  lastUpdated: z.number().int(),
  configuration: z.array(FieldDescriptorSchema),
});
export const ConnectionConfigSchema = z.looseObject({
  configurationId: z.string(),
  name: z.string(),
  configuration: z.array(FieldDescriptorSchema),
});
/** The configuration payload (Get Connector Configuration, Configure Connector). */
export const ConnectorConfigurationViewSchema = z.looseObject({
  secretConfig: z.array(SecretConfigSchema),
  connectionConfig: z.array(ConnectionConfigSchema),
  editable: z.boolean(),
  env: z.string(),
  configured: z.boolean(),
  lastUpdated: z.number().int(),
  secretName: z.string(),
  configuration: z.array(FieldDescriptorSchema),
});

export const AddResultSchema = z.looseObject({
  added: z.array(AddedConnectorViewSchema),
  alreadyAdded: z.array(z.string()),
});
export const RemoveResultSchema = z.looseObject({ removed: z.string() });

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: count,
  });
}

/** `{ statusCode, statusMessage, response }`; statusCode is checked against the HTTP status in parseBody. */
export function envelopeSchema<T extends z.ZodType>(payload: T) {
  return z.looseObject({ statusCode: z.number().int(), statusMessage: z.string().optional(), response: payload });
}

export const TokenSchema = z.looseObject({
  accessToken: z.string().min(1),
  tokenType: z.string(),
  expiry: z.number().int().min(0),
});

export type Connector = z.infer<typeof ConnectorSchema>;
export type CatalogueConnector = z.infer<typeof CatalogueConnectorSchema>;
export type AddedConnectorView = z.infer<typeof AddedConnectorViewSchema>;
export type SupportedConnector = z.infer<typeof SupportedConnectorSchema>;
export type FieldDescriptor = z.infer<typeof FieldDescriptorSchema>;
export type ConnectorConfigurationView = z.infer<typeof ConnectorConfigurationViewSchema>;
export type AddResult = z.infer<typeof AddResultSchema>;
export type AccessTokenResponse = z.infer<typeof TokenSchema>;
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** "response.items[3].srcConnections" from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

export interface BodyContext {
  route: string;
  requestId: string;
  status: number;
}

/**
 * Validates a decoded JSON body. Zod's messages name the expected and received types,
 * never the values, so a malformed token answer cannot leak the token.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, ctx: BodyContext, at: readonly PropertyKey[] = []): z.infer<T> {
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

const AnyEnvelopeSchema = envelopeSchema(z.unknown());

/** The payload of an envelope; statusCode must be 0 or equal the HTTP status. */
export function parseEnvelope<T extends z.ZodType>(payload: T, body: unknown, ctx: BodyContext): z.infer<T> {
  const envelope = parseBody(AnyEnvelopeSchema, body, ctx);
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
  return enveloped ? parseEnvelope(TokenSchema, body, ctx) : parseBody(TokenSchema, body, ctx);
}
