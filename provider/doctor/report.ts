// doctor's printed report: one block per route (the shape of its answer, where the envelope's
// parts and a list's were seen, the paging honoured, notes, the keys to change), the semantics
// seen, the write check, then a table of every route (route, status, latency, verdict, what was
// seen) and the result line. Shapes only: a value never reaches this text.
import { alignedTable } from "../text-table";
import type { DoctorReport, RouteFinding } from "./doctor";
import type { WriteCheck } from "./write-check";
import { secretFieldLines } from "./secret-field-list";

/** A route's verdict in the table: whether the current profile reads it, else why not. */
export function routeVerdict(r: RouteFinding): string {
  if (r.keys.length > 0 || r.pagingKey) return "keys to change";
  if (r.status >= 300 && r.status < 400) return "redirected";
  if (r.status === 404 && r.operation !== "getConfiguration") return "no such route";
  if (r.status === 401 || r.status === 403) return "refused";
  if (r.status >= 300 && !(r.operation === "getConfiguration" && r.status === 404)) return "failed";
  if (r.operation === "getToken" && r.notes.length > 0) return "unusable token";
  if (r.paging?.undetermined && !r.paging.inferred) return "paging unknown";
  return "reads";
}

/** What was seen of a route's answer, in a few words: where its parts are, never a value. */
function seenOf(r: RouteFinding): string {
  const seen: string[] = [];
  if (r.operation === "getToken" && r.status < 300) seen.push(`token ${r.shape}`);
  if (r.envelope) {
    const e = r.envelope;
    seen.push(e.present ? `envelope ${e.status}/${e.message ?? "-"}/${e.payload ?? "-"}` : "no envelope");
  }
  if (r.list) {
    const l = r.list;
    const items = l.items === undefined ? "not found" : l.items === "" ? "bare array" : `at ${l.items}`;
    seen.push(`items ${items}, total ${l.total ? `at ${l.total}` : "none"}, next ${l.next ? `at ${l.next}` : "none"}`);
  }
  if (r.paging?.inferred) seen.push(`paging inferred ${r.paging.inferred.candidate.label}`);
  else if (r.paging && !r.paging.undetermined) {
    seen.push(`paging ${r.paging.honoured.map((c) => c.label).join(", ") || "none honoured"}`);
  }
  // A note's first clause: "refused", "no such route", "redirected (302) to <origin>".
  const clause = r.notes[0]?.split(": ")[0];
  if (clause !== undefined && clause !== routeVerdict(r)) seen.push(clause);
  const keys = (r.pagingKey ? [...r.keys, r.pagingKey] : r.keys).map((k) => k.replace(/^operations\.[A-Za-z]+\./, ""));
  if (keys.length > 0) seen.push(`change ${keys.join(", ")}`);
  return seen.join("; ");
}

/** The table of every route doctor read. */
export function routeTable(report: DoctorReport): string {
  const rows = report.routes.map((r) => [
    r.label,
    r.operation,
    r.status === r.httpStatus ? `${r.status}` : `${r.status} in ${r.httpStatus}`,
    `${r.latencyMs} ms`,
    routeVerdict(r),
    seenOf(r),
  ]);
  return alignedTable(["ROUTE", "OPERATION", "STATUS", "TIME", "VERDICT", "SEEN"], rows);
}

export function renderReport(report: DoctorReport, baseUrl: string, check?: WriteCheck): string {
  const lines: string[] = [`doctor: profile "${report.profile.name}" (${report.profile.source}) against ${baseUrl}`];
  for (const r of report.routes) {
    lines.push(`${r.label}  ${r.operation}`);
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
  if (report.secretFields) lines.push(...secretFieldLines(report.secretFields));
  if (check) {
    lines.push(`write check on the scratch sub-account:`);
    for (const line of check.lines) lines.push(`  ${line}`);
  }
  const { ok, keys } = verdictOf(report, check);
  lines.push("", routeTable(report).trimEnd());
  lines.push(
    ok
      ? "result: the profile reads every route"
      : keys.length > 0
        ? keysResult(report, keys)
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

/**
 * The result line when profile keys are wrong, by kind: a route not found (404, 405) is not
 * fixed by --write-profile, which cannot guess a path; the user fills it in from the service's
 * documentation, in the template --write-profile writes. Every other key is written corrected.
 */
function keysResult(report: DoctorReport, keys: string[]): string {
  const notFound = report.routes.filter((r) => routeVerdict(r) !== "reads" && isRouteKeyed(r)).map((r) => r.operation);
  const rest = keys.filter((key) => !/^operations\.[A-Za-z]+\.(path|method)$/.test(key));
  const parts = [`result: the profile does not read this service; keys to change: ${keys.join(", ")}.`];
  if (notFound.length > 0)
    parts.push(
      `Not found at the profile's method and path: ${notFound.join(", ")}. doctor cannot find a path: look each one ` +
        "up in the service's documentation and fill it in the profile template that --write-profile FILE writes " +
        "(every operation with its built-in method and path, these marked), then run doctor --profile FILE again.",
    );
  if (rest.length > 0)
    parts.push(
      `${notFound.length > 0 ? "The other keys" : "These keys"} (${rest.join(", ")}): --write-profile FILE writes ` +
        "them corrected; set embedded:serviceProfile to FILE and run doctor again.",
    );
  return parts.join(" ");
}

/** The route answered 404 or 405 at the profile's method and path: its key to change is the path or method. */
export function isRouteKeyed(r: RouteFinding): boolean {
  return r.keys.some((key) => /\.(path|method)$/.test(key));
}

/** doctor's verdict, once for the printed result and the exit code: 0 only when `ok`. */
export function verdictOf(report: DoctorReport, check?: WriteCheck): { ok: boolean; keys: string[] } {
  const keys = [...new Set([...report.keys, ...(check?.keys ?? [])])];
  return { ok: report.ok && keys.length === 0 && (check?.ok ?? true), keys };
}
