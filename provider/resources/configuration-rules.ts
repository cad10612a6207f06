// Pure rules of ConnectorConfiguration: validation of secretConfig against the live field
// descriptors (service-contract.md, "Configure"), the fingerprint, and value comparison.
import { createHmac } from "node:crypto";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ConnectorConfigurationView } from "../client";
import { containsUnknown } from "./shared";

export type FieldDescriptor = ConnectorConfigurationView["configuration"][number];
export type SecretValue = string | number | string[];

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

// Messages never quote a string value: every secretConfig value is a secret to Pulumi, and
// a misplaced API key must not end up in the engine's output.
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "number") return String(value);
  return value === null ? "null" : `a ${typeof value}`;
}

function checkValue(field: FieldDescriptor, value: unknown): string | undefined {
  const options = optionValues(field.options);
  const scalar = typeof value === "string" || typeof value === "number";
  if (!scalar && !(Array.isArray(value) && value.every((v) => typeof v === "string"))) {
    return `must be a string, a number or a list of strings, got ${kindOf(value)}`;
  }
  switch (field.type) {
    case "Number": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      if (!Number.isFinite(n)) return `must be a number, got ${kindOf(value)}`;
      if (typeof field.min === "number" && n < field.min) return `must be at least ${field.min}, got ${n}`;
      if (typeof field.max === "number" && n > field.max) return `must be at most ${field.max}, got ${n}`;
      return undefined;
    }
    case "Select":
      if (typeof value !== "string") return `takes one of its options as a string, got ${kindOf(value)}`;
      if (options && !options.includes(value)) return `must be one of ${options.join(", ")}`;
      return undefined;
    case "Multi-Select": {
      // A list, or the comma-separated form the service returns.
      const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",").map((v) => v.trim()) : null;
      if (!items) return `takes a list of values, got ${kindOf(value)}`;
      const bad = options ? items.filter((v) => !options.includes(String(v))).length : 0;
      return bad > 0 ? `takes only values among ${options?.join(", ")} (${bad} of ${items.length} are not)` : undefined;
    }
    case "Text":
    case "Date":
    case "Password":
      return typeof value === "string" ? undefined : `must be a string, got ${kindOf(value)}`;
    default:
      return undefined; // the list of types is open: unknown types pass through
  }
}

/**
 * One failure per field, property `secretConfig.<fieldId>`. Unknown values (preview) are
 * not validated, but count as present for the required-field rule.
 */
export function validateSecretConfig(
  connectorId: string,
  descriptors: FieldDescriptor[],
  secretConfig: Record<string, unknown>,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const byId = new Map(descriptors.map((d) => [d.id, d]));
  for (const [key, value] of Object.entries(secretConfig)) {
    const field = byId.get(key);
    const property = `secretConfig.${key}`;
    if (!field) {
      const known = descriptors.map((d) => d.id).join(", ") || "none";
      failures.push({ property, reason: `connector ${connectorId} has no field "${key}"; its fields are: ${known}` });
    } else if (containsUnknown(value)) {
      continue;
    } else if (field.readonly) {
      failures.push({ property, reason: `field "${key}" (${field.label}) is read-only and cannot be set` });
    } else {
      const problem = checkValue(field, value);
      if (problem) failures.push({ property, reason: `field "${key}" (${field.label}, ${field.type}) ${problem}` });
    }
  }
  for (const field of descriptors) {
    if (field.required && !field.readonly && !(field.id in secretConfig)) {
      failures.push({
        property: `secretConfig.${field.id}`,
        reason: `field "${field.id}" (${field.label}) is required by connector ${connectorId}`,
      });
    }
  }
  return failures;
}

/** JSON with sorted object keys, so that equal configurations hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * HMAC-SHA256 of the canonical secretConfig, keyed by a random per-resource salt and the
 * resource id: a changed value changes it, and it cannot be matched against a dictionary
 * computed once for all users. Still a secret output, as defence in depth.
 */
export function fingerprintOf(secretConfig: unknown, salt: string, accountId: string, connectorId: string): string {
  const key = `pulumi-embedded-connectors/v1|${salt}|${accountId}/${connectorId}`;
  return `hmac-sha256:${createHmac("sha256", key).update(canonicalJson(secretConfig)).digest("hex")}`;
}

/** The non-Password field values the service returns (Password values never come back). */
export function valuesOf(view: ConnectorConfigurationView): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of descriptorsOf(view)) {
    if (field.type !== "Password" && field.value !== undefined && field.value !== null) values[field.id] = field.value;
  }
  return values;
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") {
    if (value.startsWith("[")) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        // not JSON: fall through to comma-separated
      }
    }
    return value === "" ? [] : value.split(",").map((v) => v.trim());
  }
  return [String(value)];
}

/** Desired vs live value, tolerant of representation (30 vs "30", list vs "a,b"). */
export function sameValue(desired: unknown, live: unknown): boolean {
  if (Array.isArray(desired)) {
    const a = asList(desired).sort();
    const b = asList(live).sort();
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return String(desired) === String(live);
}
