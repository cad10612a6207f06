// `npm run bench [-- options]`: drives the real Pulumi engine (Automation API, the CLI that
// scripts/ensure-pulumi.sh provides) against the local service, for this package's provider
// (dynamic and native plugin) and the baselines, and writes bench/results.json and BENCHMARKS.md.
//
//   --quick              N = 10 and 100 at 0 ms (a few minutes)
//   (default: full)      N = 10, 100 and 500 at 0 and 50 ms (long; not run by CI)
//   --n 100,500          N values (override)
//   --latency 0,50       service latencies in ms (override)
//   --providers this,naive  (of this, floor, naive, plugin, plugin-floor; default: floor,naive,this);
//                        `plugin:recommended` runs that provider with a named setup (results.ts SETUPS:
//                        its --parallel and --env) instead of the invocation's, in the same run
//   --repeat 3           run every cell 3 times (providers interleaved) and keep the median
//   --parallel 32        the engine's --parallel for every operation (default: the engine's own)
//   --env K=V[,K=V]      environment variables of every engine run (e.g. PULUMI_SKIP_CHECKPOINTS=true);
//                        recorded in each record, whose key they are part of
//   --out /tmp/dir       write results.json and BENCHMARKS.md there (default: bench/results.json, BENCHMARKS.md)
//   --append             merge into the existing results.json instead of replacing it
//   --render             only re-render BENCHMARKS.md from results.json (after editing bench/analysis.md; --out: those in dir)
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { Stack } from "@pulumi/pulumi/automation";
import { z } from "zod";
import { catalogueWithExtra } from "../service/seed/catalogue";
import type { LocalService, Stats } from "../harness/local-service";
import { startServiceProcess } from "../harness/service-process";
import { disposeEngine, ensureEngine, repoRoot } from "../harness/engine";
import { installFloorPlugin } from "./plugin-floor/install";
import { renderBenchmarks } from "./render";
import {
  envText,
  loadResults,
  medianRecords,
  mergeResults,
  PROVIDERS,
  saveResults,
  engineSetup,
  SETUP_NAMES,
  type BenchRecord,
  type Machine,
} from "./results";
import { watchProviderRss } from "./rss";
import { createBenchStack, type ServiceSettings } from "./stack";

const numbers = (text: string) => text.split(",").map((v) => z.coerce.number().int().min(0).parse(v.trim()));

const ArgsSchema = z.object({
  quick: z.boolean(),
  append: z.boolean(),
  n: z.array(z.number().int().positive()),
  latency: z.array(z.number().int().min(0)),
  providers: z.array(z.object({ provider: z.enum(PROVIDERS), setup: z.enum(SETUP_NAMES).optional() })),
  repeat: z.number().int().positive(),
  parallel: z.number().int().positive().optional(),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).optional(),
  out: z.string().optional(),
});
type Args = z.infer<typeof ArgsSchema>;

function parseArgs(argv: string[]): Args {
  const flag = (name: string) => argv.includes(`--${name}`);
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const quick = flag("quick");
  const n = value("n");
  const latency = value("latency");
  const providers = value("providers");
  const repeat = value("repeat");
  const parallel = value("parallel");
  const env = value("env");
  return checkDistinct(
    ArgsSchema.parse({
      quick,
      append: flag("append"),
      n: n ? numbers(n) : quick ? [10, 100] : [10, 100, 500],
      latency: latency ? numbers(latency) : quick ? [0] : [0, 50],
      providers: (providers ? providers.split(",") : ["floor", "naive", "this"]).map(providerSpec),
      repeat: repeat ? Number(repeat) : 1,
      parallel: parallel ? Number(parallel) : undefined,
      env: env ? parseEnv(env) : undefined,
      out: value("out"),
    }),
  );
}

/** `plugin` or `plugin:recommended` (a provider, and the name of a setup of SETUPS). */
function providerSpec(text: string): { provider: string; setup?: string } {
  const parts = text.trim().split(":");
  if (parts.length > 2) throw new Error(`--providers: ${JSON.stringify(text)} is not provider or provider:setup`);
  const [provider, setup] = parts;
  return setup === undefined ? { provider } : { provider, setup };
}

/** Two entries of one provider and one engine setup would be merged as repetitions of one cell. */
function checkDistinct(args: Args): Args {
  const keys = args.providers.map(({ provider, setup }) => {
    const { parallel, env } = engineSetup(setup, args);
    return `${provider}|${parallel ?? "default"}|${envText(env)}`;
  });
  const twice = keys.find((key, i) => keys.indexOf(key) !== i);
  if (twice) throw new Error(`--providers: ${twice.split("|")[0]} appears twice with the same engine setup`);
  return args;
}

/** `K=V,K=V` as an object (a value may hold "=", not ","). */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`--env: ${JSON.stringify(pair)} is not KEY=VALUE`);
    env[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return env;
}

/** Per-route request counts of `after` minus `before` (any status), and the non-2xx ones. */
function callsBetween(before: Stats, after: Stats): { calls: Record<string, number>; failed: number } {
  const calls: Record<string, number> = {};
  let failed = 0;
  for (const [route, statuses] of Object.entries(after.byRoute)) {
    for (const [status, count] of Object.entries(statuses)) {
      const delta = count - (before.byRoute[route]?.[status] ?? 0);
      if (delta === 0) continue;
      calls[route] = (calls[route] ?? 0) + delta;
      if (!/^2\d\d$/.test(status)) failed += delta;
    }
  }
  return { calls, failed };
}

type Operation = BenchRecord["operation"];
type Changes = Record<string, number>;

interface Cell {
  provider: BenchRecord["provider"];
  n: number;
  latencyMs: number;
  parallel?: number;
  env?: Record<string, string>;
  run: string;
}

async function measure(
  service: LocalService,
  cell: Cell,
  operation: Operation,
  run: () => Promise<Changes>,
): Promise<BenchRecord> {
  const before = await service.stats();
  const rss = watchProviderRss();
  const started = performance.now();
  let resourceChanges: Changes;
  let peakRssMiB: number | null = null;
  let wallMs: number;
  try {
    resourceChanges = await run();
  } finally {
    wallMs = Math.round(performance.now() - started);
    peakRssMiB = await rss.stop().catch(() => null);
  }
  const after = await service.stats();
  const { calls, failed } = callsBetween(before, after);
  const record: BenchRecord = {
    ...cell,
    operation,
    wallMs,
    calls,
    failedCalls: failed,
    tokenRequests: after.tokenRequests - before.tokenRequests,
    peakRssMiB,
    resourceChanges,
    measuredAt: new Date().toISOString(),
  };
  const parallel = cell.parallel === undefined ? "" : ` p${cell.parallel}`;
  const env = cell.env === undefined ? "" : ` ${envText(cell.env)}`;
  console.log(
    `bench: ${cell.provider} n=${cell.n} ${cell.latencyMs}ms${parallel}${env} ${operation}: ${wallMs} ms, ${JSON.stringify(calls)}, rss ${peakRssMiB} MiB`,
  );
  return record;
}

/** The engine's summary must match what the operation should do: the bench measures only correct runs. */
function expectChanges(operation: Operation, changes: Changes, expected: Changes): Changes {
  for (const [kind, count] of Object.entries(expected)) {
    if ((changes[kind] ?? 0) !== count) {
      throw new Error(`${operation}: expected ${count} × ${kind}, the engine reported ${JSON.stringify(changes)}`);
    }
  }
  return changes;
}

async function runCell(
  service: LocalService,
  settings: ServiceSettings,
  ids: string[],
  cell: Cell,
): Promise<BenchRecord[]> {
  const connectorIds = ids.slice(0, cell.n);
  const total = cell.n + Math.ceil(cell.n / 2) + 1; // + the stack itself
  const configurations = Math.ceil(cell.n / 2);
  const config = { provider: cell.provider, connectorIds: JSON.stringify(connectorIds), secretVersion: "1" };
  const bench = await createBenchStack("fleet", settings, config, cell.env);
  const stack: Stack = bench.stack;
  const records: BenchRecord[] = [];
  try {
    const parallel = cell.parallel;
    const upChanges = async () => (await stack.up({ parallel })).summary.resourceChanges ?? {};
    records.push(
      await measure(service, cell, "up", async () => expectChanges("up", await upChanges(), { create: total })),
    );
    records.push(
      await measure(service, cell, "preview", async () =>
        expectChanges("preview", (await stack.preview({ parallel })).changeSummary ?? {}, {
          same: total,
          update: 0,
          create: 0,
        }),
      ),
    );
    records.push(
      await measure(
        service,
        cell,
        "refresh",
        async () => (await stack.refresh({ parallel })).summary.resourceChanges ?? {},
      ),
    );
    await stack.setConfig("secretVersion", { value: "2" });
    records.push(
      await measure(service, cell, "rotate", async () =>
        expectChanges("rotate", await upChanges(), { update: configurations }),
      ),
    );
    records.push(
      await measure(service, cell, "destroy", async () =>
        expectChanges("destroy", (await stack.destroy({ parallel })).summary.resourceChanges ?? {}, { delete: total }),
      ),
    );
  } finally {
    await bench.dispose();
  }
  return records;
}

const loadAtStart = Math.round(os.loadavg()[0] * 100) / 100;

async function machine(): Promise<Machine> {
  const engine = await ensureEngine();
  return {
    nproc: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    node: process.version,
    pulumi: engine.command.version?.toString() ?? "unknown",
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: loadAtStart,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const file = args.out ? path.resolve(args.out, "results.json") : path.join(repoRoot, "bench", "results.json");
  const markdown = args.out ? path.resolve(args.out, "BENCHMARKS.md") : path.join(repoRoot, "BENCHMARKS.md");
  const analysis = path.join(repoRoot, "bench", "analysis.md");
  if (args.out) await fs.mkdir(args.out, { recursive: true });
  if (process.argv.includes("--render")) {
    const saved = await loadResults(file);
    if (!saved) throw new Error(`${file} is missing or malformed: run the bench first`);
    await renderBenchmarks(saved, markdown, analysis);
    return;
  }
  const maxN = Math.max(...args.n);
  // The seeded catalogue holds 72 connectors; N up to 500 in one sub-account needs more.
  const ids = catalogueWithExtra(maxN)
    .filter((c) => c.name.startsWith("Synthetic Source"))
    .map((c) => c.connectorId);
  const service = await startServiceProcess({ extraConnectors: maxN });
  const customer = service.customers[0];
  const settings: ServiceSettings = {
    baseUrl: service.baseUrl,
    clientId: customer.clientId,
    clientSecret: customer.clientSecret,
    accountId: customer.subAccountIds[0],
  };
  const command = `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim();
  const base = args.append ? await loadResults(file) : undefined;
  const host = await machine();
  if (args.providers.some((p) => p.provider === "plugin-floor")) await installFloorPlugin(await ensureEngine());
  const run = new Date().toISOString();
  const runs: BenchRecord[] = [];
  // Saved after every cell: a full run takes hours, and an interrupted one keeps what it measured.
  const save = async (): Promise<number> => {
    const records = medianRecords(runs);
    const results = mergeResults(base, { machine: host, commands: [command], records });
    await saveResults(file, results);
    await renderBenchmarks(results, markdown, analysis);
    return records.length;
  };
  try {
    for (const latencyMs of args.latency) {
      for (const n of args.n) {
        // Repetitions interleave the providers, so that a slow spell of a shared machine
        // does not fall on one provider's runs only.
        for (let repetition = 0; repetition < args.repeat; repetition++) {
          for (const { provider, setup } of args.providers) {
            await service.reset();
            if (latencyMs > 0) await service.setFaults({ rules: [{ mode: "latency", latencyMs }] });
            runs.push(
              ...(await runCell(service, settings, ids, { provider, n, latencyMs, ...engineSetup(setup, args), run })),
            );
            await save();
          }
        }
      }
    }
  } finally {
    await service.stop();
  }
  const saved = await save();
  await disposeEngine();
  console.log(
    `bench: wrote ${path.relative(repoRoot, file)} and ${path.relative(repoRoot, markdown)} (${saved} records)`,
  );
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await disposeEngine().catch(() => undefined);
  process.exit(1);
});
