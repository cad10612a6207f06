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

/** What the service stores of a checked value: a Password as its digest. */
const storedForm = (field: Strict<"FieldDescriptor">, checked: string): string =>
  field.type === "Password" ? `sha256:${sha256(checked)}` : checked;

/** A refusal for each key that names no field, or a read-only one. */
function unknownOrReadonly(byId: Map<string, Strict<"FieldDescriptor">>, keys: string[]): Strict<"FieldError">[] {
  const errors: Strict<"FieldError">[] = [];
  for (const key of keys) {
    const field = byId.get(key);
    if (!field) errors.push({ field: `secretConfig.${key}`, message: "unknown field" });
    else if (field.readonly) errors.push({ field: `secretConfig.${key}`, message: "field is read-only" });
  }
  return errors;
}

/**
 * Checks the given fields into `values` (a Password as its digest; an empty value removes the
 * field), then refuses any required field `values` still lacks.
 */
function applyFields(
  fields: readonly Strict<"FieldDescriptor">[],
  given: Record<string, ServiceRequest<"FieldValue">>,
  values: Record<string, string>,
): Strict<"FieldError">[] {
  const errors: Strict<"FieldError">[] = [];
  for (const field of fields) {
    if (field.readonly) continue;
    if (Object.hasOwn(given, field.id)) {
      const v = given[field.id];
      const checked = isEmpty(v) ? undefined : checkValue(field, v);
      if (checked === undefined) delete values[field.id];
      else if ("error" in checked) {
        errors.push({ field: `secretConfig.${field.id}`, message: checked.error });
        continue;
      } else values[field.id] = storedForm(field, checked.ok);
    }
    if (field.required && values[field.id] === undefined)
      errors.push({ field: `secretConfig.${field.id}`, message: "is required" });
  }
  return errors;
}

/** The refusal of a Configure body naming another configuration than the connector's first. */
export function configurationIdErrors(
  connector: CatalogueConnector,
  body: ServiceRequest<"ConfigureBody">,
): Strict<"FieldError">[] {
  const { configurationId } = connector.secretConfiguration;
  return body.configurationId === configurationId
    ? []
    : [{ field: "configurationId", message: `must be ${configurationId}, the connector's first secret configuration` }];
}

/** All violations (one entry per field), or the values to store. */
export function validateConfigure(
  connector: CatalogueConnector,
  body: ServiceRequest<"ConfigureBody">,
): { errors: Strict<"FieldError">[] } | { values: Record<string, string> } {
  const errors = configurationIdErrors(connector, body);
  const { fields } = connector.secretConfiguration;
  const byId = new Map(fields.map((f) => [f.id, f]));
  errors.push(...unknownOrReadonly(byId, Object.keys(body.secretConfig)));
  const values: Record<string, string> = {};
  errors.push(...applyFields(fields, body.secretConfig, values));
  return errors.length > 0 ? { errors } : { values };
}

/**
 * A change of some fields (the admin API's merge, the web page's form): the fields given are
 * checked as Configure checks them, the others keep their stored values (a Password its
 * digest, so a Password need not be resent); an empty value clears an optional field.
 */
export function mergeConfigure(
  connector: CatalogueConnector,
  stored: Record<string, string>,
  changes: Record<string, ServiceRequest<"FieldValue">>,
): { errors: Strict<"FieldError">[] } | { values: Record<string, string> } {
  const { fields } = connector.secretConfiguration;
  const byId = new Map(fields.map((f) => [f.id, f]));
  const values = { ...stored };
  const errors = [...unknownOrReadonly(byId, Object.keys(changes)), ...applyFields(fields, changes, values)];
  return errors.length > 0 ? { errors } : { values };
}

/**
 * Whether the service holds each given value (a Password compared by its digest), for the admin
 * API: a test can tell that a Password was left as it was without the service ever showing it.
 */
export function holds(
  connector: CatalogueConnector,
  stored: Record<string, string>,
  given: Record<string, ServiceRequest<"FieldValue">>,
): Record<string, boolean> {
  const byId = new Map(connector.secretConfiguration.fields.map((f) => [f.id, f]));
  const result: Record<string, boolean> = {};
  for (const [id, v] of Object.entries(given)) {
    const field = byId.get(id);
    const checked = field === undefined || isEmpty(v) ? undefined : checkValue(field, v);
    if (field === undefined || checked === undefined || "error" in checked) result[id] = false;
    else result[id] = stored[id] === storedForm(field, checked.ok);
  }
  return result;
}

/** The stored values of a configured connector ({} when not configured). */
export const storedValues = (row: AddedRow | undefined): Record<string, string> =>
  row?.configured === 1 ? (JSON.parse(row.secret_values) as Record<string, string>) : {};

export const defaultSecretName = (accountId: string, connectorId: string): string =>
  `embedded-connectors/${accountId}/${connectorId}`;

/**
 * How a view shows a Password: the contract's (type `Password`, never a value), or a console's
 * (type `password`, and `********` once one is set: buildApp's `consolePasswords`).
 */
export type PasswordStyle = "contract" | "console";

/** What a console answers for a set Password. */
export const CONSOLE_MASK = "********";

function passwordView(rest: Strict<"FieldDescriptor">, set: boolean, style: PasswordStyle): Strict<"FieldDescriptor"> {
  if (style === "contract") return rest;
  return { ...rest, type: "password", ...(set ? { value: CONSOLE_MASK } : {}) };
}

/** The configuration payload of one connector in one sub-account (row absent = not added). */
export function configurationView(
  connector: CatalogueConnector,
  accountId: string,
  row?: AddedRow,
  style: PasswordStyle = "contract",
): Strict<"ConnectorConfigurationView"> {
  const configured = row?.configured === 1;
  const stored = storedValues(row);
  const configuration = connector.secretConfiguration.fields.map((f): Strict<"FieldDescriptor"> => {
    const { value: catalogueValue, ...rest } = f;
    if (f.type === "Password") return passwordView(rest, stored[f.id] !== undefined, style);
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
