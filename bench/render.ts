// BENCHMARKS.md, rendered from bench/results.json: the machine, the commands, one table per
// latency and N, and the issue's targets with the measured value beside each. The prose
// that explains misses lives in bench/analysis.md (written by a person, after a run) and is
// appended as is, so re-rendering never loses it.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  apiCalls,
  callsMatching,
  envText,
  findRecord as find,
  loadResults,
  OPERATIONS,
  PROVIDERS,
  ROUTE,
  type BenchRecord,
  type Results,
  type Setting,
} from "./results";
import { barChart } from "./charts";
import { fleetSection } from "./fleet-results";
import { targets } from "./targets";
import { issue46Targets } from "./fleet-targets";

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? (a / b).toFixed(2) : "–";

/** Every repetition's wall time, when there was more than one. */
function runsOf(r: BenchRecord): string {
  return r.wallRunsMs && r.wallRunsMs.length > 1 ? r.wallRunsMs.map(seconds).join(" / ") : "";
}

function routes(r: BenchRecord): string {
  const parts: [string, number][] = [
    ["Add", callsMatching(r, ROUTE.add)],
    ["List added", callsMatching(r, ROUTE.listAdded)],
    ["Get", callsMatching(r, ROUTE.getConnector)],
    ["Get config", callsMatching(r, ROUTE.getConfiguration)],
    ["Configure", callsMatching(r, ROUTE.putConfiguration)],
    ["Remove", callsMatching(r, ROUTE.remove)],
  ];
  const shown = parts.filter(([, n]) => n > 0).map(([label, n]) => `${label} ${n}`);
  return shown.length > 0 ? shown.join(", ") : "–";
}

/**
 * The run a row came from: the invocation's id, or, for a record from before records kept one,
 * the day it was measured; rows of different runs compare different loads of the machine.
 */
export function runOf(r: BenchRecord): string {
  return r.run ?? `${r.measuredAt.slice(0, 10)}, no run id`;
}

function table(records: BenchRecord[], n: number, latencyMs: number, setting: Setting): string[] {
  const { parallel, env } = setting;
  const wall = (provider: string, operation: string) =>
    find(records, provider, n, latencyMs, operation, setting)?.wallMs;
  // The plugin's columns only when the table has the plugin providers (older results have not).
  const plugins = OPERATIONS.some((op) => wall("plugin", op) !== undefined || wall("plugin-floor", op) !== undefined);
  const lines = [
    `### N = ${n}, latency ${latencyMs} ms${parallel === undefined ? "" : `, \`--parallel ${parallel}\``}${env ? `, \`--env ${env}\`` : ""}`,
    "",
    `| operation | provider | run | wall s (median) | runs s | API calls | by route | tokens | peak RSS MiB | this / floor | naive / this |${plugins ? " plugin / plugin-floor | plugin / floor |" : ""}`,
    `|---|---|---|---:|---|---:|---|---:|---:|---:|---:|${plugins ? "---:|---:|" : ""}`,
  ];
  const runs = new Set<string>();
  const bars: [string, number][] = [];
  for (const operation of OPERATIONS) {
    const of = (a: string, b: string) => ratio(wall(a, operation), wall(b, operation));
    for (const provider of PROVIDERS) {
      const r = find(records, provider, n, latencyMs, operation, setting);
      if (!r) continue;
      const mine = provider === "this";
      const plugin = provider === "plugin";
      const ratios = [mine ? of("this", "floor") : "", mine ? of("naive", "this") : ""];
      if (plugins) ratios.push(plugin ? of("plugin", "plugin-floor") : "", plugin ? of("plugin", "floor") : "");
      runs.add(runOf(r));
      bars.push([`${operation}: ${provider}`, r.wallMs / 1000]);
      lines.push(
        `| ${operation} | ${provider} | ${runOf(r)} | ${seconds(r.wallMs)} | ${runsOf(r)} | ${apiCalls(r)} | ${routes(r)} | ${r.tokenRequests} | ${r.peakRssMiB ?? "–"} | ${ratios.join(" | ")} |`,
      );
    }
  }
  if (runs.size > 1) {
    lines.push(
      "",
      `Rows from ${runs.size} runs (${[...runs].join("; ")}): a ratio between rows of different runs also compares the machine's load then.`,
    );
  }
  const title = `N = ${n}, latency ${latencyMs} ms${parallel === undefined ? "" : `, --parallel ${parallel}`}${env ? `, ${env}` : ""}`;
  return [...lines, "", ...barChart(`${title}: wall s (median) per operation and provider`, "wall s", bars)];
}

/** `analysisFile`: the prose appended after the tables (default: bench/analysis.md beside `file`). */
export async function renderBenchmarks(
  results: Results,
  file: string,
  analysisFile = path.join(path.dirname(file), "bench", "analysis.md"),
): Promise<void> {
  const { machine, commands, records } = results;
  const byCell = new Map(records.map((r) => [`${r.parallel ?? 0}|${envText(r.env)}|${r.latencyMs}|${r.n}`, r]));
  const cells = [...byCell.values()]
    .map((r) => ({ n: r.n, latencyMs: r.latencyMs, setting: { parallel: r.parallel, env: envText(r.env) } }))
    .sort(
      (a, b) =>
        (a.setting.parallel ?? 0) - (b.setting.parallel ?? 0) ||
        (a.setting.env < b.setting.env ? -1 : a.setting.env > b.setting.env ? 1 : 0) ||
        a.latencyMs - b.latencyMs ||
        a.n - b.n,
    );
  const lines = [
    "# Benchmarks",
    "",
    "Rendered by `bench/render.ts` from `bench/results.json`; do not edit the tables by hand (the prose",
    "at the end comes from `bench/analysis.md`). Each results table, and the fleet's, is followed by a bar chart of its",
    "wall times (Mermaid, which GitHub draws; `bench/charts.ts`).",
    "",
    "The real Pulumi engine (Automation API, the CLI of `scripts/ensure-pulumi.sh`; its default `--parallel`, 4 × CPUs, unless a table says otherwise)",
    "runs `bench/programs/fleet` against the local service (in a process of its own, rate limiting off, latency by",
    "fault injection): N AddedConnectors in one sub-account, half of them with a ConnectorConfiguration.",
    "Operations: `up` (create), a no-change `preview`, `refresh`, `rotate` (an `up` that changes the",
    "secret of every configuration) and `destroy`. Providers: **this** package; **floor**, dynamic",
    "resources of the same shapes (same inputs, outputs and secret output) whose operations do nothing",
    "(the engine's own cost); **naive**, a new token and a new connection per operation, one Get per",
    "read, one Add per create; **plugin**, this package's native plugin `embedded` (`embedded.*`);",
    "**plugin-floor**, a native plugin (`bench/plugin-floor`) whose operations do nothing, of the",
    "floor's shapes (the engine's own cost for a native plugin).",
    "",
    "Columns: run = the invocation that measured the row (records from before runs were recorded show",
    "the day instead); wall time of the engine operation (the median when a cell ran more than once: every",
    "run is listed, and the other columns are the median run's); API calls = service requests other",
    "than the token route; tokens = token requests; peak RSS = the largest VmHWM of the provider",
    "process (the dynamic-provider process, or the plugin's).",
    "",
    "## Machine",
    "",
    `${machine.nproc} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory, ${machine.platform}, Node ${machine.node}, Pulumi CLI ${machine.pulumi}.${machine.loadAverage === undefined ? "" : ` Load average (1 min) at the start: ${machine.loadAverage}.`}`,
    "",
    "## Commands that produced these results",
    "",
    ...commands.map((c) => `- \`${c}\``),
    "",
    "Quick mode: `npm run build && npm run bench -- --quick` (N = 10 and 100, 0 ms). Full mode:",
    "`npm run build && npm run bench` (N = 10, 100 and 500 at 0 and 50 ms; long, not run by CI).",
    "`--n`, `--latency`, `--providers` select cells, `--repeat k` runs each k times (median kept),",
    "`--parallel p` sets the engine's `--parallel`, `--env K=V[,K=V]` sets environment variables of",
    "every engine run (e.g. `PULUMI_SKIP_CHECKPOINTS=true`); `--append` merges them into the existing",
    "results; `--out dir` writes results.json and BENCHMARKS.md to `dir` instead.",
    "",
    ...targets(records, machine),
    ...issue46Targets(results.fleet),
    "## Results",
    "",
    ...cells.flatMap(({ n, latencyMs, setting }) => table(records, n, latencyMs, setting)),
    ...fleetSection(results.fleet),
  ];
  let analysis = "";
  try {
    analysis = await fs.readFile(analysisFile, "utf8");
  } catch {
    analysis = "";
  }
  const sections = await measuredSections(path.join(path.dirname(analysisFile), "sections"));
  const tail = [...sections, analysis].filter((text) => text.trim() !== "").map((text) => `\n${text.trim()}\n`);
  await fs.writeFile(file, `${lines.join("\n")}\n${tail.join("")}`);
}

/**
 * The sections other bench scripts measured and wrote (bench/sections/*.md, each with its own
 * command and run), in name order, between the tables and the analysis.
 */
async function measuredSections(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.endsWith(".md")).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map((name) => fs.readFile(path.join(dir, name), "utf8")));
}

/**
 * A bench script's section, measured apart from bench/results.json: written to
 * bench/sections/<name>.md under `root`, BENCHMARKS.md re-rendered with it, and printed.
 */
export async function writeMeasuredSection(root: string, name: string, section: string): Promise<void> {
  await fs.mkdir(path.join(root, "bench", "sections"), { recursive: true });
  await fs.writeFile(path.join(root, "bench", "sections", `${name}.md`), section);
  const results = await loadResults(path.join(root, "bench", "results.json"));
  if (results)
    await renderBenchmarks(results, path.join(root, "BENCHMARKS.md"), path.join(root, "bench", "analysis.md"));
  process.stdout.write(`${section}\n`);
}
