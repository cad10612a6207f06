// What `fleet drift` adds to the reports (render.ts): each field marked acknowledged or expired,
// how long each drift has stood (from the history), the connectors no stack manages, the
// sub-accounts and customers with no stack, unused entries of the acknowledged file, the
// history's events and the notification. Names only, never a value.
import type { FleetReport, ResourceChange, StackReport } from "../report";

/** "3 d 4 h", "5 h 10 m", "12 m": how long since `since`, at `now`. */
export function ageOf(since: string | undefined, now: Date): string {
  if (!since) return "";
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} m`;
  return `${m} m`;
}

/** A change's properties, each acknowledged or expired one marked. */
export function propertiesOf(c: ResourceChange): string[] {
  const acked = new Map((c.acknowledged ?? []).map((a) => [a.field, a.expires]));
  const expired = new Map((c.expired ?? []).map((a) => [a.field, a.expires]));
  return c.properties.map((p) =>
    acked.has(p)
      ? `${p} (acknowledged until ${acked.get(p)})`
      : expired.has(p)
        ? `${p} (acknowledgement expired ${expired.get(p)})`
        : p,
  );
}

/** Rows for a stack's unmanaged connectors: type, resource, change, note. */
export function unmanagedRows(
  st: StackReport,
): { type: string; resource: string; change: string; note: string; since?: string }[] {
  return (st.unmanaged ?? []).map((u) => ({
    type: "unmanaged connector",
    resource: `${u.name} (${u.connectorId})`,
    change: "added, in no stack",
    note: u.acknowledged
      ? `acknowledged until ${u.acknowledged.expires}`
      : u.expired
        ? `acknowledgement expired ${u.expired.expires}`
        : `sub-account ${u.accountId}`,
    since: u.since,
  }));
}

/** The lines after the terminal's table (and, as a list, in the Markdown report). */
export function driftNotes(report: FleetReport): string[] {
  const d = report.drift;
  if (!d) return [];
  const lines: string[] = [];
  if (d.discovery.enabled) {
    for (const a of d.discovery.subAccountsWithoutStack)
      lines.push(
        `sub-account ${a.accountId}${a.customer ? ` (${a.customer})` : ""} has no stack: add one with \`pulumi-embedded-connectors fleet adopt\` (stack ${a.stack})`,
      );
    for (const c of d.discovery.customersWithoutStack) lines.push(`customer ${c} of customers.json has no stack`);
    const notRun = report.stacks.filter((s) => s.discoveryNotRun && s.status !== "failed");
    if (notRun.length > 0)
      lines.push(
        `discovery did not look at ${notRun.length} stack(s): ${notRun.map((s) => `${s.stack} (${s.discoveryNotRun})`).join("; ")}`,
      );
  } else lines.push("discovery off (--no-discovery)");
  for (const u of d.unusedAcknowledgements)
    lines.push(
      `${d.acknowledgedFile ?? "acknowledged file"}: ${u.stack} ${u.what} (${u.expired ? `expired ${u.expires}` : `until ${u.expires}`}) matches no drift now: remove the entry`,
    );
  if (d.history.kept) {
    const count = (e: string) => d.events.filter((x) => x.event === e).length;
    lines.push(
      `history (${d.history.where}): ${count("new")} new, ${count("resolved")} resolved, ${count("unchanged")} unchanged`,
    );
    for (const e of d.events.filter((x) => x.event !== "unchanged"))
      lines.push(`  ${e.event}: ${e.stack} ${e.type} ${e.name} ${e.field}${e.acknowledged ? " (acknowledged)" : ""}`);
  } else lines.push(`history not kept: ${d.history.because}`);
  if (d.notify)
    lines.push(
      d.notify.delivered
        ? `notified ${d.notify.to}: ${d.notify.events} event(s)`
        : `notifying ${d.notify.to} failed: ${d.notify.error ?? ""}; the history was left as it was, so the next run tells these events again`,
    );
  return lines;
}

export function renderDriftNotes(report: FleetReport): string {
  const lines = driftNotes(report);
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
