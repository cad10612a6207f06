// BENCHMARKS.md, rendered from bench/results.json: the machine, the commands, one table per
// latency and N, and the issue's targets with the measured value beside each. The prose
// that explains misses lives in bench/analysis.md (written by a person, after a run) and is
// appended as is, so re-rendering never loses it.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { MAX_ADD_IDS } from "../contract/ids";
import { apiCalls, callsMatching, envText, OPERATIONS, PROVIDERS, type BenchRecord, type Results } from "./results";

const ADD = /^POST \/es\/v2\/connectors$/;
const LIST_ADDED = /^GET \/es\/v2\/connectors\/added$/;
const GET_CONNECTOR = /^GET \/es\/v2\/connectors\/:connectorId$/;
const GET_CONFIGURATION = /^GET \/es\/v2\/connectors\/:connectorId\/configuration$/;
const PUT_CONFIGURATION = /^PUT /;
const REMOVE = /^DELETE /;

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? (a / b).toFixed(2) : "–");

/** The engine settings of a table: --parallel (undefined: the engine's default) and --env ("" for none). */
interface Setting {
  parallel?: number;
  env: string;
}

const DEFAULT_SETTING: Setting = { parallel: undefined, env: "" };

function find(records: BenchRecord[], provider: string, n: number, latencyMs: number, operation: string, setting = DEFAULT_SETTING): BenchRecord | undefined {
  return records.find(
    (r) =>
      r.provider === provider &&
      r.n === n &&
      r.latencyMs === latencyMs &&
      r.operation === operation &&
      r.parallel === setting.parallel &&
      envText(r.env) === setting.env,
  );
}

/** Every repetition's wall time, when there was more than one. */
function runsOf(r: BenchRecord): string {
  return r.wallRunsMs && r.wallRunsMs.length > 1 ? r.wallRunsMs.map(seconds).join(" / ") : "";
}

function routes(r: BenchRecord): string {
  const parts: [string, number][] = [
    ["Add", callsMatching(r, ADD)],
    ["List added", callsMatching(r, LIST_ADDED)],
    ["Get", callsMatching(r, GET_CONNECTOR)],
    ["Get config", callsMatching(r, GET_CONFIGURATION)],
    ["Configure", callsMatching(r, PUT_CONFIGURATION)],
    ["Remove", callsMatching(r, REMOVE)],
  ];
  const shown = parts.filter(([, n]) => n > 0).map(([label, n]) => `${label} ${n}`);
  return shown.length > 0 ? shown.join(", ") : "–";
}

function table(records: BenchRecord[], n: number, latencyMs: number, setting: Setting): string[] {
  const { parallel, env } = setting;
  const wall = (provider: string, operation: string) => find(records, provider, n, latencyMs, operation, setting)?.wallMs;
  // The plugin's columns only when the table has the plugin providers (older results have not).
  const plugins = OPERATIONS.some((op) => wall("plugin", op) !== undefined || wall("plugin-floor", op) !== undefined);
  const lines = [
    `### N = ${n}, latency ${latencyMs} ms${parallel === undefined ? "" : `, \`--parallel ${parallel}\``}${env ? `, \`--env ${env}\`` : ""}`,
    "",
    `| operation | provider | wall s (median) | runs s | API calls | by route | tokens | peak RSS MiB | this / floor | naive / this |${plugins ? " plugin / plugin-floor | plugin / floor |" : ""}`,
    `|---|---|---:|---|---:|---|---:|---:|---:|---:|${plugins ? "---:|---:|" : ""}`,
  ];
  for (const operation of OPERATIONS) {
    const of = (a: string, b: string) => ratio(wall(a, operation), wall(b, operation));
    for (const provider of PROVIDERS) {
      const r = find(records, provider, n, latencyMs, operation, setting);
      if (!r) continue;
      const mine = provider === "this";
      const plugin = provider === "plugin";
      const ratios = [mine ? of("this", "floor") : "", mine ? of("naive", "this") : ""];
      if (plugins) ratios.push(plugin ? of("plugin", "plugin-floor") : "", plugin ? of("plugin", "floor") : "");
      lines.push(
        `| ${operation} | ${provider} | ${seconds(r.wallMs)} | ${runsOf(r)} | ${apiCalls(r)} | ${routes(r)} | ${r.tokenRequests} | ${r.peakRssMiB ?? "–"} | ${ratios.join(" | ")} |`,
      );
    }
  }
  return [...lines, ""];
}

function targets(all: BenchRecord[], machine: Results["machine"]): string[] {
  // The targets are judged at the engine's default --parallel, without --env; other settings are shown beside.
  const records = all.filter((r) => r.parallel === undefined && r.env === undefined);
  const mine = records.filter((r) => r.provider === "this");
  const lines = ["## Targets (issue 6) and the measured values", "", "| target | measured | met? |", "|---|---|---|"];
  const verdict = (met: boolean | undefined) => (met === undefined ? "not measured" : met ? "yes" : "**no**");
  const row = (target: string, measured: string, met: boolean | undefined, why = "") =>
    lines.push(`| ${target} | ${measured} | ${verdict(met)}${why} |`);

  const maxTokens = Math.max(...mine.map((r) => r.tokenRequests));
  row("Token requests ≤ 1 per engine process", mine.length ? `max ${maxTokens} per operation (each operation is one engine process)` : "–", mine.length ? maxTokens <= 1 : undefined);

  const refreshes = mine.filter((r) => r.operation === "refresh");
  const refreshText = refreshes
    .map((r) => `N=${r.n}/${r.latencyMs} ms: ${callsMatching(r, LIST_ADDED)} list (limit ${Math.ceil(r.n / 200) + 1}), ${callsMatching(r, GET_CONNECTOR)} Get`)
    .join("; ");
  const refreshMet = refreshes.every((r) => callsMatching(r, LIST_ADDED) <= Math.ceil(r.n / 200) + 1 && callsMatching(r, GET_CONNECTOR) === 0);
  row("`refresh`: ≤ ceil(N/200)+1 list calls, no per-resource Get", refreshText || "–", refreshes.length ? refreshMet : undefined);

  // The engine never runs more creates at once than its --parallel (default 4 × CPUs), so that
  // is also the most ids one Add can carry; shown beside the measured value.
  const idsPerAdd = (r: BenchRecord) => r.n / Math.max(1, callsMatching(r, ADD));
  const ups = all.filter((r) => r.provider === "this" && r.operation === "up" && r.n >= 100 && r.env === undefined);
  const defaultParallel = 4 * machine.nproc;
  const perAdd = ups.map((r) => {
    const setting = r.parallel === undefined ? `default --parallel ${defaultParallel}` : `--parallel ${r.parallel}`;
    const bound = Math.min(r.parallel ?? defaultParallel, MAX_ADD_IDS);
    return `N=${r.n}: ${idsPerAdd(r).toFixed(1)} ids/Add (${callsMatching(r, ADD)} Adds, ${r.latencyMs} ms, ${setting}; bound ${bound})`;
  });
  const up100 = mine.filter((r) => r.operation === "up" && r.n === 100);
  const up100Met = up100.length ? up100.every((r) => idsPerAdd(r) >= 10) : undefined;
  const widerMet = ups.filter((r) => r.n === 100 && r.parallel !== undefined && idsPerAdd(r) >= 10).map((r) => r.parallel);
  const why = up100Met === false && widerMet.length
    ? ` at the default --parallel ${defaultParallel}; yes at --parallel ${[...new Set(widerMet)].join(", ")}`
    : "";
  row("`up` N=100: ≥ 10 ids per Add on average", perAdd.join("; ") || "–", up100Met, why);

  const floorChecks: string[] = [];
  let floorMet: boolean | undefined;
  for (const n of [100, 500]) {
    for (const operation of OPERATIONS) {
      const a = find(records, "this", n, 0, operation);
      const b = find(records, "floor", n, 0, operation);
      if (!a || !b) continue;
      const x = a.wallMs / b.wallMs;
      floorChecks.push(`N=${n} ${operation} ${x.toFixed(2)}`);
      floorMet = (floorMet ?? true) && x <= 1.15;
    }
  }
  row("0 ms: wall ≤ 1.15 × floor, every operation, N=100 and 500", floorChecks.join("; ") || "–", floorMet);

  const naiveChecks: string[] = [];
  let naiveMet: boolean | undefined;
  for (const operation of ["up", "refresh"]) {
    const a = find(records, "this", 100, 50, operation);
    const b = find(records, "naive", 100, 50, operation);
    if (!a || !b) continue;
    const x = b.wallMs / a.wallMs;
    // A provider that cost nothing would run at the floor: naive / floor bounds this ratio.
    const floor = find(records, "floor", 100, 50, operation);
    const bound = floor ? ` (bound: naive / floor = ${(b.wallMs / floor.wallMs).toFixed(2)}×)` : "";
    naiveChecks.push(`${operation} ${x.toFixed(2)}×${bound}`);
    naiveMet = (naiveMet ?? true) && x >= 3;
  }
  row("50 ms, N=100: ≥ 3 × faster than naive for `up` and `refresh`", naiveChecks.join("; ") || "–", naiveMet);

  const rss500 = mine.filter((r) => r.n === 500 && r.peakRssMiB !== null).map((r) => r.peakRssMiB ?? 0);
  const floorRss500 = records.filter((r) => r.provider === "floor" && r.n === 500 && r.peakRssMiB !== null).map((r) => r.peakRssMiB ?? 0);
  const floorRssText = floorRss500.length ? ` (floor: ${Math.max(...floorRss500)} MiB)` : "";
  const rssAny = mine.filter((r) => r.peakRssMiB !== null);
  const largestN = Math.max(0, ...rssAny.map((r) => r.n));
  const rssLargest = rssAny.filter((r) => r.n === largestN).map((r) => r.peakRssMiB ?? 0);
  row(
    "Peak RSS of the provider process < 150 MiB at N=500",
    rss500.length ? `${Math.max(...rss500)} MiB${floorRssText}` : rssLargest.length ? `not run at N=500; ${Math.max(...rssLargest)} MiB at N=${largestN}` : "–",
    rss500.length ? Math.max(...rss500) < 150 : undefined,
  );
  return [...lines, ""];
}

/** `analysisFile`: the prose appended after the tables (default: bench/analysis.md beside `file`). */
export async function renderBenchmarks(results: Results, file: string, analysisFile = path.join(path.dirname(file), "bench", "analysis.md")): Promise<void> {
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
    "at the end comes from `bench/analysis.md`).",
    "",
    "The real Pulumi engine (Automation API, the CLI of `scripts/ensure-pulumi.sh`; its default `--parallel`, 4 × CPUs, unless a table says otherwise)",
    "runs `bench/programs/fleet` against the local service (in process, rate limiting off, latency by",
    "fault injection): N AddedConnectors in one sub-account, half of them with a ConnectorConfiguration.",
    "Operations: `up` (create), a no-change `preview`, `refresh`, `rotate` (an `up` that changes the",
    "secret of every configuration) and `destroy`. Providers: **this** package; **floor**, dynamic",
    "resources of the same shapes (same inputs, outputs and secret output) whose operations do nothing",
    "(the engine's own cost); **naive**, a new token and a new connection per operation, one Get per",
    "read, one Add per create; **plugin**, this package's native plugin `embedded` (`embedded.*`);",
    "**plugin-floor**, a native plugin (`bench/plugin-floor`) whose operations do nothing, of the",
    "floor's shapes (the engine's own cost for a native plugin).",
    "",
    "Columns: wall time of the engine operation (the median when a cell ran more than once: every",
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
    "## Results",
    "",
    ...cells.flatMap(({ n, latencyMs, setting }) => table(records, n, latencyMs, setting)),
  ];
  let analysis = "";
  try {
    analysis = await fs.readFile(analysisFile, "utf8");
  } catch {
    analysis = "";
  }
  await fs.writeFile(file, `${lines.join("\n")}\n${analysis ? `\n${analysis.trim()}\n` : ""}`);
}
