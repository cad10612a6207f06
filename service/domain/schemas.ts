// The service's wire shapes are the contract's: contract/views.ts in its `strict` form (the
// responses: unknown keys are dropped on output, so nothing leaks) and contract/requests.ts
// (what routes validate). The OpenAPI document is generated from them. Here: how a route
// declares its responses.
import type { z } from "zod";
import { requests, type ServiceRequest } from "../../contract/requests";
import { strict, type Strict } from "../../contract/views";

/** Response map for a route: the payload in the envelope on 200, the error envelope otherwise. */
export function responses<T extends z.ZodType>(payload: T) {
  return { 200: strict.envelope(payload), "4xx": strict.ErrorEnvelope, "5xx": strict.ErrorEnvelope };
}

// Earlier names, still imported by domain/, seed/, http.ts and a property test; each is the
// contract's under another name (to be replaced there by the contract's own).
export { DATA_TYPES, DATA_TYPE_CATEGORIES, FIELD_TYPES, PLATFORM_TYPES, SUPPORTED_TYPES } from "../../contract/values";
export type ConnectorG = Strict<"Connector">;
export type ConnectorL = Strict<"CatalogueConnector">;
export type ConnectorA = Strict<"AddedConnectorView">;
export type ConnectorS = Strict<"SupportedConnector">;
export type FieldDescriptor = Strict<"FieldDescriptor">;
export type Configuration = Strict<"ConnectorConfigurationView">;
export type FieldError = Strict<"FieldError">;
export type ErrorEnvelope = Strict<"ErrorEnvelope">;
export type ConfigureBody = ServiceRequest<"ConfigureBody">;
export type FieldValue = ServiceRequest<"FieldValue">;
export type ListFilters = ServiceRequest<"ListQuery">;
export const ConfigureBodySchema = requests.ConfigureBody;
