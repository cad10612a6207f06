// `npm run bench:fleet [-- --stacks 50 --connectors 10 --repeat 1]`: a drift check of a fleet
// of sub-accounts (examples/fleet, one stack each, N connectors per stack), two ways in the
// same run against the same stacks: `pulumi-embedded-connectors fleet drift`, and the loop
// users write today, `pulumi preview --refresh --expect-no-changes` per stack, one after the
// other. Then the per-stack bound: the same two ways over stacks of no connectors (what is
// left is the engine's, the program's and the plugin's start, and the token). Records go to
// bench/results.json (`fleet`, each with this run's id) and BENCHMARKS.md is re-rendered.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { writeStackFile, type ConnectorSpec } from "../cli/fleet/new";
import { readProject } from "../cli/fleet/project";
import { disposeEngine, ensureEngine, repoRoot } from "../harness/engine";
import { startServiceProcess } from "../harness/service-process";
import { CATALOGUE } from "../service/seed/catalogue";
import { mergeFleetRecords, type FleetBenchRecord } from "./fleet-results";
import { loadResults, type Results } from "./results";
import { renderBenchmarks } from "./render";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");

function option(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
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
        if (f.type === "Password") secrets[f.id] = { env: "BENCH_SECRET" };
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

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const stacks = option(argv, "stacks", 50);
  const connectors = option(argv, "connectors", 10);
  const command = `npm run bench:fleet -- --stacks ${stacks} --connectors ${connectors}`;
  const run = new Date().toISOString();
  const engine = await ensureEngine();
  const service = await startServiceProcess({ subAccountsPerCustomer: Math.ceil(stacks / 2) });
  const work = path.join(repoRoot, "bench", "programs", ".work", `fleet-${randomBytes(4).toString("hex")}`);
  const records: FleetBenchRecord[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...engine.env,
    CI: "true",
    EMBEDDED_BASE_URL: service.baseUrl,
    ACME_CLIENT_SECRET: service.customers[0].clientSecret,
    GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
    BENCH_SECRET: "bench-secret-not-a-real-one",
  };
  const fleet = async (args: string[]) => {
    const { stdout } = await execFileAsync(process.execPath, [cli, "fleet", ...args, "--dir", work], {
      env,
      maxBuffer: 256 * 1024 * 1024,
    }).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`fleet ${args[0]} exited ${e.code}: ${(e.stderr ?? "").slice(-3000)}`);
    });
    return stdout;
  };
  /** Writes the stack files of `count` connectors each (0: a stack of nothing but the provider). */
  const writeStacks = async (count: number) => {
    const project = await readProject(work);
    const spec = count > 0 ? benchConnectors(count) : {};
    for (let i = 0; i < stacks; i++) {
      const customer = i % 2 === 0 ? 0 : 1;
      await writeStackFile(project, `s${String(i + 1).padStart(3, "0")}`, {
        accountId: service.customers[customer].subAccountIds[Math.floor(i / 2)],
        customer: customer === 0 ? "acme" : "globex",
        connectors: spec,
        force: true,
      });
    }
    return (await readProject(work)).stacks;
  };
  const measure = async (
    kind: FleetBenchRecord["kind"],
    perStackConnectors: number,
    fn: () => Promise<void>,
    how: string,
    concurrency?: number,
  ) => {
    const started = performance.now();
    await fn();
    const wallMs = Math.round(performance.now() - started);
    records.push({
      run,
      kind,
      stacks,
      connectorsPerStack: perStackConnectors,
      ...(concurrency ? { concurrency } : {}),
      loadAverage: Number(os.loadavg()[0].toFixed(2)),
      wallMs,
      perStackMs: Math.round(wallMs / stacks),
      command: how,
      measuredAt: new Date().toISOString(),
    });
    process.stderr.write(
      `bench:fleet ${kind} (${perStackConnectors} connectors/stack${concurrency ? `, concurrency ${concurrency}` : ""}): ${(wallMs / 1000).toFixed(1)} s\n`,
    );
  };
  try {
    await fs.cp(path.join(repoRoot, "examples", "fleet"), work, { recursive: true });
    for (const f of await fs.readdir(work)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(work, f));
    // The stacks take BENCH_SECRET: their customers allow it (customers.json's secretEnv, docs/fleet-secrets.md).
    const customersFile = path.join(work, "customers.json");
    const allowList = JSON.parse(await fs.readFile(customersFile, "utf8")) as Record<string, { secretEnv?: string[] }>;
    for (const customer of Object.values(allowList)) customer.secretEnv = ["BENCH_SECRET"];
    await fs.writeFile(customersFile, JSON.stringify(allowList, null, 2));
    for (const count of [connectors, 0]) {
      const names = await writeStacks(count);
      // Twice: the second `up --refresh` records what the first one's writes changed in the
      // connectors' outputs (`configured`), which `--expect-no-changes` would count as changes.
      await fleet(["up"]);
      await fleet(["up"]);
      const concurrency = Math.max(2, os.cpus().length * 2);
      await measure(
        "fleet-drift",
        count,
        async () => void (await fleet(["drift", "--concurrency", String(concurrency)])),
        "pulumi-embedded-connectors fleet drift",
        concurrency,
      );
      await measure(
        "fleet-drift",
        count,
        async () => void (await fleet(["drift", "--concurrency", "1"])),
        "pulumi-embedded-connectors fleet drift --concurrency 1",
        1,
      );
      await measure(
        "sequential-preview",
        count,
        async () => {
          for (const s of names) {
            await execFileAsync(
              engine.command.command,
              ["preview", "--refresh", "--expect-no-changes", "--stack", s, "--non-interactive"],
              { cwd: work, env, maxBuffer: 64 * 1024 * 1024 },
            );
          }
        },
        "for s in $stacks; do pulumi preview --refresh --expect-no-changes --stack $s --non-interactive; done",
      );
    }
    await fleet(["destroy"]);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await service.stop();
    await disposeEngine();
  }
  await saveFleetRecords(command, records);
}

/**
 * Adds the records (and the command) to bench/results.json as its text stands: the other
 * records are left byte for byte as they are, then BENCHMARKS.md is rendered again.
 */
export async function saveFleetRecords(command: string, records: FleetBenchRecord[]): Promise<void> {
  const file = path.join(repoRoot, "bench", "results.json");
  const raw = JSON.parse(await fs.readFile(file, "utf8")) as { commands: string[]; fleet?: FleetBenchRecord[] };
  raw.commands = [...raw.commands, command];
  raw.fleet = mergeFleetRecords(raw.fleet, records);
  await fs.writeFile(file, `${JSON.stringify(raw, null, 2)}\n`);
  const results: Results | undefined = await loadResults(file);
  if (!results) throw new Error(`${file} does not parse after adding the fleet's records`);
  await renderBenchmarks(results, path.join(repoRoot, "BENCHMARKS.md"));
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
