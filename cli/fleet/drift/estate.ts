// The estate at a glance: one row per customer and stack (clean, drifted, acknowledged,
// unmanaged or failed), how long its oldest drift has stood, and the command that repairs it,
// as Markdown (the job summary; render.ts appends it) and as one self-contained HTML page
// (`fleet drift --html FILE`: no script, no stylesheet or font fetched, nothing but the page).
// Names only, as every report.
import type { FleetReport, StackReport } from "../report";
import { ageOf } from "./render-drift";

export interface EstateRow {
  customer: string;
  stack: string;
  status: StackReport["status"];
  /** e.g. "2 resource(s), 1 unmanaged", or the failure's first line. */
  what: string;
  /** How long its oldest drift has stood ("" without a history). */
  standing: string;
  repair?: string;
}

function oldest(st: StackReport): string | undefined {
  const all = [...st.resources.map((r) => r.since), ...(st.unmanaged ?? []).map((u) => u.since)].filter(
    (s): s is string => typeof s === "string",
  );
  return all.sort()[0];
}

function whatOf(st: StackReport): string {
  if (st.status === "failed") return (st.error ?? "").split("\n").find((l) => l.trim() !== "") ?? "failed";
  const parts: string[] = [];
  const acked = st.resources.reduce((n, r) => n + (r.acknowledged?.length ?? 0), 0);
  const expired = st.resources.reduce((n, r) => n + (r.expired?.length ?? 0), 0);
  if (st.resources.length > 0) parts.push(`${st.resources.length} resource(s) differ`);
  if (acked > 0) parts.push(`${acked} field(s) acknowledged`);
  if (expired > 0) parts.push(`${expired} acknowledgement(s) expired`);
  if ((st.unmanaged ?? []).length > 0) parts.push(`${st.unmanaged?.length} unmanaged connector(s)`);
  return parts.join(", ");
}

/** Every stack, by customer then stack. */
export function estateRows(report: FleetReport): EstateRow[] {
  const now = new Date(report.startedAt);
  return report.stacks
    .map((st) => ({
      customer: st.customer ?? "(none)",
      stack: st.stack,
      status: st.status,
      what: whatOf(st),
      standing: ageOf(oldest(st), now),
      ...(st.repair ? { repair: st.repair } : {}),
    }))
    .sort((a, b) => a.customer.localeCompare(b.customer) || a.stack.localeCompare(b.stack));
}

const mdCell = (t: string) => t.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export function estateMarkdown(report: FleetReport): string[] {
  const lines = [
    "### The estate by customer",
    "",
    "| customer | stack | status | what | standing for | repair |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of estateRows(report))
    lines.push(
      `| ${mdCell(r.customer)} | ${mdCell(r.stack)} | ${r.status} | ${mdCell(r.what)} | ${r.standing} | ${r.repair ? `\`${r.repair.replace(/`/g, "'")}\`` : ""} |`,
    );
  return lines;
}

const html = (t: string) =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const STYLE = `body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin-bottom:1.5rem}
th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:#f3f3f3}
.clean{color:#17692a}.drifted,.failed{color:#a11}.acknowledged{color:#555}.unmanaged{color:#8a5a00}code{font-size:13px}`;

/** The page: a summary, then one table per customer. */
export function renderEstateHtml(report: FleetReport): string {
  const s = report.summary;
  const byCustomer = new Map<string, EstateRow[]>();
  for (const r of estateRows(report)) byCustomer.set(r.customer, [...(byCustomer.get(r.customer) ?? []), r]);
  const sections = [...byCustomer].map(([customer, rows]) => {
    const body = rows
      .map(
        (r) =>
          `<tr data-stack="${html(r.stack)}" data-status="${r.status}"><td>${html(r.stack)}</td><td class="${r.status}">${r.status}</td>` +
          `<td>${html(r.what)}</td><td>${html(r.standing)}</td><td>${r.repair ? `<code>${html(r.repair)}</code>` : ""}</td></tr>`,
      )
      .join("\n");
    return `<h2>${html(customer)}</h2>\n<table data-customer="${html(customer)}"><thead><tr><th>stack</th><th>status</th><th>what</th><th>standing for</th><th>repair</th></tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
  });
  const withoutStack =
    report.drift?.discovery.enabled === true && report.drift.discovery.subAccountsWithoutStack.length > 0
      ? `<h2>Sub-accounts with no stack</h2>\n<ul id="without-stack">${report.drift.discovery.subAccountsWithoutStack
          .map((a) => `<li>${html(a.accountId)}${a.customer ? ` (${html(a.customer)})` : ""}</li>`)
          .join("")}</ul>`
      : "";
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>Fleet drift: ${html(report.project)}</title><style>${STYLE}</style></head><body>`,
    `<h1>Fleet drift: ${html(report.project)}</h1>`,
    `<p id="summary">${s.stacks} stack(s): ${s.clean} clean, ${s.drifted} drifted, ${s.acknowledged} acknowledged, ${s.unmanaged} unmanaged, ${s.failed} failed; exit code ${report.exitCode}; ${html(report.startedAt)}</p>`,
    ...sections,
    withoutStack,
    "</body></html>",
    "",
  ].join("\n");
}
