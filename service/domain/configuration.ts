// Validation of Configure against the field descriptors, and the
// Configuration payload. Password values are hashed before storage and never
// leave this module.
import type { AddedRow } from "../storage/repository";
import type { CatalogueConnector } from "./catalogue";
import { sha256 } from "./auth";
import type { Strict } from "../../contract/views";
import type { ServiceRequest } from "../../contract/requests";

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isEmpty(v: ServiceRequest<"FieldValue"> | null | undefined): boolean {
  return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
}

/** The stored string of one value, or the reason it is refused. */
function checkValue(
  field: Strict<"FieldDescriptor">,
  v: ServiceRequest<"FieldValue">,
): { ok: string } | { error: string } {
  switch (field.type) {
    case "Number": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
      if (!Number.isFinite(n)) return { error: "must be a number" };
      if (field.min !== undefined && n < field.min) return { error: `must be at least ${field.min}` };
      if (field.max !== undefined && n > field.max) return { error: `must be at most ${field.max}` };
      return { ok: String(n) };
    }
    case "Date":
      if (typeof v !== "string" || !DATE.test(v) || Number.isNaN(Date.parse(v))) {
        return { error: "must be a date (YYYY-MM-DD or ISO 8601)" };
      }
      return { ok: v };
    case "Select":
      if (typeof v !== "string" || !(field.options ?? []).includes(v)) {
        return { error: `must be one of: ${(field.options ?? []).join(", ")}` };
      }
      return { ok: v };
    case "Multi-Select": {
      // Accepted as an array or a comma-separated string; returned comma-separated.
      const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",").map((s) => s.trim()) : null;
      const bad = items?.filter((i) => !(field.options ?? []).includes(i));
      if (!items || bad === undefined || bad.length > 0) {
        return { error: `every value must be one of: ${(field.options ?? []).join(", ")}` };
      }
      return { ok: items.join(",") };
    }
    default:
      // Text, Password, and types this service does not know: a string.
      return typeof v === "string" ? { ok: v } : { error: "must be a string" };
  }
}

/**
 * All violations (one entry per field), or the values to store. `kept`: the values the service
 * holds, for a service whose Configure keeps a field its body leaves out (`configureWrites:
 * given`); without it, a field left out is cleared (the contract's PUT of the whole).
 */
export function validateConfigure(
  connector: CatalogueConnector,
  body: ServiceRequest<"ConfigureBody">,
  kept?: Readonly<Record<string, string>>,
): { errors: Strict<"FieldError">[] } | { values: Record<string, string> } {
  const errors: Strict<"FieldError">[] = [];
  const { configurationId, fields } = connector.secretConfiguration;
  if (body.configurationId !== configurationId) {
    errors.push({
      field: "configurationId",
      message: `must be ${configurationId}, the connector's first secret configuration`,
    });
  }
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const key of Object.keys(body.secretConfig)) {
    const field = byId.get(key);
    if (!field) errors.push({ field: `secretConfig.${key}`, message: "unknown field" });
    else if (field.readonly) errors.push({ field: `secretConfig.${key}`, message: "field is read-only" });
  }
  const values: Record<string, string> = {};
  for (const field of fields) {
    if (field.readonly) continue;
    if (kept && !Object.hasOwn(body.secretConfig, field.id) && Object.hasOwn(kept, field.id)) {
      values[field.id] = kept[field.id];
      continue;
    }
    const v = Object.hasOwn(body.secretConfig, field.id) ? body.secretConfig[field.id] : undefined;
    if (isEmpty(v)) {
      if (field.required) errors.push({ field: `secretConfig.${field.id}`, message: "is required" });
      continue;
    }
    const checked = checkValue(field, v as ServiceRequest<"FieldValue">);
    if ("error" in checked) errors.push({ field: `secretConfig.${field.id}`, message: checked.error });
    else values[field.id] = field.type === "Password" ? `sha256:${sha256(checked.ok)}` : checked.ok;
  }
  return errors.length > 0 ? { errors } : { values };
}

export const defaultSecretName = (accountId: string, connectorId: string): string =>
  `embedded-connectors/${accountId}/${connectorId}`;

/** The configuration payload of one connector in one sub-account (row absent = not added). */
export function configurationView(
  connector: CatalogueConnector,
  accountId: string,
  row?: AddedRow,
): Strict<"ConnectorConfigurationView"> {
  const configured = row?.configured === 1;
  const stored: Record<string, string> = configured ? (JSON.parse(row.secret_values) as Record<string, string>) : {};
  const configuration = connector.secretConfiguration.fields.map((f): Strict<"FieldDescriptor"> => {
    const { value: catalogueValue, ...rest } = f;
    if (f.type === "Password") return rest;
    const value = f.readonly ? catalogueValue : stored[f.id];
    return value === undefined ? rest : { ...rest, value };
  });
  const lastUpdated = configured ? row.last_updated : 0;
  const secretName = row?.secret_name ?? defaultSecretName(accountId, connector.connectorId);
  return {
    secretConfig: [
      {
        configurationId: connector.secretConfiguration.configurationId,
        name: row?.configuration_name ?? connector.secretConfiguration.name,
        secretName,
        configured,
        lastUpdated,
        configuration,
      },
    ],
    connectionConfig: connector.connectionConfig,
    editable: true,
    env: "production",
    configured,
    lastUpdated,
    secretName,
    configuration,
  };
}
