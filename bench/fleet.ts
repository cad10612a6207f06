// `npm run bench:fleet [-- --stacks 50 --connectors 10 --large 1000 --loop-stacks 50 --rate-limit 0
//   --large-rate-limit 50 --backend s3|file --secrets passphrase|awskms --no-engine-rows --cpu-prof DIR
//   --results <file>]` (fleet-options.ts): Pulumi's drift question over a fleet of sub-accounts
// (examples/fleet, one stack each, N connectors per stack, the state on --backend:
// fleet-backend.ts, the secrets under the passphrase or moto's KMS), in one run against the same
// stacks: `fleet drift` (checkpoints read, the provider's code in process), `fleet drift
// --engine`, the loop a user writes after reading Pulumi's docs (`pulumi refresh --preview-only
// --expect-no-changes` per stack, one after the other) and the older `pulumi preview --refresh
// --expect-no-changes` loop. Then `--large` generated stacks (bench/fleet-large.ts, each with its
// own key: stack-keys.ts) checked by `fleet drift --no-discovery` and by `fleet drift --history
// backend` (discovery on), at --large-rate-limit, with the requests, tokens and CPU time; the
// refresh loop on --loop-stacks of them, and (passphrase) the bound its key derivation sets.
// Every drift check must find every stack clean. Records go to bench/results.json (`fleet`, each
// with this run's id) and BENCHMARKS.md is re-rendered (with --results, that file and a
// BENCHMARKS.md beside it).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { writeStackFile, type ConnectorSpec } from "../cli/fleet/new";
import { readProject } from "../cli/fleet/project";
import { DEFAULT_CONCURRENCY } from "../cli/fleet/command";
import type { FleetReport } from "../cli/fleet/report";
import { disposeEngine, ensureEngine, repoRoot } from "../harness/engine";
import type { LocalService } from "../harness/local-service";
import { sharedMoto, stopSharedMoto } from "../harness/moto";
import { startServiceProcess } from "../harness/service-process";
import { DEFAULT_OPTIONS } from "../service/options";
import { generateLargeFleet } from "./fleet-large";
import { CATALOGUE } from "../service/seed/catalogue";
import { isSecretField } from "../provider/schema/secret-fields";
import type { FleetBenchRecord } from "./fleet-results";
import { medianRun } from "./results";
import { checkpointKey, openBenchBackend } from "./fleet-backend";
import { fleetBenchCommand, parseFleetBenchArgs } from "./fleet-options";
import { saveFleetRecords } from "./fleet-save";
import { keyDerivationCost } from "./passphrase-writer";
import { reapedCpuSeconds } from "./process-cpu";
import { awsKmsKeys, passphraseKeys } from "./stack-keys";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const DEFAULT_RATE_LIMIT = DEFAULT_OPTIONS.rateLimitPerSecond;

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

/** The service's tokens issued, 429 answers and requests (any route, any status) so far. */
async function serviceCounts(service: LocalService): Promise<{ tokens: number; throttled: number; requests: number }> {
  const stats = await service.stats();
  const statuses = Object.values(stats.byRoute);
  const throttled = statuses.reduce((n, byStatus) => n + (byStatus["429"] ?? 0), 0);
  const requests = statuses.reduce((n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
  return { tokens: stats.tokenRequests, throttled, requests };
}

/** What a record says beyond its kind and size. */
type Extra = Pick<FleetBenchRecord, "concurrency" | "secrets" | "generated" | "flags" | "wallRunsMs">;
type Sample = Required<Pick<FleetBenchRecord, "wallMs" | "cpuMs" | "tokensRequested" | "throttled" | "requests">>;

async function main(): Promise<void> {
  const o = parseFleetBenchArgs(process.argv.slice(2), DEFAULT_RATE_LIMIT);
  const { stacks, connectors, large, backend: backendKind } = o;
  const resultsFile = path.resolve(o.results ?? path.join(repoRoot, "bench", "results.json"));
  const command = fleetBenchCommand(o);
  const run = new Date().toISOString();
  const engine = await ensureEngine();
  const backend = await openBenchBackend(backendKind, engine);
  // moto's KMS (harness/moto.ts) holds the awskms:// stacks' key, on either backend.
  const kmsUrl = o.secrets === "awskms" ? await (await sharedMoto()).kmsKeyUrl() : undefined;
  const motoEnv = kmsUrl ? (await sharedMoto()).env : {};
  const work = path.join(repoRoot, "bench", "programs", ".work", `fleet-${randomBytes(4).toString("hex")}`);
  const db = path.join(engine.tmpDir, `fleet-bench-${randomBytes(4).toString("hex")}.db`);
  const perCustomer = Math.ceil(stacks / 2);
  let rateLimit = o.rateLimit;
  let service = await startServiceProcess({
    subAccountsPerCustomer: perCustomer,
    rateLimitPerSecond: rateLimit,
    dbPath: db,
  });
  const records: FleetBenchRecord[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...engine.env,
    ...motoEnv,
    CI: "true",
    ACME_CLIENT_SECRET: service.customers[0].clientSecret,
    GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
    BENCH_SECRET: "bench-secret-not-a-real-one",
    ...backend.env,
  };
  const fleet = async (args: string[], nodeArgs: string[] = []) => {
    const { stdout } = await execFileAsync(process.execPath, [...nodeArgs, cli, "fleet", ...args, "--dir", work], {
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
    // --cpu-prof DIR: each fast-path run writes its V8 CPU profile there (bench/cpu-profile.ts reads it).
    const profile =
      o.cpuProf && checkedBy === "checkpoint" ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(o.cpuProf)] : [];
    await fleet(["drift", ...args, "--json", report], profile);
    const parsed = JSON.parse(await fs.readFile(report, "utf8")) as FleetReport;
    const wrong = parsed.stacks.filter((s) => s.status !== "clean" || s.checkedBy !== checkedBy);
    if (wrong.length > 0)
      throw new Error(
        `fleet drift ${args.join(" ")}: ${wrong.length} stack(s) not clean by ${checkedBy}: ${wrong[0].stack} ${wrong[0].status} ${wrong[0].checkedBy} ${wrong[0].engineBecause ?? wrong[0].error ?? ""}`,
      );
    await fs.rm(report);
  };
  const secrets = o.secrets === "passphrase" ? {} : { secrets: o.secrets };
  /** One measurement: wall, CPU of the processes it reaped, the service's counts. */
  const sample = async (fn: () => Promise<void>): Promise<Sample> => {
    const before = await serviceCounts(service);
    const cpuBefore = reapedCpuSeconds();
    const started = performance.now();
    await fn();
    const wallMs = Math.round(performance.now() - started);
    const cpuMs = Math.round((reapedCpuSeconds() - cpuBefore) * 1000);
    const after = await serviceCounts(service);
    return {
      wallMs,
      cpuMs,
      tokensRequested: after.tokens - before.tokens,
      throttled: after.throttled - before.throttled,
      requests: after.requests - before.requests,
    };
  };
  /** Records a measurement (the median one of repeated samples, `wallRunsMs` all of them). */
  const record = async (kind: FleetBenchRecord["kind"], count: number, m: Sample, how: string, extra: Extra = {}) => {
    records.push({
      run,
      kind,
      backend: backendKind,
      stacks: count,
      connectorsPerStack: connectors,
      ...secrets,
      ...extra,
      loadAverage: Number(os.loadavg()[0].toFixed(2)),
      ...m,
      perStackMs: Math.round(m.wallMs / count),
      rateLimitPerSecond: rateLimit,
      command: how,
      measuredAt: new Date().toISOString(),
    });
    const runs =
      extra.wallRunsMs && extra.wallRunsMs.length > 1
        ? ` (median of ${extra.wallRunsMs.map((ms) => (ms / 1000).toFixed(2)).join(" / ")})`
        : "";
    process.stderr.write(
      `bench:fleet ${kind}${extra.flags ? ` ${extra.flags}` : ""} (${count}${extra.generated ? " generated" : ""} stacks, ${backendKind}, ${o.secrets}): ${(m.wallMs / 1000).toFixed(1)} s${runs}, CPU ${(m.cpuMs / 1000).toFixed(1)} s, ${m.requests} requests\n`,
    );
    // Saved as they come: a run stopped later keeps the rows it measured.
    await saveFleetRecords(command, records, resultsFile);
  };
  const measure = async (
    kind: FleetBenchRecord["kind"],
    count: number,
    fn: () => Promise<void>,
    how: string,
    extra: Extra = {},
  ) => record(kind, count, await sample(fn), how, extra);
  const loop = async (args: string[], only: string[]) => {
    for (const s of only)
      await execFileAsync(engine.command.command, [...args, "--stack", s, "--non-interactive"], {
        cwd: work,
        // `refresh --preview-only` refuses the confirmation skip this variable implies.
        env: { ...env, EMBEDDED_BASE_URL: service.baseUrl, PULUMI_SKIP_CONFIRMATIONS: "false" },
        maxBuffer: 64 * 1024 * 1024,
      });
  };
  const REFRESH_LOOP =
    "for s in $stacks; do pulumi refresh --preview-only --expect-no-changes --stack $s --non-interactive; done";
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
    // awskms://: each stack made under moto's KMS key first (its own data key); `fleet up` keeps it.
    if (kmsUrl)
      for (const s of names)
        await execFileAsync(engine.command.command, ["stack", "init", s, "--secrets-provider", kmsUrl], {
          cwd: work,
          env,
        });
    // One apply: a drift check right after it finds every stack clean (drift() checks).
    await fleet(["up"]);
    // The two compared rows, --repeat times each, in turn (neither gets a quieter machine than the other).
    const drifts: Sample[] = [];
    const loops: Sample[] = [];
    for (let i = 0; i < o.repeat; i++) {
      drifts.push(await sample(() => drift([], "checkpoint")));
      loops.push(await sample(() => loop(["refresh", "--preview-only", "--expect-no-changes"], names)));
    }
    const wallRunsMs = (xs: Sample[]) => (xs.length > 1 ? { wallRunsMs: xs.map((x) => x.wallMs) } : {});
    await record(
      "fleet-drift",
      stacks,
      medianRun(drifts),
      "pulumi-embedded-connectors fleet drift",
      wallRunsMs(drifts),
    );
    await record("sequential-refresh", stacks, medianRun(loops), REFRESH_LOOP, wallRunsMs(loops));
    if (large > 0) {
      const keys = kmsUrl ? await awsKmsKeys(kmsUrl, env) : passphraseKeys(engine.env.PULUMI_CONFIG_PASSPHRASE);
      await generateLargeFleet({
        service,
        work,
        states: backend.states,
        project: project.name,
        keys,
        templates: [names[0], names[1]],
        count: large,
        skipPerCustomer: perCustomer,
      });
      // The generated stacks are measured at --large-rate-limit (made without it: far fewer calls).
      await service.stop();
      rateLimit = o.largeRateLimit;
      service = await startServiceProcess({
        subAccountsPerCustomer: perCustomer,
        rateLimitPerSecond: rateLimit,
        dbPath: db,
      });
      const largeNames = (await readProject(work)).stacks.filter((s) => s.startsWith("L"));
      // The CLI reads a generated stack (its own key, its secrets) and finds it clean as well.
      await loop(["refresh", "--preview-only", "--expect-no-changes"], [largeNames[0]]);
      if (o.secrets === "passphrase") {
        // The bound: one key per stack, one per core at a time, nothing else running (bench process).
        const cores = availableParallelism();
        const count = Math.min(large, 40);
        const cost = await keyDerivationCost(engine.env.PULUMI_CONFIG_PASSPHRASE, count, cores);
        records.push({
          run,
          kind: "key-derivation",
          backend: backendKind,
          stacks: count,
          connectorsPerStack: connectors,
          generated: true,
          loadAverage: Number(os.loadavg()[0].toFixed(2)),
          wallMs: cost.wallMs,
          cpuMs: cost.cpuMs,
          perStackMs: Math.round(cost.wallMs / count),
          command: `${count} passphrase keys (PBKDF2-SHA256, 1 000 000 rounds, a new salt each), ${cores} at a time (bench/passphrase-writer.ts keyDerivationCost)`,
          measuredAt: new Date().toISOString(),
        });
        await saveFleetRecords(command, records, resultsFile);
      }
      const generated = { generated: true } as const;
      const only = ["--stacks", largeNames.join(",")];
      const of = `(${large} generated stacks)`;
      await measure(
        "fleet-drift",
        largeNames.length,
        () => drift([...only, "--no-discovery"], "checkpoint"),
        `pulumi-embedded-connectors fleet drift --no-discovery ${of}`,
        { ...generated, flags: "--no-discovery" },
      );
      await measure(
        "fleet-drift",
        largeNames.length,
        () => drift([...only, "--history", "backend"], "checkpoint"),
        `pulumi-embedded-connectors fleet drift --history backend ${of}`,
        { ...generated, flags: "--history backend" },
      );
      const sample = largeNames.slice(0, o.loopStacks);
      if (sample.length > 0)
        await measure(
          "sequential-refresh",
          sample.length,
          () => loop(["refresh", "--preview-only", "--expect-no-changes"], sample),
          `${REFRESH_LOOP} (${sample.length} of the ${large} generated stacks)`,
          generated,
        );
      keys.stop?.();
      for (const s of largeNames) {
        await fs.rm(path.join(work, `Pulumi.${s}.yaml`));
        await backend.states.remove(checkpointKey(project.name, s));
      }
    }
    const concurrency = DEFAULT_CONCURRENCY;
    if (o.engineRows) {
      await measure(
        "fleet-drift-engine",
        stacks,
        () => drift(["--engine", "--concurrency", String(concurrency)], "engine"),
        `pulumi-embedded-connectors fleet drift --engine --concurrency ${concurrency}`,
        { concurrency },
      );
      await measure(
        "sequential-preview",
        stacks,
        () => loop(["preview", "--refresh", "--expect-no-changes"], names),
        "for s in $stacks; do pulumi preview --refresh --expect-no-changes --stack $s --non-interactive; done",
      );
    }
    await fleet(["destroy"]);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await service.stop();
    await fs.rm(db, { force: true });
    await backend.stop();
    if (kmsUrl) stopSharedMoto();
    await disposeEngine();
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
