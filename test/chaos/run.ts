// `npm run chaos` (node dist/test/chaos/run.js): the fault matrix against the real
// engine. Options: --quick (1 run per scenario, 10 connectors, 5 configurations), --runs N,
// --connectors N, --configurations N, --only a,b, --seed N, --json <file>. Without --seed, the
// seed is CHAOS_SEED, else a fresh random one; the report prints it.
// Full form: node dist/test/chaos/run.js --runs 3 (50 connectors, 25 configurations).
import { promises as fs } from "node:fs";
import { disposeEngine } from "../e2e/harness";
import { seedFrom } from "../support/seed";
import { runConcurrentScenario } from "./concurrent";
import { runScenario, SCENARIOS, type RunResult } from "./scenarios";

export interface ChaosOptions {
  runs: number;
  connectors: number;
  configurations: number;
  only?: string[];
  seed: number;
  log: (line: string) => void;
}

export interface ScenarioRow {
  scenario: string;
  what: string;
  runs: number;
  upIn1: number;
  upIn2: number;
  /** Converged in three runs or more: after a kill, the connectors it added were adopted first. */
  upAfterAdopting: number;
  destroyIn1: number;
  destroyIn2: number;
  neverConverged: number;
  duplicates: number;
  orphans: number;
  missing: number;
  disagreements: number;
  leaks: number;
  faultsHit: number;
  notes: string[];
  seconds: number;
}

export async function runChaos(opts: ChaosOptions): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  for (const scenario of SCENARIOS.filter((s) => !opts.only || opts.only.includes(s.name))) {
    const results: RunResult[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const runOptions = {
        connectors: opts.connectors,
        configurations: opts.configurations,
        seed: opts.seed + i,
        log: opts.log,
      };
      results.push(
        await (scenario.concurrentStacks
          ? runConcurrentScenario(scenario, runOptions)
          : runScenario(scenario, runOptions)),
      );
    }
    const count = (f: (r: RunResult) => boolean) => results.filter(f).length;
    const total = (f: (r: RunResult) => number) => results.reduce((n, r) => n + f(r), 0);
    rows.push({
      scenario: scenario.name,
      what: scenario.what,
      runs: results.length,
      upIn1: count((r) => r.up === 1),
      upIn2: count((r) => r.up === 2),
      upAfterAdopting: count((r) => r.up >= 3),
      destroyIn1: count((r) => r.destroy === 1),
      destroyIn2: count((r) => r.destroy === 2),
      neverConverged: count((r) => r.up === 0 || r.destroy === 0),
      duplicates: total((r) => r.after.duplicates),
      orphans: total((r) => r.after.orphans),
      missing: total((r) => r.after.missing + r.after.unconfigured),
      disagreements: total((r) => r.after.disagreements),
      leaks: total((r) => r.after.leaks.length),
      faultsHit: total((r) => r.faultsHit),
      notes: results.flatMap((r) => r.notes),
      seconds: total((r) => r.seconds),
    });
  }
  return rows;
}

export function table(rows: ScenarioRow[]): string {
  const head =
    "| scenario | runs | up in 1 | up in 2 | up in 3+ (adopting) | destroy in 1 | destroy in 2 | not converged | duplicates | orphans | missing | state ≠ service | secret leaks | faults injected | seconds |";
  const rule = "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.runs} | ${r.upIn1} | ${r.upIn2} | ${r.upAfterAdopting} | ${r.destroyIn1} | ${r.destroyIn2} | ${r.neverConverged} | ${r.duplicates} | ${r.orphans} | ${r.missing} | ${r.disagreements} | ${r.leaks} | ${r.faultsHit} | ${r.seconds} |`,
  );
  return [head, rule, ...lines].join("\n");
}

function parseArgs(argv: string[]): ChaosOptions & { json?: string } {
  const quick = argv.includes("--quick");
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (flag: string, fallback: number) => (value(flag) === undefined ? fallback : Number(value(flag)));
  return {
    runs: num("--runs", 1),
    connectors: num("--connectors", quick ? 10 : 50),
    configurations: num("--configurations", quick ? 5 : 25),
    only: value("--only")?.split(","),
    seed: value("--seed") === undefined ? seedFrom("CHAOS_SEED") : Number(value("--seed")),
    json: value("--json"),
    log: (line) => process.stderr.write(`chaos: ${line}\n`),
  };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  process.stderr.write(`chaos: seed ${opts.seed} (replay with --seed ${opts.seed} or CHAOS_SEED=${opts.seed})\n`);
  const rows = await runChaos(opts);
  await disposeEngine();
  process.stdout.write(`${table(rows)}\n\n${Math.round((Date.now() - started) / 1000)} s in all, seed ${opts.seed}\n`);
  for (const row of rows) for (const note of row.notes) process.stdout.write(`- ${row.scenario}: ${note}\n`);
  if (opts.json) await fs.writeFile(opts.json, JSON.stringify(rows, null, 2));
  const bad = rows.some((r) => r.neverConverged + r.duplicates + r.orphans + r.missing + r.disagreements + r.leaks > 0);
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  });
}
