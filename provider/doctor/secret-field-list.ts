// doctor's list of the fields the provider will treat as secret, per added connector it read, and
// why: the one rule (schema/secret-fields.ts) applied to what this service answers, so a Password
// spelled otherwise, a type the profile must add, or a masked value shows before the first
// `pulumi up`. Field ids and reasons only: never a value.
import { secretVerdict, type SecretTypesSource } from "../schema/secret-fields";
import { configurationOf } from "./configure-probe";
import { effectiveStatus } from "./shapes";
import type { WireAnswer } from "./wire-client";

/** How many added connectors doctor reads the configuration of (the added list's first small page). */
export const SECRET_FIELDS_READ = 5;

export interface ConnectorSecretFields {
  connectorId: string;
  /** The status Get Configuration meant; the fields only when it read. */
  status: number;
  fields: { id: string; reason: string }[];
}

/** The secret fields of one connector's Get Configuration answer, each with the rule's reason. */
export function secretFieldsOf(
  connectorId: string,
  answer: WireAnswer,
  profile: SecretTypesSource,
): ConnectorSecretFields {
  const status = effectiveStatus(answer.status, answer.body);
  if (status >= 300) return { connectorId, status, fields: [] };
  const fields = configurationOf(answer.body).fields.flatMap((field) => {
    const verdict = secretVerdict(field, profile);
    return verdict.secret ? [{ id: field.id, reason: verdict.reason }] : [];
  });
  return { connectorId, status, fields };
}

/** The report's lines: one per connector read. */
export function secretFieldLines(list: readonly ConnectorSecretFields[]): string[] {
  const lines = ["secret fields, never taken as values (docs/secrets.md#what-is-a-secret-field):"];
  if (list.length === 0) lines.push("  none read: no connector is added to this sub-account");
  for (const c of list) {
    const fields = c.fields.map((f) => `${f.id}: ${f.reason}`).join("; ");
    const found = c.status >= 300 ? `not read (Get Configuration answered ${c.status})` : fields || "none";
    lines.push(`  connector ${c.connectorId}: ${found}`);
  }
  return lines;
}
