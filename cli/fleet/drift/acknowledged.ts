// Acknowledged drift: a reviewed file (default `acknowledged.yaml` beside Pulumi.yaml, or
// `--acknowledged FILE`) that lists known drift by stack, resource and field, each with a reason
// and the last day it is accepted. An acknowledged field is reported `acknowledged` and does not
// make the run exit 2; any other field of the same resource still does, and so does a field
// whose entry has expired (the report names the entry). Nothing is written anywhere: the state
// keeps the last apply's values, so `fleet up` still puts the field back when the team wants.
//
//   - stack: acme-eu
//     type: ConnectorConfiguration        # or AddedConnector (a connector has one of each, same name)
//     resource: s3                        # the resource's name (its connector key)
//     field: fieldDigests.bucket          # a property as the report names it
//     reason: the customer moves its exports until the migration ends (OPS-214)
//     expires: 2026-12-31                 # accepted through that day (UTC)
//   - stack: acme-eu
//     unmanaged: 9f3e2d1c0b4a5968         # a connector added by hand that no stack manages
//     reason: the customer's own trial connector
//     expires: 2027-01-31
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseYaml } from "../../../provider/project/pulumi-project";

export const DEFAULT_ACKNOWLEDGED_FILE = "acknowledged.yaml";
/**
 * The outputs that move with any write to a configuration (provider/schema/connector-configuration.ts):
 * they follow the fields that changed, and are never acknowledged on their own. A write with no
 * field digest changed (a Password, which the service never returns) leaves them alone to tell it,
 * so it stays drift however much of the resource is acknowledged.
 */
export const FOLLOWING_OUTPUTS: readonly string[] = ["drift", "lastUpdated"];
const TYPES = ["AddedConnector", "ConnectorConfiguration"] as const;
const FIELD_KEYS = ["stack", "type", "resource", "field", "reason", "expires"];
const UNMANAGED_KEYS = ["stack", "unmanaged", "reason", "expires"];

interface Common {
  stack: string;
  reason: string;
  /** YYYY-MM-DD: accepted through the end of that day, UTC. */
  expires: string;
  /** 1-based, for messages. */
  entry: number;
}
export type FieldAcknowledgement = Common & { kind: "field"; type: string; resource: string; field: string };
export type UnmanagedAcknowledgement = Common & { kind: "unmanaged"; connectorId: string };
export type Acknowledgement = FieldAcknowledgement | UnmanagedAcknowledgement;

export interface AcknowledgedFile {
  file: string;
  entries: Acknowledgement[];
}

const EXAMPLE =
  "each entry: { stack, type: AddedConnector | ConnectorConfiguration, resource, field, reason, expires: YYYY-MM-DD } or { stack, unmanaged: <connector id>, reason, expires }";

function text(raw: Record<string, unknown>, key: string, where: string, what: string): string {
  const value = raw[key];
  if (typeof value === "number")
    throw new Error(`${where}: "${key}" reads as a number; write it in quotes ("${key}: '…'") to give ${what}`);
  if (typeof value !== "string" || value.trim() === "")
    throw new Error(`${where}: "${key}" is missing or not text; give ${what}`);
  return value.trim();
}

/** A date YYYY-MM-DD that exists (2026-02-30 does not). */
function dateOf(raw: Record<string, unknown>, where: string): string {
  const value = raw.expires instanceof Date ? raw.expires.toISOString().slice(0, 10) : raw.expires;
  const ok =
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
  if (!ok)
    throw new Error(
      `${where}: "expires" must be a date YYYY-MM-DD (the last day the drift is accepted, UTC), got ${JSON.stringify(value ?? null)}`,
    );
  return value;
}

function entryOf(raw: unknown, index: number, file: string, stacks: readonly string[]): Acknowledgement {
  const entry = index + 1;
  let where = `${file}, entry ${entry}`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`${where}: not a mapping; ${EXAMPLE}`);
  const r = raw as Record<string, unknown>;
  const stack = text(r, "stack", where, "the stack's name (Pulumi.<stack>.yaml)");
  where = `${where} (stack ${stack})`;
  if (!stacks.includes(stack))
    throw new Error(`${where}: no stack file Pulumi.${stack}.yaml in the fleet; correct the name or remove the entry`);
  const allowed = "unmanaged" in r ? UNMANAGED_KEYS : FIELD_KEYS;
  const unknown = Object.keys(r).filter((k) => !allowed.includes(k));
  if (unknown.length > 0)
    throw new Error(`${where}: unknown key(s) ${unknown.map((k) => `"${k}"`).join(", ")}; ${EXAMPLE}`);
  const common = {
    stack,
    entry,
    reason: text(r, "reason", where, "why the drift is accepted (a ticket, who agreed)"),
    expires: dateOf(r, where),
  };
  if ("unmanaged" in r)
    return {
      ...common,
      kind: "unmanaged",
      connectorId: text(r, "unmanaged", where, "the connector's id as the report lists it"),
    };
  const type = text(r, "type", where, `the resource's type, ${TYPES.join(" or ")}`);
  if (!(TYPES as readonly string[]).includes(type))
    throw new Error(
      `${where}: "type" must be ${TYPES.join(" or ")} (as the report's TYPE column names it), got ${JSON.stringify(type)}`,
    );
  const field = text(r, "field", where, "the property as the report names it (e.g. fieldDigests.bucket)");
  if (FOLLOWING_OUTPUTS.includes(field))
    throw new Error(
      `${where}: "field: ${field}" cannot be acknowledged on its own: it moves with any write, so it follows the ` +
        `fields that changed (acknowledge those, e.g. fieldDigests.bucket). Alone, it tells a Password written by ` +
        `hand (the service never returns one): put it back with the stack's repair command, or set the new ` +
        `Password in the stack's secretConfig and run fleet up`,
    );
  return {
    ...common,
    kind: "field",
    type,
    resource: text(r, "resource", where, "the resource's name (the connector key of the stack file)"),
    field,
  };
}

/** Parses and validates the file's text; every error names the file, the entry and what to do. */
export function parseAcknowledged(source: string, file: string, stacks: readonly string[]): AcknowledgedFile {
  const doc = parseYaml(source, file);
  if (doc === null || doc === undefined) return { file, entries: [] };
  if (!Array.isArray(doc)) throw new Error(`${file}: expected a list of entries; ${EXAMPLE}`);
  const entries = doc.map((raw, i) => entryOf(raw, i, file, stacks));
  const seen = new Map<string, number>();
  for (const e of entries) {
    const key = JSON.stringify(e.kind === "field" ? [e.stack, e.type, e.resource, e.field] : [e.stack, e.connectorId]);
    const first = seen.get(key);
    if (first !== undefined)
      throw new Error(
        `${file}, entry ${e.entry} (stack ${e.stack}): the same drift as entry ${first}; keep one of them`,
      );
    seen.set(key, e.entry);
  }
  return { file, entries };
}

/**
 * The acknowledged file: `flag` if given (it must exist), else `acknowledged.yaml` in the
 * fleet's directory if there is one, else none.
 */
export async function readAcknowledged(
  dir: string,
  flag: string | undefined,
  stacks: readonly string[],
): Promise<AcknowledgedFile | undefined> {
  const file = flag ?? path.join(dir, DEFAULT_ACKNOWLEDGED_FILE);
  let source: string;
  try {
    source = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && flag === undefined) return undefined;
    throw new Error(`--acknowledged ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  // An editor's byte-order mark is no content (the Pulumi CLI reads such files too).
  return parseAcknowledged(source.replace(/^\uFEFF/, ""), path.relative(process.cwd(), file) || file, stacks);
}

/** Whether an entry's last day is over at `now` (accepted through the end of that day, UTC). */
export function isExpired(entry: Pick<Acknowledgement, "expires">, now: Date): boolean {
  return now.getTime() >= new Date(`${entry.expires}T00:00:00Z`).getTime() + 86_400_000;
}
