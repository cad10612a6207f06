// doctor's printed report: one block per route (status, latency, shape, whether the current
// profile reads it and the keys that would), the semantics seen, the write check, and the
// verdict. Shapes only: a value never reaches this text.
import type { DoctorReport } from "./doctor";
import type { WriteCheck } from "./write-check";

export function renderReport(report: DoctorReport, baseUrl: string, check?: WriteCheck): string {
  const lines: string[] = [`doctor: profile "${report.profile.name}" (${report.profile.source}) against ${baseUrl}`];
  for (const r of report.routes) {
    const reads =
      r.keys.length === 0 && !r.pagingKey && (r.status < 300 || r.operation === "getConfiguration") ? "yes" : "no";
    const status = r.status === r.httpStatus ? `${r.status}` : `${r.status} (inside HTTP ${r.httpStatus})`;
    lines.push(`${r.label}  ${r.operation}: status ${status}, ${r.latencyMs} ms, profile reads it: ${reads}`);
    lines.push(`  shape: ${r.shape}`);
    if (r.envelope) {
      const e = r.envelope;
      lines.push(
        e.present
          ? `  envelope seen: status at ${e.status}, message at ${e.message ?? "(none)"}, payload at ${e.payload ?? "(none)"}`
          : "  envelope seen: none (the body is the payload)",
      );
    }
    if (r.list) {
      const l = r.list;
      const items = l.items === undefined ? "not found" : l.items === "" ? "a bare array" : `at ${l.items}`;
      lines.push(
        `  list seen: items ${items}, total ${l.total ? `at ${l.total}` : "none"}, next ${l.next ? `at ${l.next}` : "none"}`,
      );
    }
    if (r.paging && !r.paging.undetermined) {
      const honoured = r.paging.honoured.map((c) => c.label).join(", ") || "none";
      lines.push(`  paging honoured: ${honoured} (with no paging asked: ${r.paging.defaultPageLength} items)`);
    }
    for (const note of [...r.notes, ...(r.pagingNote ? [r.pagingNote] : [])]) lines.push(`  note: ${note}`);
    const keys = r.pagingKey ? [...r.keys, r.pagingKey] : r.keys;
    if (keys.length > 0) lines.push(`  profile keys to change: ${keys.join(", ")}`);
  }
  const seen = Object.entries(report.semantics).map(
    ([k, v]) => `${k}=${String(v)} (profile: ${String(report.profile.semantics[k as keyof typeof report.semantics])})`,
  );
  if (seen.length > 0) lines.push(`semantics seen: ${seen.join(", ")}`);
  if (check) {
    lines.push(`write check on the scratch sub-account:`);
    for (const line of check.lines) lines.push(`  ${line}`);
  }
  const { ok, keys } = verdictOf(report, check);
  lines.push(
    ok
      ? "result: the profile reads every route"
      : keys.length > 0
        ? `result: the profile does not read this service; keys to change: ${keys.join(", ")}. ` +
          "Write a corrected profile with --write-profile FILE, set embedded:serviceProfile to it, and run doctor again."
        : report.undetermined.length > 0 &&
            report.routes.every((r) => r.status < 300 || r.operation === "getConfiguration")
          ? `result: could not tell the paging of ${report.undetermined.join(", ")}; ` +
            "run doctor --write-check --account-id <scratch sub-account> (it adds one connector and probes the added list)"
          : check && !check.ok
            ? "result: the write check did not finish cleanly (see its lines above)"
            : "result: some routes failed (see the notes above); the profile's keys are not the cause",
  );
  return `${lines.join("\n")}\n`;
}

/** doctor's verdict, once for the printed result and the exit code: 0 only when `ok`. */
export function verdictOf(report: DoctorReport, check?: WriteCheck): { ok: boolean; keys: string[] } {
  const keys = [...new Set([...report.keys, ...(check?.keys ?? [])])];
  return { ok: report.ok && keys.length === 0 && (check?.ok ?? true), keys };
}
