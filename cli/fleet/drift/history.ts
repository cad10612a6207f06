// Drift history: per stack, resource and field, when the drift was first and last seen, kept
// from run to run (history-store.ts), and the events a run makes of it: `new` (not drifted at
// the last run that checked the stack), `resolved` (drifted then, not now) and `unchanged`. Only
// names are kept (URNs, types, property paths, connector ids), never a value. A stack whose
// check failed keeps its records as they were and makes no event: a failed check proves nothing
// gone, and neither does a listing not made or refused (--no-discovery, a stack the engine
// checked, a sub-account's listing failed): an unmanaged connector then stays as last seen.
// Stacks not checked in this run (another shard, --stacks) are left as they are.
import type { DriftEvent, DriftFieldRecord, StackReport } from "../report";

/** What the history keeps of one drifted field: the report's own record (report.ts). */
export type HistoryRecord = DriftFieldRecord;

export interface HistoryDoc {
  schemaVersion: 1;
  project: string;
  /** Stack → its drifted fields, as of the last run that checked it. */
  stacks: Record<string, HistoryRecord[]>;
}

export function emptyHistory(project: string): HistoryDoc {
  return { schemaVersion: 1, project, stacks: {} };
}

/** A stored history, read tolerantly: records that are not well-formed are dropped (the next run starts them again). */
export function historyOf(parsed: unknown, project: string, where: string): HistoryDoc {
  const doc = parsed as Partial<HistoryDoc> | null;
  if (!doc || typeof doc !== "object" || doc.schemaVersion !== 1 || typeof doc.stacks !== "object" || !doc.stacks)
    throw new Error(`${where} is not a drift history (schemaVersion 1); move it away, or give --history another file`);
  if (doc.project !== project)
    throw new Error(
      `${where} is the drift history of project ${JSON.stringify(doc.project)}, not ${project}; give --history another file`,
    );
  const stacks: Record<string, HistoryRecord[]> = {};
  for (const [stack, records] of Object.entries(doc.stacks)) {
    if (!Array.isArray(records)) continue;
    stacks[stack] = records.filter(
      (r: Partial<HistoryRecord>) =>
        r &&
        ["resource", "type", "name", "field", "firstSeen", "lastSeen"].every(
          (k) => typeof r[k as keyof HistoryRecord] === "string",
        ) &&
        [r.firstSeen, r.lastSeen].every((t) => !Number.isNaN(Date.parse(t as string))),
    );
  }
  return { schemaVersion: 1, project, stacks };
}

type Seen = Omit<HistoryRecord, "firstSeen" | "lastSeen">;

/** What a stack's report shows drifted now, one entry per field. */
export function seenNow(report: StackReport): Seen[] {
  const seen: Seen[] = [];
  for (const c of report.resources) {
    const type = c.type.slice(c.type.lastIndexOf(":") + 1);
    const acked = new Set((c.acknowledged ?? []).map((a) => a.field));
    const fields = c.operation === "update" && c.properties.length > 0 ? c.properties : ["(gone)"];
    for (const field of fields)
      seen.push({ resource: c.urn, type, name: c.name, field, acknowledged: acked.has(field) });
  }
  for (const u of report.unmanaged ?? [])
    seen.push({
      resource: `unmanaged:${u.accountId}/${u.connectorId}`,
      type: "unmanaged connector",
      name: u.name,
      field: "(unmanaged)",
      acknowledged: u.acknowledged !== undefined,
    });
  return seen;
}

/**
 * Whether this run listed every sub-account of the stack in full (discovery ran, no listing was
 * refused): only then is an unmanaged connector no longer seen one that is gone.
 */
export const listedInFull = (report: StackReport) =>
  report.unmanaged !== undefined && report.discoveryNotRun === undefined;

const keyOf = (r: Pick<HistoryRecord, "resource" | "field">) => `${r.resource}\u0000${r.field}`;

/**
 * The history after this run, its events, and the reports with `since` (the oldest first-seen of
 * a resource's fields; an unmanaged connector's own).
 */
export function observe(
  previous: HistoryDoc,
  reports: StackReport[],
  now: Date,
): { history: HistoryDoc; events: DriftEvent[]; stacks: StackReport[] } {
  const at = now.toISOString();
  const stacks: Record<string, HistoryRecord[]> = { ...previous.stacks };
  const events: DriftEvent[] = [];
  const out = reports.map((report) => {
    if (report.status === "failed") return report;
    const before = new Map((previous.stacks[report.stack] ?? []).map((r) => [keyOf(r), r]));
    const records: HistoryRecord[] = [];
    for (const s of seenNow(report)) {
      const old = before.get(keyOf(s));
      before.delete(keyOf(s));
      const record = { ...s, firstSeen: old?.firstSeen ?? at, lastSeen: at };
      records.push(record);
      events.push({ event: old ? "unchanged" : "new", stack: report.stack, ...record });
    }
    const stillDrifted = new Set(records.map((r) => r.resource));
    for (const gone of before.values()) {
      if (gone.field === "(unmanaged)" && !listedInFull(report)) {
        records.push(gone); // its sub-account was not listed in full this run: still as last seen, no event
        continue;
      }
      // The resource still drifts another way (its connector is now gone, say): nothing read the field
      // back as it should be, so this is no resolution. Its record gives way to what is seen now.
      if (stillDrifted.has(gone.resource)) continue;
      events.push({ event: "resolved", stack: report.stack, ...gone });
    }
    if (records.length > 0) stacks[report.stack] = records;
    else delete stacks[report.stack];
    const firstOf = new Map<string, string>();
    for (const r of records) {
      const f = firstOf.get(r.resource);
      if (!f || r.firstSeen < f) firstOf.set(r.resource, r.firstSeen);
    }
    return {
      ...report,
      resources: report.resources.map((c) => ({ ...c, ...(firstOf.has(c.urn) ? { since: firstOf.get(c.urn) } : {}) })),
      ...(report.unmanaged
        ? {
            unmanaged: report.unmanaged.map((u) => ({
              ...u,
              since: firstOf.get(`unmanaged:${u.accountId}/${u.connectorId}`),
            })),
          }
        : {}),
    };
  });
  const order = { new: 0, resolved: 1, unchanged: 2 };
  events.sort(
    (a, b) => order[a.event] - order[b.event] || a.stack.localeCompare(b.stack) || keyOf(a).localeCompare(keyOf(b)),
  );
  return { history: { schemaVersion: 1, project: previous.project, stacks }, events, stacks: out };
}
