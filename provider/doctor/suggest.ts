// The profile doctor suggests (`--write-profile FILE`): the current profile with every finding
// applied, written as the keys that differ from the built-in default, so that the file reads as
// "what this service does differently". JSON for a `.json` file, else YAML.
import { Document, stringify, type Scalar, type YAMLMap } from "yaml";
import {
  DEFAULT_PROFILE,
  type ResolvedOperation,
  type ResolvedProfile,
  type ServiceProfile,
} from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { LIST_OPERATIONS } from "../../contract/profile";
import { settledPaging, type DoctorReport } from "./doctor";

const OPERATION_KEYS = ["method", "path", "query", "paging", "list", "envelope", "fields", "success"] as const;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The operation as the findings say the service speaks it. An operation doctor does not call
 * (Add, Configure, Remove) takes the envelope that every route it read agrees on.
 */
function applied(op: ResolvedOperation, report: DoctorReport): Mutable<ResolvedOperation> {
  const out: Mutable<ResolvedOperation> = { ...op, list: { ...op.list }, envelope: { ...op.envelope } };
  const read = report.routes.filter((r) => r.operation !== "getToken" && r.envelope);
  const own = report.routes.filter((r) => r.operation === op.operation);
  const shared = new Set(read.map((r) => JSON.stringify(r.envelope)));
  const findings =
    own.length === 0 && op.operation !== "getToken" && shared.size === 1 && read[0]
      ? [{ ...read[0], operation: op.operation, paging: undefined, list: undefined, keys: [] }]
      : own;
  for (const f of findings) {
    const paging = f.paging ? settledPaging(f) : undefined;
    if (paging && f.pagingKey) out.paging = paging;
    if (f.list?.items !== undefined) {
      if (f.list.items !== "") out.list.items = f.list.items;
      out.list.total = f.list.total ?? null;
      out.list.next = f.list.next ?? null;
    }
    const e = f.envelope;
    if (e && !e.present && op.envelope.mode === "present") out.envelope.mode = "absent";
    if (e?.present) {
      if (op.envelope.mode === "absent") out.envelope.mode = "present";
      if (e.payload) out.envelope.payload = e.payload;
      if (e.status && !op.envelope.status.includes(e.status)) out.envelope.status = [e.status];
      if (e.message && !op.envelope.message.includes(e.message)) out.envelope.message = [e.message];
    }
  }
  return out;
}

/** The suggested profile file's content. */
export function suggestedProfile(
  report: DoctorReport,
  extraSemantics: Partial<ResolvedProfile["semantics"]> = {},
  success: Partial<Record<OperationName, "view" | "empty">> = {},
): ServiceProfile {
  const operations: Record<string, Record<string, unknown>> = {};
  const all = Object.fromEntries(
    (Object.entries(report.profile.operations) as [OperationName, ResolvedOperation][]).map(([name, op]) => {
      const next = applied(op, report);
      if (success[name]) next.success = success[name];
      return [name, next];
    }),
  ) as Record<OperationName, ResolvedOperation>;
  // What every list agrees on (its paging, where its items are) is written once, under `defaults`.
  const defaults: Record<string, unknown> = {};
  for (const key of ["paging", "list"] as const) {
    const values = new Set(LIST_OPERATIONS.map((name) => JSON.stringify(all[name][key])));
    const value = all[LIST_OPERATIONS[0]][key];
    if (
      values.size === 1 &&
      JSON.stringify(value) !== JSON.stringify(DEFAULT_PROFILE.operations[LIST_OPERATIONS[0]][key])
    ) {
      defaults[key] = value;
    }
  }
  for (const [name, next] of Object.entries(all) as [OperationName, ResolvedOperation][]) {
    const base = DEFAULT_PROFILE.operations[name];
    const entry: Record<string, unknown> = {};
    for (const key of OPERATION_KEYS) {
      const listed = (LIST_OPERATIONS as readonly string[]).includes(name);
      const expected = listed && key in defaults ? defaults[key] : base[key];
      if (JSON.stringify(next[key]) !== JSON.stringify(expected)) entry[key] = next[key];
    }
    if (Object.keys(entry).length > 0) operations[name] = entry;
  }
  const semantics = { ...report.profile.semantics, ...report.semantics, ...extraSemantics };
  const changed = Object.fromEntries(
    Object.entries(semantics).filter(
      ([k, v]) => JSON.stringify(v) !== JSON.stringify(DEFAULT_PROFILE.semantics[k as keyof typeof semantics]),
    ),
  );
  return {
    name: `suggested by doctor (from ${report.profile.name})`,
    description: "written by `pulumi-embedded-connectors doctor --write-profile`",
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    ...(Object.keys(operations).length > 0 ? { operations } : {}),
    ...(Object.keys(changed).length > 0 ? { semantics: changed } : {}),
  } as ServiceProfile;
}

/** The profile's text for `file`: JSON for a `.json` file, else YAML. */
export function profileText(file: string, profile: ServiceProfile): string {
  return /\.json$/i.test(file) ? `${JSON.stringify(profile, null, 2)}\n` : stringify(profile);
}

/** The mark of an operation doctor could not find, for the user to fill in (the YAML comment; JSON's description). */
export const FILL_IN = "FILL IN from the service's documentation";

/**
 * When routes were not found (404 or 405 at the profile's method and path), the suggested
 * profile becomes a template: every operation with its method and path as the profile has them,
 * those not found marked, so the user fills in what doctor cannot guess. Otherwise the text of
 * profileText.
 */
export function profileTemplateText(file: string, profile: ServiceProfile, report: DoctorReport): string {
  const notFound = report.routes.filter((r) => r.keys.some((key) => /\.(path|method)$/.test(key)));
  if (notFound.length === 0) return profileText(file, profile);
  const missing = new Set(notFound.map((r) => r.operation));
  const operations: Record<string, Record<string, unknown>> = {};
  for (const [name, op] of Object.entries(report.profile.operations) as [OperationName, ResolvedOperation][]) {
    const suggested = (profile.operations as Record<string, Record<string, unknown>> | undefined)?.[name] ?? {};
    operations[name] = { method: op.method, path: op.path, ...suggested };
  }
  const json = /\.json$/i.test(file);
  const marked = [...missing].map(
    (name) => `${name} (${report.profile.operations[name].method} ${report.profile.operations[name].path})`,
  );
  const template = {
    ...profile,
    description: json
      ? `${profile.description ?? ""}; not found, ${FILL_IN}: the method and path of ${marked.join(", ")}`
      : profile.description,
    operations,
  } as ServiceProfile;
  if (json) return `${JSON.stringify(template, null, 2)}\n`;
  const doc = new Document(template);
  const ops = doc.get("operations", true) as YAMLMap<Scalar<string>, unknown>;
  for (const pair of ops.items) {
    const name = pair.key.value as OperationName;
    if (!missing.has(name)) continue;
    const op = report.profile.operations[name];
    pair.key.commentBefore = ` not found at ${op.method} ${op.path} (404/405): ${FILL_IN} (method, path)`;
  }
  return doc.toString();
}
