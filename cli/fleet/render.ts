// The fleet report as Markdown (a pull-request comment, a CI job summary), as a plain-text table
// for the terminal (what drifted, changed or failed, after the run's summary line) and as JUnit
// XML (CI test reporters: one test case per stack; drifted and failed stacks are failures, a
// changed stack's steps its output). A provider's own step is named as one: `<name> (provider)`.
import { alignedTable } from "../../provider/text-table";
import { stepResource, typeName, type FleetReport, type ResourceChange, type StackReport } from "./report";
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
  return `${s.stacks} stack(s): ${s.clean} clean, ${s.drifted} drifted, ${middle}, ${s.failed} failed`;
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
  for (const st of report.stacks.filter((x) => x.status !== "clean")) {
    if (st.resources.length === 0 && (st.unmanaged ?? []).length === 0)
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

function caseBody(st: StackReport): string {
  if (st.status === "failed") {
    return `<failure type="failed" message="${xml(firstLine(st.error ?? "failed"))}">${xml(st.error ?? "")}</failure>`;
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
  // A change is no failure: its steps go in the case's output.
  if (st.resources.length > 0) return `<system-out>${xml(st.resources.map(stepLine).join("\n"))}</system-out>`;
  return "";
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
