// Pure rules of ConnectorConfiguration: validation and normalisation of secretConfig against
// the live field descriptors (the service's own rules, service/domain/configuration.ts), and
// what they leave as inputs. The digests that compare values are in field-digests.ts.
import { isDeepStrictEqual } from "node:util";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ConnectorConfigurationView } from "../client";
import { containsUnknown, kindOf } from "../schema/checks";
import { isMaskedValue, readableValue, type SecretTypesSource } from "../schema/secret-fields";

export type FieldDescriptor = ConnectorConfigurationView["configuration"][number];
export type SecretValue = string | number | string[];

/** The service's Date rule: YYYY-MM-DD, or an ISO 8601 date-time, that Date.parse reads. */
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The descriptors of the first secret configuration (the only one that can be saved). */
export function descriptorsOf(view: ConnectorConfigurationView): FieldDescriptor[] {
  return view.secretConfig[0]?.configuration ?? view.configuration;
}

/** Option values, whether the service lists them as strings or as { value, label } objects. */
export function optionValues(options: unknown): string[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return options.map((option: unknown) => {
    if (option !== null && typeof option === "object" && "value" in option) return String(option.value);
    return String(option);
  });
}

/** What the service treats as a missing value ("" and [] included). null it refuses outright. */
function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

// Messages name the kind of a value, never the value: every secretConfig value is a secret
// to Pulumi, and a misplaced API key must not end up in the engine's output.
export { kindOf } from "../schema/checks";

type Checked = { value: SecretValue } | { problem: string };

/** The value as the service will store it (Number → number, Multi-Select → list), or why it is refused. */
function checkValue(field: FieldDescriptor, value: unknown): Checked {
  const scalar = typeof value === "string" || typeof value === "number";
  if (!scalar && !(Array.isArray(value) && value.every((v) => typeof v === "string"))) {
    return { problem: `must be a string, a number or a list of strings, got ${kindOf(value)}` };
  }
  const options = optionValues(field.options) ?? []; // no options listed: the service accepts none
  const listed = options.length > 0 ? options.join(", ") : "(none listed)";
  switch (field.type) {
    case "Number": {
      const n =
        typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { problem: `must be a finite number, got ${kindOf(value)}` };
      if (typeof field.min === "number" && n < field.min) return { problem: `must be at least ${field.min}` };
      if (typeof field.max === "number" && n > field.max) return { problem: `must be at most ${field.max}` };
      return { value: n };
    }
    case "Date":
      if (typeof value !== "string" || !DATE.test(value) || Number.isNaN(Date.parse(value))) {
        return {
          problem: `must be a date (YYYY-MM-DD or ISO 8601), got ${typeof value === "string" ? "another string" : kindOf(value)}`,
        };
      }
      return { value };
    case "Select":
      if (typeof value !== "string") return { problem: `takes one of its options as a string, got ${kindOf(value)}` };
      return options.includes(value) ? { value } : { problem: `must be one of ${listed}` };
    case "Multi-Select": {
      // A list, or the comma-separated form the service also takes (items trimmed, as it does).
      const items = Array.isArray(value)
        ? value
        : typeof value === "string"
          ? value.split(",").map((v) => v.trim())
          : null;
      if (!items) return { problem: `takes a list of values, got ${kindOf(value)}` };
      const bad = items.filter((v) => !options.includes(v)).length;
      return bad > 0
        ? { problem: `takes only values among ${listed} (${bad} of ${items.length} are not)` }
        : { value: items };
    }
    default:
      // Text, Password, and types this provider does not know: passed through, as a string.
      return typeof value === "string" ? { value } : { problem: `must be a string, got ${kindOf(value)}` };
  }
}

export interface ValidatedSecretConfig {
  /** One per field, property `secretConfig.<fieldId>`. */
  failures: CheckFailure[];
  /** The values in the form the service stores them, so that what is applied is what is compared. */
  normalised: Record<string, unknown>;
}

/**
 * Applies the service's Configure rules to secretConfig. Unknown values (preview) are not
 * validated, but count as present for the required-field rule; "" and [] count as missing.
 */
export function validateSecretConfig(
  connectorId: string,
  descriptors: FieldDescriptor[],
  secretConfig: Record<string, unknown>,
  /** Password fields the service holds (heldByService): required, but not this configuration's to give. */
  held: readonly string[] = [],
): ValidatedSecretConfig {
  const failures: CheckFailure[] = [];
  const normalised: Record<string, unknown> = {};
  const byId = new Map(descriptors.map((d) => [d.id, d]));
  for (const [key, value] of Object.entries(secretConfig)) {
    normalised[key] = value;
    const field = byId.get(key);
    const property = `secretConfig.${key}`;
    if (!field) {
      const known = descriptors.map((d) => d.id).join(", ") || "none";
      failures.push({ property, reason: `connector ${connectorId} has no field "${key}"; its fields are: ${known}` });
    } else if (field.readonly) {
      failures.push({ property, reason: `field "${key}" (${field.label}) is read-only and cannot be set` });
    } else if (isMaskedValue(value)) {
      // A mask copied from a console (or written by an older generate): sent, it would replace the real value.
      failures.push({
        property,
        reason:
          `field "${key}" (${field.label}) holds a masked value (mask characters, as a console shows a secret), ` +
          "not a value: sent, it would overwrite the value the service holds. Read it from a secret " +
          "(config.requireSecret), or leave it to the service (heldByService); docs/secrets.md#what-is-a-secret-field",
      });
    } else if (!containsUnknown(value) && !isEmptyValue(value)) {
      const checked = checkValue(field, value);
      if ("problem" in checked)
        failures.push({ property, reason: `field "${key}" (${field.label}, ${field.type}) ${checked.problem}` });
      else normalised[key] = checked.value;
    }
  }
  for (const field of descriptors) {
    const value = Object.hasOwn(secretConfig, field.id) ? secretConfig[field.id] : undefined;
    if (field.required && !field.readonly && isEmptyValue(value) && !(value === undefined && held.includes(field.id))) {
      const given = value === undefined ? "" : " (an empty value counts as missing)";
      failures.push({
        property: `secretConfig.${field.id}`,
        reason: `field "${field.id}" (${field.label}) is required by connector ${connectorId}${given}`,
      });
    }
  }
  return { failures, normalised };
}

function sameNormalisedForm(applied: unknown, given: unknown): boolean {
  if (isDeepStrictEqual(applied, given)) return true;
  if (typeof applied === "number" && typeof given === "string") return given.trim() !== "" && Number(given) === applied;
  if (Array.isArray(applied) && typeof given === "string") {
    return (
      given !== "" &&
      isDeepStrictEqual(
        given.split(",").map((v) => v.trim()),
        applied,
      )
    );
  }
  return false;
}

/**
 * Whether `given` (as the program wrote it) normalises to `applied` (what an earlier check
 * returned), told without the descriptors: only a Number field normalises to a number and only
 * a Multi-Select to a list, so the applied value says which rule the given one follows.
 */
export function normalisesTo(applied: unknown, given: unknown): boolean {
  const record = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!record(applied) || !record(given)) return isDeepStrictEqual(applied, given);
  const keys = Object.keys(given);
  return (
    keys.length === Object.keys(applied).length &&
    keys.every((k) => Object.hasOwn(applied, k) && sameNormalisedForm(applied[k], given[k]))
  );
}

/** The field values the service returns, as values: a secret field's (a Password sent anyway, a mask) left out. */
export function valuesOf(view: ConnectorConfigurationView, profile: SecretTypesSource): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of descriptorsOf(view)) {
    const value = readableValue(field, profile);
    if (value !== undefined && value !== null) values[field.id] = value;
  }
  return values;
}
