// The fleet drift e2e tests' set-up (fleet-drift.test.ts on a file:// backend, fleet-drift-s3.test.ts
// on moto's S3 and KMS): examples/fleet copied, `stacks` stack files over two customers of the
// local service (with its rate limit), `fleet up`, and the agreement check: random out-of-band
// changes (seeded), then the fast path and `fleet drift --engine` must give each stack the same
// verdict, resources and fields, with one token per customer.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { allowBenchSecret, benchConnectors } from "../../bench/fleet";
import { readProject } from "../../cli/fleet/project";
import { writeStackFile } from "../../cli/fleet/new";
import type { FleetReport } from "../../cli/fleet/report";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { DEFAULT_OPTIONS } from "../../service/options";
import { CATALOGUE } from "../../service/seed/catalogue";
import { assertNoSecret, ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { runCli } from "./fleet-cli";
import { OutOfBandClient } from "./fixtures";
import { seededRandom } from "../support/seed";

const execFileAsync = promisify(execFile);
export const CHANGES = ["field", "password", "connector removed", "configuration removed", "nothing"] as const;
export type Change = (typeof CHANGES)[number];

export interface FleetDriftOptions {
  stacks: number;
  seed: string;
  /** A name for the work directory. */
  label: string;
  /** Added to the engine's environment (another backend, its credentials). */
  env?: Record<string, string>;
  /** Whether teardown runs `fleet destroy` (a backend other tests share keeps no stacks of this one). */
  destroy?: boolean;
  /** Runs after the stack files are written, before `fleet up` (e.g. `pulumi stack init --secrets-provider`). */
  beforeUp?: (fixture: FleetDrift) => Promise<void>;
}

export interface FleetDrift {
  engine: Engine;
  service: LocalService;
  workDir: string;
  env: NodeJS.ProcessEnv;
  accountOf: Map<string, { customer: number; accountId: string }>;
  clients: OutOfBandClient[];
  spec: ReturnType<typeof benchConnectors>;
  benchSecret: string;
  outputs: string[];
  fleet(args: string[]): Promise<{ code: number; output: string }>;
  out(file: string): string;
  report(file: string): Promise<FleetReport>;
  connectorIds(customer: number, accountId: string): Promise<string[]>;
  /** `two fields`: a Text and a Select of one connector, so that one can be acknowledged beside the other. */
  changeOutOfBand(customer: number, accountId: string, change: Change | "two fields", pick: number): Promise<boolean>;
  /** A CLI command in the program's directory, with the fleet's environment. */
  pulumi(args: string[]): Promise<void>;
  teardown(): Promise<void>;
}

export async function setUpFleetDrift(o: FleetDriftOptions): Promise<FleetDrift> {
  const engine = await ensureEngine();
  // The service's own rate limit (the harness turns it off by default): its 429s are waited out.
  const service = await startLocalService({
    subAccountsPerCustomer: Math.ceil(o.stacks / 2),
    rateLimitPerSecond: DEFAULT_OPTIONS.rateLimitPerSecond,
  });
  const workDir = path.join(programsDir, ".work", `${o.label}-${o.seed}-${randomBytes(3).toString("hex")}`);
  const benchSecret = `bench-${o.seed}-password`;
  const spec = benchConnectors(3);
  const outputs: string[] = [];
  const accountOf = new Map<string, { customer: number; accountId: string }>();
  const out = (file: string) => `${workDir}-reports/${file}`;
  await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
  for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
  await allowBenchSecret(workDir);
  await fs.mkdir(out(""), { recursive: true });
  const project = await readProject(workDir);
  for (let i = 0; i < o.stacks; i++) {
    const customer = i % 2;
    const stack = `d${String(i + 1).padStart(3, "0")}`;
    const accountId = service.customers[customer].subAccountIds[Math.floor(i / 2)];
    accountOf.set(stack, { customer, accountId });
    await writeStackFile(project, stack, { accountId, customer: customer ? "globex" : "acme", connectors: spec });
  }
  const clients = service.customers
    .slice(0, 2)
    .map((c) => new OutOfBandClient(service.baseUrl, c.clientId, c.clientSecret));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...engine.env,
    CI: "true",
    EMBEDDED_BASE_URL: service.baseUrl,
    ACME_CLIENT_SECRET: service.customers[0].clientSecret,
    GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
    BENCH_SECRET: benchSecret,
    ...o.env,
  };
  const connectorIds = async (customer: number, accountId: string) =>
    (await clients[customer].listAdded(accountId)).map((c) => c.connectorId).sort();

  const fixture: FleetDrift = {
    engine,
    service,
    workDir,
    env,
    accountOf,
    clients,
    spec,
    benchSecret,
    outputs,
    out,
    connectorIds,
    async fleet(args) {
      const started = Date.now();
      const result = await runCli(["fleet", ...args, "--dir", workDir], { env });
      const took = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`    fleet ${args.slice(0, 2).join(" ")}: exit ${result.code} in ${took} s`);
      outputs.push(result.output);
      return result;
    },
    async report(file) {
      const text = await fs.readFile(out(file), "utf8");
      outputs.push(text);
      return JSON.parse(text) as FleetReport;
    },
    async pulumi(args) {
      const r = await execFileAsync(engine.command.command, [...args, "--non-interactive"], { cwd: workDir, env });
      outputs.push(`${r.stdout}${r.stderr}`);
    },
    /** One out-of-band change to the `pick`-th connector of a stack's sub-account; whether it wrote. */
    async changeOutOfBand(customer, accountId, change, pick) {
      const client = clients[customer];
      const connectorId = (await connectorIds(customer, accountId))[pick];
      const current = await client.getConfiguration(accountId, connectorId);
      const fields =
        (
          current.secretConfig as {
            configuration?: { id: string; type: string; value?: unknown; readonly?: boolean }[];
          }[]
        )[0].configuration ?? [];
      // Configure takes the whole configuration: the Passwords (never returned) as the stack set them.
      const values = Object.fromEntries(
        fields
          .filter((f) => !f.readonly && (f.value !== undefined || f.type === "Password"))
          .map((f) => [f.id, f.type === "Password" ? benchSecret : f.value]),
      );
      const text = fields.find((f) => f.type === "Text" && !f.readonly && f.value !== undefined);
      const password = fields.find((f) => f.type === "Password");
      const select = fields.find((f) => f.type === "Select" && !f.readonly && f.value !== undefined);
      const other = CATALOGUE.find((c) => c.connectorId === connectorId)
        ?.secretConfiguration?.fields?.find((f) => f.id === select?.id)
        ?.options?.find((option) => option !== select?.value);
      if (change === "two fields" && text && select && other !== undefined) {
        await client.configure(accountId, connectorId, {
          ...values,
          [text.id]: `by-hand-${o.seed}-${pick}`,
          [select.id]: other,
        });
        return true;
      }
      if (change === "field" && text) {
        await client.configure(accountId, connectorId, { ...values, [text.id]: `by-hand-${o.seed}-${pick}` });
        return true;
      }
      if (change === "password" && password) {
        await client.configure(accountId, connectorId, { ...values, [password.id]: `typed-${o.seed}` });
        return true;
      }
      if (change === "connector removed") await client.remove(accountId, connectorId);
      if (change === "configuration removed") {
        // The service has no "unconfigure": removed and added again, the connector is back unconfigured.
        await client.remove(accountId, connectorId);
        await client.add(accountId, [connectorId]);
      }
      return change === "connector removed" || change === "configuration removed";
    },
    async teardown() {
      if (process.env.FLEET_E2E_KEEP !== "1") {
        if (o.destroy !== false) await fixture.fleet(["destroy"]).catch(() => undefined);
        await fs.rm(workDir, { recursive: true, force: true });
        await fs.rm(out(""), { recursive: true, force: true });
      }
      await service.stop();
    },
  };
  await o.beforeUp?.(fixture);
  const up = await fixture.fleet(["up", "--json", out("up.json")]);
  assert.equal(up.code, 0, up.output);
  return fixture;
}

/**
 * Random out-of-band changes (seeded), then the fast path and `fleet drift --engine`: the same
 * verdict, resources, steps and names per stack, every stack read from its checkpoint, one token
 * per customer. Returns the fast path's report.
 */
export async function assertAgreement(f: FleetDrift, seed: string): Promise<FleetReport> {
  const next = seededRandom(seed);
  const applied = new Map<string, Change>();
  const ids = Object.values(f.spec).length;
  for (const [stack, { customer, accountId }] of f.accountOf) {
    const change = CHANGES[Math.floor(next() * CHANGES.length)];
    applied.set(stack, change);
    await f.changeOutOfBand(customer, accountId, change, Math.floor(next() * ids));
  }
  console.log(`    changes: ${[...applied].map(([s, c]) => `${s}: ${c}`).join("; ")}`);
  const tokensBefore = (await f.service.stats()).tokenRequests;
  const fast = await f.fleet(["drift", "--json", f.out("fast.json")]);
  const tokens = (await f.service.stats()).tokenRequests - tokensBefore;
  const viaEngine = await f.fleet(["drift", "--engine", "--json", f.out("engine.json")]);
  const [a, b] = [await f.report("fast.json"), await f.report("engine.json")];
  assert.ok(fast.code === 0 || fast.code === 2, fast.output);
  assert.equal(fast.code, viaEngine.code, `${fast.output}\n${viaEngine.output}`);
  assert.deepEqual(
    a.stacks.filter((s) => s.checkedBy !== "checkpoint").map((s) => [s.stack, s.engineBecause]),
    [],
    "every stack read from its checkpoint",
  );
  assert.ok(b.stacks.every((s) => s.checkedBy === "engine" && s.engineBecause === "--engine"));
  const shape = (r: FleetReport) =>
    r.stacks.map((s) => ({
      stack: s.stack,
      status: s.status,
      resources: s.resources.map((x) => [x.urn, x.operation, x.properties]),
    }));
  assert.deepEqual(shape(a), shape(b), "the fast path and pulumi refresh --preview-only");
  for (const s of a.stacks) {
    const expectDrift = applied.get(s.stack) !== "nothing";
    assert.equal(s.status, expectDrift ? "drifted" : "clean", `${s.stack} (${applied.get(s.stack)})`);
  }
  assert.equal(a.semantics, b.semantics);
  assert.match(a.semantics, /refresh --preview-only --expect-no-changes/);
  assert.equal(tokens, 2, "one token per customer for the whole run, not one per stack");
  for (const text of f.outputs) assertNoSecret(text, f.benchSecret, "fleet output or report");
  return a;
}
