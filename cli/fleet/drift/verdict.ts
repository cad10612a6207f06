// A drift check's verdict per stack once the acknowledged file is read (acknowledged.ts): each
// field a resource's refresh found changed is acknowledged (an unexpired entry accepts it),
// expired (its entry's day is over: it counts as drift, and the report names the entry) or
// open; `drift` and `lastUpdated` follow the fields (acknowledged.ts FOLLOWING_OUTPUTS). A
// stack whose every difference is acknowledged is `acknowledged` (exit 0); one with an open or
// expired field, a resource gone, or a connector no stack manages stays drifted (or
// `unmanaged`: exit 2). A failed stack stays failed, and its entries are not called unused.
import type { DriftSections, ResourceChange, StackReport } from "../report";
import { typeName } from "../report";
import { FOLLOWING_OUTPUTS, isExpired, type AcknowledgedFile, type Acknowledgement } from "./acknowledged";

function note(e: Acknowledgement): { reason: string; expires: string } {
  return { reason: e.reason, expires: e.expires };
}

function judgeChange(
  stack: string,
  change: ResourceChange,
  entries: Acknowledgement[],
  now: Date,
  used: Set<Acknowledgement>,
): { change: ResourceChange; open: boolean } {
  const acknowledged: NonNullable<ResourceChange["acknowledged"]> = [];
  const expired: NonNullable<ResourceChange["expired"]> = [];
  let open = change.operation !== "update" || change.properties.length === 0;
  const following = change.properties.filter((field) => FOLLOWING_OUTPUTS.includes(field));
  const fields = change.properties.filter((field) => !FOLLOWING_OUTPUTS.includes(field));
  for (const field of fields) {
    const entry = entries.find(
      (e) =>
        e.kind === "field" &&
        e.stack === stack &&
        e.type === typeName(change) &&
        e.resource === change.name &&
        e.field === field,
    );
    if (entry) used.add(entry);
    if (entry && !isExpired(entry, now)) acknowledged.push({ field, ...note(entry) });
    else {
      open = true;
      if (entry) expired.push({ field, ...note(entry) });
    }
  }
  // What moves with any write is accepted with the fields that moved it, until the first of their
  // entries expires; with no field of its own moved (a Password written by hand), it stays open.
  if (following.length > 0) {
    if (fields.length === 0 || acknowledged.length < fields.length) open = true;
    else {
      const first = acknowledged.reduce((a, b) => (b.expires < a.expires ? b : a));
      const by = acknowledged.map((a) => a.field).join(", ");
      for (const field of following) acknowledged.push({ field, reason: `follows ${by}`, expires: first.expires });
    }
  }
  return {
    change: {
      ...change,
      ...(acknowledged.length > 0 ? { acknowledged } : {}),
      ...(expired.length > 0 ? { expired } : {}),
    },
    open,
  };
}

/** The stack with its fields judged, and its status: drifted, unmanaged, acknowledged or as it was. */
export function judgeStack(
  report: StackReport,
  entries: Acknowledgement[],
  now: Date,
  used: Set<Acknowledgement>,
  repair: (stack: string) => string,
): StackReport {
  if (report.status === "failed") return report;
  let open = false;
  const resources = report.resources.map((c) => {
    const judged = judgeChange(report.stack, c, entries, now, used);
    open ||= judged.open;
    return judged.change;
  });
  let unmanagedOpen = false;
  const unmanaged = report.unmanaged?.map((u) => {
    const entry = entries.find(
      (e) => e.kind === "unmanaged" && e.stack === report.stack && e.connectorId === u.connectorId,
    );
    if (entry) used.add(entry);
    if (entry && !isExpired(entry, now)) return { ...u, acknowledged: note(entry) };
    unmanagedOpen = true;
    return entry ? { ...u, expired: note(entry) } : u;
  });
  const acknowledgedOnly = resources.length > 0 && !open;
  const status = open
    ? "drifted"
    : unmanagedOpen
      ? "unmanaged"
      : acknowledgedOnly || (unmanaged?.length ?? 0) > 0
        ? "acknowledged"
        : "clean";
  const { repair: _old, ...rest } = report;
  return {
    ...rest,
    status,
    resources,
    ...(unmanaged ? { unmanaged } : {}),
    // Drift (acknowledged too) is put back by the stack's `fleet up`; an unmanaged connector is not the stack's.
    ...(resources.length > 0 ? { repair: repair(report.stack) } : {}),
  };
}

/** Every stack judged; the entries that matched nothing (the stack checked, not failed) listed as unused. */
export function judgeStacks(
  reports: StackReport[],
  file: AcknowledgedFile | undefined,
  now: Date,
  repair: (stack: string) => string,
): { stacks: StackReport[]; unused: DriftSections["unusedAcknowledgements"] } {
  const entries = file?.entries ?? [];
  const used = new Set<Acknowledgement>();
  const stacks = reports.map((r) => judgeStack(r, entries, now, used, repair));
  const checked = new Set(stacks.filter((s) => s.status !== "failed").map((s) => s.stack));
  const unused = entries
    .filter((e) => !used.has(e) && checked.has(e.stack))
    .map((e) => ({
      stack: e.stack,
      what: e.kind === "field" ? `${e.type} ${e.resource} ${e.field}` : `unmanaged connector ${e.connectorId}`,
      expires: e.expires,
      expired: isExpired(e, now),
    }));
  return { stacks, unused };
}
