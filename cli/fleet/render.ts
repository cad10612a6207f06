// The fleet report as Markdown (a pull-request comment, a CI job summary), as a plain-text table
// for the terminal (what drifted, changed or failed, after the run's summary line) and as JUnit
// XML (CI test reporters: one test case per stack; drifted and failed stacks are failures, a
// changed stack's steps its output). A provider's own step is named as one: `<name> (provider)`.
import { alignedTable } from "../../provider/text-table";
import {
  stepResource,
  typeName,
  type FleetReport,
  type PolicyViolation,
  type ResourceChange,
  type StackReport,
} from "./report";
import { ageOf, driftNotes, propertiesOf, unmanagedRows } from "./drift/render-drift";
import { estateMarkdown } from "./drift/estate";

export { fitWidth } from "../../provider/text-table";

const ICON: Record<StackReport["status"], string> = {
  clean: "✅",
  drifted: "⚠️",
  changed: "📝",
  failed: "❌",
  acknowledged: "☑️",
  unmanaged: "❓",
};

/** The summary's counts: drift's own statuses for drift, `changed` for the others. */
export function summaryText(report: FleetReport): string {
  const s = report.summary;
  const middle =
    report.command === "drift" ? `${s.acknowledged} acknowledged, ${s.unmanaged} unmanaged` : `${s.changed} changed`;
  const violations = s.violations > 0 ? `, ${s.violations} policy violation(s)` : "";
  return `${s.stacks} stack(s): ${s.clean} clean, ${s.drifted} drifted, ${middle}, ${s.failed} failed${violations}`;
}

/** Markdown table cells: no pipes or newlines from names or messages. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

export function renderMarkdown(report: FleetReport): string {
  const lines = [
    `## Fleet ${report.command}: ${report.project}`,
    "",
    `${summaryText(report)} ` +
      `(${report.selection}; ${(report.durationMs / 1000).toFixed(1)} s; exit code ${report.exitCode}).`,
    "",
  ];
  const notes = driftNotes(report);
  if (notes.length > 0)
    lines.push(...notes.map((n) => (n.startsWith("  ") ? `  - ${cell(n.trim())}` : `- ${cell(n)}`)), "");
  const now = new Date(report.startedAt);
  // drift: the stacks the fast path left to the engine, and why (not when --engine asked for it).
  const leftToEngine = report.stacks.filter((st) => st.engineBecause && st.engineBecause !== "--engine");
  if (leftToEngine.length > 0) {
    lines.push(`Checked by the engine (\`pulumi refresh --preview-only\`) instead of from the checkpoint:`, "");
    for (const st of leftToEngine) lines.push(`- ${cell(st.stack)}: ${cell(st.engineBecause ?? "")}`);
    lines.push("");
  }
  // drift: every customer and stack first, clean ones included (the estate at a glance).
  if (report.command === "drift" && report.drift) lines.push(...estateMarkdown(report), "");
  const violated = report.stacks.filter((st) => st.violations?.length);
  if (violated.length > 0) {
    lines.push(`Policy violations (${report.summary.violations}):`, "");
    lines.push("| stack | level | policy | resource | message |", "|---|---|---|---|---|");
    for (const st of violated)
      for (const v of st.violations ?? [])
        lines.push(
          `| ${cell(st.stack)} | ${v.level} | ${code(v.policy)} | ${cell(v.resource ?? "")} | ${cell(v.message)} |`,
        );
    lines.push("");
  }
  const notable = report.stacks.filter((st) => st.status !== "clean");
  if (notable.length === 0) {
    lines.push(report.command === "drift" ? "No drift." : "Nothing to change.");
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    "| stack | customer | status | resource | type | change | properties | since |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const st of notable) {
    const head = `| ${cell(st.stack)} | ${cell(st.customer ?? "")} | ${ICON[st.status]} ${st.status}`;
    if (st.resources.length === 0 && (st.unmanaged ?? []).length === 0) lines.push(`${head} | | | | | |`);
    for (const r of st.resources) {
      const props = propertiesOf(r)
        .map((p) => p.replace(/^(\S+)/, (name) => code(name)))
        .join(", ");
      lines.push(
        `${head} | ${cell(stepResource(r))} | ${code(r.type)} | ${r.operation} | ${cell(props)} | ${ageOf(r.since, now)} |`,
      );
    }
    for (const u of unmanagedRows(st))
      lines.push(
        `${head} | ${cell(u.resource)} | ${u.type} | ${u.change} | ${cell(u.note)} | ${ageOf(u.since, now)} |`,
      );
  }
  const repairs = notable.filter((st) => st.repair);
  if (repairs.length > 0) {
    lines.push(
      "",
      "To put the drifted stacks back (or merge a change to their files that accepts the new state):",
      "",
      "```sh",
    );
    for (const st of repairs) lines.push(st.repair as string);
    lines.push("```");
  }
  const failed = notable.filter((st) => st.status === "failed");
  for (const st of failed) {
    lines.push(
      "",
      `<details><summary>${cell(st.stack)}: failed</summary>`,
      "",
      "```",
      (st.error ?? "").replace(/```/g, "'''"),
      "```",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The stacks that are not clean as an aligned table, one row per resource (a failed stack: its
 * first error line), each row cut to `width`; "" when every stack is clean.
 */
export function renderTable(report: FleetReport, width = Infinity): string {
  const rows: string[][] = [];
  const now = new Date(report.startedAt);
  for (const st of report.stacks.filter((x) => x.status !== "clean" || x.violations?.length)) {
    if (st.resources.length === 0 && (st.unmanaged ?? []).length === 0 && st.status !== "clean")
      rows.push([st.stack, st.status, "", "", "", firstLine(st.error ?? ""), ""]);
    for (const r of st.resources)
      rows.push([
        st.stack,
        st.status,
        typeName(r),
        stepResource(r),
        r.operation,
        propertiesOf(r).join(", "),
        ageOf(r.since, now),
      ]);
    for (const u of unmanagedRows(st))
      rows.push([st.stack, st.status, u.type, u.resource, u.change, u.note, ageOf(u.since, now)]);
    for (const v of st.violations ?? [])
      rows.push([
        st.stack,
        st.status,
        "",
        v.resource ?? "",
        `policy ${v.level}`,
        `${v.policy}: ${lastLine(v.message)}`,
        "",
      ]);
  }
  if (rows.length === 0) return "";
  // SINCE only with a history (drift --history): else it would be an empty column.
  const since = rows.some((r) => r[6] !== "");
  const header = ["STACK", "STATUS", "TYPE", "RESOURCE", "CHANGE", "PROPERTIES", ...(since ? ["SINCE"] : [])];
  return alignedTable(header, since ? rows : rows.map((r) => r.slice(0, 6)), width);
}

function xml(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      // XML 1.0 forbids most control characters; an engine message may carry them.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
  );
}

/** One step in a JUnit case: its operation, URN (a provider's labelled) and property paths. */
function stepLine(r: ResourceChange): string {
  const props = r.properties.length ? `: ${r.properties.join(", ")}` : "";
  return `${r.operation} ${r.urn}${r.providerStep ? " (provider)" : ""}${props}`;
}

/** A policy violation in a JUnit case: its level, rule, resource and message. */
function violationLine(v: PolicyViolation): string {
  return `policy ${v.level} ${v.policy}${v.resource ? ` (${v.resource})` : ""}: ${v.message}`;
}

function caseBody(st: StackReport): string {
  const violations = (st.violations ?? []).map(violationLine);
  if (st.status === "failed") {
    const detail = [st.error ?? "", ...violations].join("\n");
    return `<failure type="failed" message="${xml(firstLine(st.error ?? "failed"))}">${xml(detail)}</failure>`;
  }
  if (st.status === "drifted" || st.status === "unmanaged") {
    const detail = st.resources
      .map(stepLine)
      .concat(st.repair ? [`repair: ${st.repair}`] : [])
      .join("\n");
    const unmanaged = (st.unmanaged ?? []).map(
      (u) => `unmanaged connector ${u.connectorId} (${u.name}) in ${u.accountId}`,
    );
    return `<failure type="${st.status}" message="${st.resources.length} resource(s) drifted, ${unmanaged.length} unmanaged">${xml([detail, ...unmanaged].filter(Boolean).join("\n"))}</failure>`;
  }
  // A change (or an advisory violation) is no failure: its steps go in the case's output.
  const out = [...st.resources.map(stepLine), ...violations];
  if (out.length > 0) return `<system-out>${xml(out.join("\n"))}</system-out>`;
  return "";
}

/** A policy event's message is the rule's description, then the violation: the violation, for a table row. */
function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .filter((l) => l.trim().length > 0)
      .at(-1)
      ?.slice(0, 300) ?? ""
  );
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim().length > 0)
      ?.slice(0, 300) ?? ""
  );
}

export function renderJUnit(report: FleetReport): string {
  const failures = report.summary.drifted + report.summary.unmanaged + report.summary.failed;
  const suite = `fleet ${report.command} ${report.project}`;
  const cases = report.stacks.map((st) => {
    const body = caseBody(st);
    const open = `    <testcase classname="${xml(suite)}" name="${xml(st.stack)}" time="${(st.durationMs / 1000).toFixed(3)}"`;
    return body ? `${open}>\n      ${body}\n    </testcase>` : `${open}/>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xml(suite)}" tests="${report.stacks.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(suite)}" tests="${report.stacks.length}" failures="${failures}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${report.startedAt}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
