// The wire shapes of the service, as zod schemas: they validate requests,
// serialize responses (unknown keys are dropped, so nothing leaks) and
// generate the OpenAPI document.
import { z } from "zod";

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
export const FIELD_TYPES = ["Text", "Number", "Date", "Select", "Multi-Select", "Password"] as const;

export const DataTypeSchema = z.enum(DATA_TYPES);
export const DataTypeCategorySchema = z.enum(DATA_TYPE_CATEGORIES);
export const PlatformTypeSchema = z.enum(PLATFORM_TYPES);
export const SupportedTypeSchema = z.enum(SUPPORTED_TYPES);

export const IdSchema = z.string().regex(/^[A-Za-z0-9]{16}$/, "must be a 16-character alphanumeric id");

const common = {
  connectorId: z.string(),
  platformId: z.string(),
  name: z.string(),
  logo: z.string(),
  dataType: DataTypeSchema,
  dataTypeCategory: DataTypeCategorySchema,
  platformType: PlatformTypeSchema,
  supportedType: SupportedTypeSchema,
};
const urls = { docUrl: z.string().optional(), overviewUrl: z.string().optional() };
const usage = {
  configured: z.boolean(),
  description: z.string(),
  srcConnections: z.number().int().min(0),
  destConnections: z.number().int().min(0),
};

export const ConnectorViewG = z.object({ ...common, ...urls, integrated: z.boolean(), status: z.number().int() });
export const ConnectorViewL = z.object({ ...common, ...urls, transfer: z.boolean() });
export const ConnectorViewA = z.object({
  ...common, transfer: z.boolean(), ...usage, editable: z.boolean(), env: z.string(),
});
export const ConnectorViewS = z.object({ ...common, transfer: z.boolean(), ...usage });
export type ConnectorG = z.infer<typeof ConnectorViewG>;
export type ConnectorL = z.infer<typeof ConnectorViewL>;
export type ConnectorA = z.infer<typeof ConnectorViewA>;
export type ConnectorS = z.infer<typeof ConnectorViewS>;

export const FieldDescriptorSchema = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string().optional(),
  type: z.string().describe("Text, Number, Date, Select, Multi-Select, Password; the list is open"),
  required: z.boolean(),
  readonly: z.boolean(),
  value: z.string().optional().describe("never returned for Password; Multi-Select values are comma-separated"),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  options: z.array(z.string()).optional(),
});
export type FieldDescriptor = z.infer<typeof FieldDescriptorSchema>;

export const SecretConfigSchema = z.object({
  configurationId: z.string(),
  name: z.string(),
  secretName: z.string(),
  configured: z.boolean(),
  lastUpdated: z.number().int(),
  configuration: z.array(FieldDescriptorSchema),
});
export const ConnectionConfigSchema = z.object({
  configurationId: z.string(),
  name: z.string(),
  configuration: z.array(FieldDescriptorSchema),
});
export const ConfigurationSchema = z.object({
  secretConfig: z.array(SecretConfigSchema),
  connectionConfig: z.array(ConnectionConfigSchema),
  editable: z.boolean(),
  env: z.string(),
  configured: z.boolean(),
  lastUpdated: z.number().int(),
  secretName: z.string(),
  configuration: z.array(FieldDescriptorSchema),
});
export type Configuration = z.infer<typeof ConfigurationSchema>;

export const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type FieldValue = z.infer<typeof FieldValueSchema>;
export const ConfigureBodySchema = z.object({
  configurationId: z.string(),
  name: z.string().max(200).optional(),
  secretName: z.string().max(200).optional(),
  secretConfig: z.record(z.string(), FieldValueSchema),
});
export type ConfigureBody = z.infer<typeof ConfigureBodySchema>;

export const AddBodySchema = z.object({
  connectorIds: z
    .array(IdSchema)
    .min(1)
    .max(50)
    .refine((ids) => new Set(ids).size === ids.length, "connectorIds must be unique")
    // Declared in the OpenAPI document too (the fuzzer sent duplicates the schema allowed).
    .meta({ uniqueItems: true }),
});

export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

export function envelope<T extends z.ZodType>(payload: T) {
  return z.object({ statusCode: z.number().int(), statusMessage: z.string(), response: payload });
}
export const ConflictCountsSchema = z.object({
  srcConnections: z.number().int(),
  destConnections: z.number().int(),
});
export const ErrorEnvelopeSchema = z.object({
  statusCode: z.number().int(),
  statusMessage: z.string(),
  response: ConflictCountsSchema.nullable(),
  errors: z.array(FieldErrorSchema).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
}

const accountId = z.string({ error: "accountId is required" }).min(1, "accountId is required");
export const AccountQuery = z.object({ accountId });
const paging = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
};
export const ListQuery = z.object({
  accountId,
  dataType: DataTypeSchema.optional(),
  dataTypeCategory: DataTypeCategorySchema.optional(),
  platformType: PlatformTypeSchema.optional(),
  supportedType: SupportedTypeSchema.optional(),
  name: z.string().max(200).optional(),
  ...paging,
});
export type ListFilters = z.infer<typeof ListQuery>;
export const SupportedQuery = z.object({ accountId, connectorId: IdSchema, ...paging });
export const ConnectorParams = z.object({ connectorId: z.string() });

export const TokenBodySchema = z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) });
export const TokenResponseSchema = z.object({
  accessToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiry: z.number().int(),
});

/** Response map for a route: the payload on 200, the error envelope otherwise. */
export function responses<T extends z.ZodType>(payload: T) {
  return { 200: envelope(payload), "4xx": ErrorEnvelopeSchema, "5xx": ErrorEnvelopeSchema };
}
