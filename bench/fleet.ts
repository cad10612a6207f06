// `npm run bench:fleet [-- --stacks 50 --connectors 10 --large 1000 --rate-limit 0 --backend s3 --results <file>]`:
// Pulumi's drift question over a fleet of sub-accounts (examples/fleet, one stack each, N
// connectors per stack, the state on --backend: fleet-backend.ts), in one run against the same stacks: `fleet drift` (checkpoints read,
// the provider's code in process), `fleet drift --engine`, the loop a user writes after reading
// Pulumi's docs (`pulumi refresh --preview-only --expect-no-changes` per stack, one after the
// other) and the older `pulumi preview --refresh --expect-no-changes` loop. Then `--large`
// generated stacks (bench/fleet-large.ts, each with its own encryption salt) checked by `fleet
// drift` under the service's own rate limit, with the tokens it requested and the CPU time. Every drift check must find every stack clean. Records
// go to bench/results.json (`fleet`, each with this run's id) and BENCHMARKS.md is re-rendered
// (with --results, that file and a BENCHMARKS.md beside it).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { writeStackFile, type ConnectorSpec } from "../cli/fleet/new";
import { readProject } from "../cli/fleet/project";
import { DEFAULT_CONCURRENCY } from "../cli/fleet/command";
import type { FleetReport } from "../cli/fleet/report";
import { disposeEngine, ensureEngine, repoRoot } from "../harness/engine";
import type { LocalService } from "../harness/local-service";
import { startServiceProcess } from "../harness/service-process";
import { DEFAULT_OPTIONS } from "../service/options";
import { generateLargeFleet } from "./fleet-large";
import { CATALOGUE } from "../service/seed/catalogue";
import { isSecretField } from "../provider/schema/secret-fields";
import { mergeFleetRecords, type FleetBenchRecord } from "./fleet-results";
import { BACKEND_KINDS, checkpointKey, openBenchBackend, type BackendKind } from "./fleet-backend";
import { reapedCpuSeconds } from "./process-cpu";
import { loadResults, type Results } from "./results";
import { renderBenchmarks } from "./render";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const DEFAULT_RATE_LIMIT = DEFAULT_OPTIONS.rateLimitPerSecond;

function option(argv: string[], name: string, fallback: number, min = 1): number {
  const at = argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer of at least ${min}`);
  return value;
}

function textOption(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** The stacks take BENCH_SECRET: every customer of `dir`'s customers.json allows it (secretEnv, docs/fleet-secrets.md). */
export async function allowBenchSecret(dir: string): Promise<void> {
  const customersFile = path.join(dir, "customers.json");
  const allowList = JSON.parse(await fs.readFile(customersFile, "utf8")) as Record<string, { secretEnv?: string[] }>;
  for (const customer of Object.values(allowList)) customer.secretEnv = ["BENCH_SECRET"];
  await fs.writeFile(customersFile, JSON.stringify(allowList, null, 2));
}

/** `count` catalogue Sources, each with its required non-secret values and its Password from BENCH_SECRET. */
export function benchConnectors(count: number): Record<string, ConnectorSpec> {
  const sources = CATALOGUE.filter((c) => c.supportedType === "Source").slice(0, count);
  if (sources.length < count) throw new Error(`the catalogue has only ${sources.length} sources`);
  return Object.fromEntries(
    sources.map((c, i) => {
      const values: Record<string, string | number | string[]> = {};
      const secrets: Record<string, { env: string }> = {};
      for (const f of c.secretConfiguration?.fields ?? []) {
        if (f.readonly) continue;
        if (isSecretField(f, undefined)) secrets[f.id] = { env: "BENCH_SECRET" };
        else if (!f.required) continue;
        else if (f.type === "Text") values[f.id] = `bench-${i}`;
        else if (f.type === "Select") values[f.id] = f.options?.[0] ?? "";
        else if (f.type === "Multi-Select") values[f.id] = [f.options?.[0] ?? ""];
        else if (f.type === "Number") values[f.id] = f.min ?? 1;
      }
      return [
        `c${String(i + 1).padStart(2, "0")}`,
        { name: c.name, supportedType: "Source" as const, values, secrets },
      ];
    }),
  );
}

/** The service's tokens issued and 429 answers so far. */
async function serviceCounts(service: LocalService): Promise<{ tokens: number; throttled: number }> {
  const stats = await service.stats();
  const throttled = Object.values(stats.byRoute).reduce((n, byStatus) => n + (byStatus["429"] ?? 0), 0);
  return { tokens: stats.tokenRequests, throttled };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const stacks = option(argv, "stacks", 50);
  const connectors = option(argv, "connectors", 10);
  const large = option(argv, "large", 1000, 0);
  const rateLimit = option(argv, "rate-limit", 0, 0);
  const resultsFile = path.resolve(textOption(argv, "results") ?? path.join(repoRoot, "bench", "results.json"));
  const backendKind = (textOption(argv, "backend") ?? "s3") as BackendKind;
  if (!BACKEND_KINDS.includes(backendKind)) throw new Error(`--backend must be one of ${BACKEND_KINDS.join(", ")}`);
  const command = `npm run bench:fleet -- --stacks ${stacks} --connectors ${connectors} --large ${large} --rate-limit ${rateLimit} --backend ${backendKind}`;
  const run = new Date().toISOString();
  const engine = await ensureEngine();
  const backend = await openBenchBackend(backendKind, engine);
  const work = path.join(repoRoot, "bench", "programs", ".work", `fleet-${randomBytes(4).toString("hex")}`);
  const db = path.join(engine.tmpDir, `fleet-bench-${randomBytes(4).toString("hex")}.db`);
  const perCustomer = Math.ceil(stacks / 2);
  let service = await startServiceProcess({
    subAccountsPerCustomer: perCustomer,
    rateLimitPerSecond: rateLimit,
    dbPath: db,
  });
  const records: FleetBenchRecord[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...engine.env,
    CI: "true",
    ACME_CLIENT_SECRET: service.customers[0].clientSecret,
    GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
    BENCH_SECRET: "bench-secret-not-a-real-one",
    ...backend.env,
  };
  const fleet = async (args: string[]) => {
    const { stdout } = await execFileAsync(process.execPath, [cli, "fleet", ...args, "--dir", work], {
      env: { ...env, EMBEDDED_BASE_URL: service.baseUrl },
      maxBuffer: 256 * 1024 * 1024,
    }).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`fleet ${args[0]} exited ${e.code}: ${(e.stderr ?? "").slice(-3000)}`);
    });
    return stdout;
  };
  /** A run of `fleet drift` that must find every stack clean, from its checkpoint or by the engine as asked. */
  const drift = async (args: string[], checkedBy: "checkpoint" | "engine") => {
    const report = path.join(work, "..", `${path.basename(work)}-drift.json`);
    await fleet(["drift", ...args, "--json", report]);
    const parsed = JSON.parse(await fs.readFile(report, "utf8")) as FleetReport;
    const wrong = parsed.stacks.filter((s) => s.status !== "clean" || s.checkedBy !== checkedBy);
    if (wrong.length > 0)
      throw new Error(
        `fleet drift ${args.join(" ")}: ${wrong.length} stack(s) not clean by ${checkedBy}: ${wrong[0].stack} ${wrong[0].status} ${wrong[0].checkedBy} ${wrong[0].engineBecause ?? wrong[0].error ?? ""}`,
      );
    await fs.rm(report);
  };
  const measure = async (
    kind: FleetBenchRecord["kind"],
    count: number,
    fn: () => Promise<void>,
    how: string,
    concurrency?: number,
    limit = rateLimit,
  ) => {
    const before = await serviceCounts(service);
    const cpuBefore = reapedCpuSeconds();
    const started = performance.now();
    await fn();
    const wallMs = Math.round(performance.now() - started);
    const cpuMs = Math.round((reapedCpuSeconds() - cpuBefore) * 1000);
    const after = await serviceCounts(service);
    records.push({
      run,
      kind,
      backend: backendKind,
      stacks: count,
      connectorsPerStack: connectors,
      ...(concurrency ? { concurrency } : {}),
      loadAverage: Number(os.loadavg()[0].toFixed(2)),
      wallMs,
      cpuMs,
      perStackMs: Math.round(wallMs / count),
      tokensRequested: after.tokens - before.tokens,
      throttled: after.throttled - before.throttled,
      rateLimitPerSecond: limit,
      command: how,
      measuredAt: new Date().toISOString(),
    });
    process.stderr.write(
      `bench:fleet ${kind} (${count} stacks, ${backendKind}): ${(wallMs / 1000).toFixed(1)} s, CPU ${(cpuMs / 1000).toFixed(1)} s\n`,
    );
    // Saved as they come: a run stopped later keeps the rows it measured.
    await saveFleetRecords(command, records, resultsFile);
  };
  try {
    await fs.cp(path.join(repoRoot, "examples", "fleet"), work, { recursive: true });
    for (const f of await fs.readdir(work)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(work, f));
    await allowBenchSecret(work);
    const project = await readProject(work);
    const spec = benchConnectors(connectors);
    for (let i = 0; i < stacks; i++) {
      const customer = i % 2;
      await writeStackFile(project, `s${String(i + 1).padStart(3, "0")}`, {
        accountId: service.customers[customer].subAccountIds[Math.floor(i / 2)],
        customer: customer === 0 ? "acme" : "globex",
        connectors: spec,
      });
    }
    const names = (await readProject(work)).stacks;
    // One apply: a drift check right after it finds every stack clean (drift() checks).
    await fleet(["up"]);
    const concurrency = DEFAULT_CONCURRENCY;
    await measure("fleet-drift", stacks, () => drift([], "checkpoint"), "pulumi-embedded-connectors fleet drift");
    const loop = async (args: string[], only = names) => {
      for (const s of only)
        await execFileAsync(engine.command.command, [...args, "--stack", s, "--non-interactive"], {
          cwd: work,
          // `refresh --preview-only` refuses the confirmation skip this variable implies.
          env: { ...env, EMBEDDED_BASE_URL: service.baseUrl, PULUMI_SKIP_CONFIRMATIONS: "false" },
          maxBuffer: 64 * 1024 * 1024,
        });
    };
    await measure(
      "sequential-refresh",
      stacks,
      () => loop(["refresh", "--preview-only", "--expect-no-changes"]),
      "for s in $stacks; do pulumi refresh --preview-only --expect-no-changes --stack $s --non-interactive; done",
    );
    if (large > 0) {
      await generateLargeFleet({
        service,
        work,
        states: backend.states,
        project: project.name,
        passphrase: engine.env.PULUMI_CONFIG_PASSPHRASE,
        templates: [names[0], names[1]],
        count: large,
        skipPerCustomer: perCustomer,
      });
      // The drift check meets the service's own rate limit (made without it: far fewer calls).
      await service.stop();
      service = await startServiceProcess({
        subAccountsPerCustomer: perCustomer,
        rateLimitPerSecond: DEFAULT_RATE_LIMIT,
        dbPath: db,
      });
      const largeNames = (await readProject(work)).stacks.filter((s) => s.startsWith("L"));
      // The CLI reads a generated stack (its own salt, its secrets) and finds it clean as well.
      await loop(["refresh", "--preview-only", "--expect-no-changes"], [largeNames[0]]);
      await measure(
        "fleet-drift",
        largeNames.length,
        () => drift(["--stacks", largeNames.join(",")], "checkpoint"),
        `pulumi-embedded-connectors fleet drift (${large} generated stacks, the service's rate limit on)`,
        undefined,
        DEFAULT_RATE_LIMIT,
      );
      for (const s of largeNames) {
        await fs.rm(path.join(work, `Pulumi.${s}.yaml`));
        await backend.states.remove(checkpointKey(project.name, s));
      }
    }
    await measure(
      "fleet-drift-engine",
      stacks,
      () => drift(["--engine", "--concurrency", String(concurrency)], "engine"),
      `pulumi-embedded-connectors fleet drift --engine --concurrency ${concurrency}`,
      concurrency,
    );
    await measure(
      "sequential-preview",
      stacks,
      () => loop(["preview", "--refresh", "--expect-no-changes"]),
      "for s in $stacks; do pulumi preview --refresh --expect-no-changes --stack $s --non-interactive; done",
    );
    await fleet(["destroy"]);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await service.stop();
    await fs.rm(db, { force: true });
    await backend.stop();
    await disposeEngine();
  }
}

/**
 * Adds the records (and the command) to bench/results.json as its text stands: the other
 * records are left byte for byte as they are, then BENCHMARKS.md is rendered again.
 */
export async function saveFleetRecords(
  command: string,
  records: FleetBenchRecord[],
  file = path.join(repoRoot, "bench", "results.json"),
): Promise<void> {
  const raw = JSON.parse(await fs.readFile(file, "utf8")) as { commands: string[]; fleet?: FleetBenchRecord[] };
  if (raw.commands.at(-1) !== command) raw.commands = [...raw.commands, command];
  raw.fleet = mergeFleetRecords(raw.fleet, records);
  await fs.writeFile(file, `${JSON.stringify(raw, null, 2)}\n`);
  const results: Results | undefined = await loadResults(file);
  if (!results) throw new Error(`${file} does not parse after adding the fleet's records`);
  const defaultFile = path.join(repoRoot, "bench", "results.json");
  const benchmarks =
    file === defaultFile ? path.join(repoRoot, "BENCHMARKS.md") : path.join(path.dirname(file), "BENCHMARKS.md");
  await renderBenchmarks(results, benchmarks);
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
