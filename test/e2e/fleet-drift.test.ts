// Issue 34 under the real engine, on examples/fleet: `fleet drift` answers Pulumi's drift
// question. Random out-of-band changes (seeded: FLEET_DRIFT_SEED replays them) in many
// sub-accounts; the fast path (checkpoints read, the provider's code in the fleet's process)
// and `fleet drift --engine` (`pulumi refresh --preview-only` per stack) must give each stack
// the same verdict, resources and fields. A stack the fast path cannot take goes to the engine,
// and the report says why. Then a `fleet up` killed with SIGTERM and SIGINT: the stacks that
// did not run are listed, no lock is left, the next `fleet up` finishes, and every sub-account
// holds exactly its connectors. The service keeps its rate limit: 429s are waited out.
//
// FLEET_DRIFT_STACKS sets the number of stacks (default 10, split between two customers).
import { strict as assert } from "node:assert";
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { allowBenchSecret, benchConnectors } from "../../bench/fleet";
import { readProject } from "../../cli/fleet/project";
import { writeStackFile } from "../../cli/fleet/new";
import type { FleetReport } from "../../cli/fleet/report";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { DEFAULT_OPTIONS } from "../../service/options";
import { assertNoSecret, ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { OutOfBandClient } from "./fixtures";
import { seededRandom } from "../property/seed";

const execFileAsync = promisify(execFile);
const STACKS = Number(process.env.FLEET_DRIFT_STACKS ?? 10);
const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const CHANGES = ["field", "password", "connector removed", "configuration removed", "nothing"] as const;

describe("e2e: fleet drift against pulumi refresh --preview-only; a killed fleet up", function () {
  this.timeout(30 * 60_000);
  let engine: Engine;
  let service: LocalService;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  const accountOf = new Map<string, { customer: number; accountId: string }>();
  const clients: OutOfBandClient[] = [];
  const outputs: string[] = [];
  const benchSecret = `bench-${SEED}-password`;
  const spec = benchConnectors(3);

  async function fleet(args: string[]): Promise<{ code: number; output: string }> {
    const started = Date.now();
    const result = await execFileAsync(process.execPath, [cli, "fleet", ...args, "--dir", workDir], {
      env,
      maxBuffer: 64 * 1024 * 1024,
    })
      .then((r) => ({ code: 0, output: `${r.stdout}${r.stderr}` }))
      .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? -1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }));
    console.log(
      `    fleet ${args.slice(0, 2).join(" ")}: exit ${result.code} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    outputs.push(result.output);
    return result;
  }
  const out = (file: string) => `${workDir}-reports/${file}`;
  async function report(file: string): Promise<FleetReport> {
    const text = await fs.readFile(out(file), "utf8");
    outputs.push(text);
    return JSON.parse(text) as FleetReport;
  }
  const connectorIds = async (customer: number, accountId: string) => {
    const listed = await clients[customer].listAdded(accountId);
    return listed.map((c) => c.connectorId).sort();
  };

  before(async function () {
    console.log(`fleet drift e2e: ${STACKS} stacks, seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    engine = await ensureEngine();
    // The service's own rate limit (the harness turns it off by default): its 429s are waited out.
    service = await startLocalService({
      subAccountsPerCustomer: Math.ceil(STACKS / 2),
      rateLimitPerSecond: DEFAULT_OPTIONS.rateLimitPerSecond,
    });
    workDir = path.join(programsDir, ".work", `fleet-drift-${SEED}-${randomBytes(3).toString("hex")}`);
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    await allowBenchSecret(workDir);
    await fs.mkdir(out(""), { recursive: true });
    const project = await readProject(workDir);
    for (let i = 0; i < STACKS; i++) {
      const customer = i % 2;
      const stack = `d${String(i + 1).padStart(3, "0")}`;
      const accountId = service.customers[customer].subAccountIds[Math.floor(i / 2)];
      accountOf.set(stack, { customer, accountId });
      await writeStackFile(project, stack, { accountId, customer: customer ? "globex" : "acme", connectors: spec });
    }
    for (const c of service.customers.slice(0, 2))
      clients.push(new OutOfBandClient(service.baseUrl, c.clientId, c.clientSecret));
    env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: service.customers[0].clientSecret,
      GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
      BENCH_SECRET: benchSecret,
    };
    const up = await fleet(["up", "--json", out("up.json")]);
    assert.equal(up.code, 0, up.output);
  });

  after(async function () {
    if (workDir && process.env.FLEET_E2E_KEEP !== "1") {
      await fleet(["destroy"]).catch(() => undefined);
      await fs.rm(workDir, { recursive: true, force: true });
      await fs.rm(out(""), { recursive: true, force: true });
    }
    await service?.stop();
  });

  /** One out-of-band change to the `pick`-th connector of a stack's sub-account; whether it wrote. */
  async function changeOutOfBand(
    customer: number,
    accountId: string,
    change: (typeof CHANGES)[number],
    pick: number,
  ): Promise<boolean> {
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
    if (change === "field" && text) {
      await client.configure(accountId, connectorId, { ...values, [text.id]: `by-hand-${SEED}-${pick}` });
      return true;
    }
    if (change === "password" && password) {
      await client.configure(accountId, connectorId, { ...values, [password.id]: `typed-${SEED}` });
      return true;
    }
    if (change === "connector removed") await client.remove(accountId, connectorId);
    if (change === "configuration removed") {
      // The service has no "unconfigure": removed and added again, the connector is back unconfigured.
      await client.remove(accountId, connectorId);
      await client.add(accountId, [connectorId]);
    }
    return change === "connector removed" || change === "configuration removed";
  }

  it("random out-of-band changes: the fast path and refresh --preview-only agree per stack, resource and field", async () => {
    const next = seededRandom(SEED);
    const applied = new Map<string, (typeof CHANGES)[number]>();
    const ids = Object.values(spec).length;
    for (const [stack, { customer, accountId }] of accountOf) {
      const change = CHANGES[Math.floor(next() * CHANGES.length)];
      applied.set(stack, change);
      await changeOutOfBand(customer, accountId, change, Math.floor(next() * ids));
    }
    console.log(`    changes: ${[...applied].map(([s, c]) => `${s}: ${c}`).join("; ")}`);
    const tokensBefore = (await service.stats()).tokenRequests;
    const fast = await fleet(["drift", "--json", out("fast.json")]);
    const tokens = (await service.stats()).tokenRequests - tokensBefore;
    const viaEngine = await fleet(["drift", "--engine", "--json", out("engine.json")]);
    const [a, b] = [await report("fast.json"), await report("engine.json")];
    assert.ok(fast.code === 0 || fast.code === 2, fast.output);
    assert.equal(fast.code, viaEngine.code, `${fast.output}\n${viaEngine.output}`);
    assert.ok(
      a.stacks.every((s) => s.checkedBy === "checkpoint"),
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
  });

  it("a stack the fast path cannot take goes to the engine, and the report says why", async () => {
    // A `pulumi refresh` accepted one stack's drift: its state no longer holds the last apply's digests.
    // A field changed by hand first (whatever the test before did to this stack), on a connector still configured.
    const [[stack, { customer, accountId }]] = [...accountOf];
    const added = await connectorIds(customer, accountId);
    let changed = false;
    for (let pick = 0; pick < added.length && !changed; pick++)
      changed = await changeOutOfBand(customer, accountId, "field", pick);
    assert.ok(changed, `a configured connector with a Text field in ${stack}'s sub-account`);
    await execFileAsync(
      engine.command.command,
      ["refresh", "--yes", "--skip-preview", "--stack", stack, "--non-interactive"],
      {
        cwd: workDir,
        env,
      },
    );
    const run = await fleet(["drift", "--stacks", stack, "--json", out("fallback.json")]);
    const [s] = (await report("fallback.json")).stacks;
    assert.equal(s.checkedBy, "engine", run.output);
    assert.match(s.engineBecause ?? "", /refreshed after its last apply/);
    assert.match(run.output, /1 stack\(s\) checked by the engine instead/);
  });

  it("fleet up killed by SIGTERM then SIGINT: stacks not run listed, no lock left, the next up finishes the job", async () => {
    const child = spawn(
      process.execPath,
      [cli, "fleet", "up", "--concurrency", "2", "--dir", workDir, "--json", out("killed.json")],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const started = new Promise<void>((resolve) => {
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        if ((output.match(/: started/g) ?? []).length >= 2) resolve();
      };
      child.stdout.on("data", seen);
      child.stderr.on("data", seen);
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await started;
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill("SIGINT");
    const code = await exited;
    outputs.push(output);
    assert.equal(code, 1, output);
    assert.match(output, /SIGTERM: no further stack starts/);
    const killed = await report("killed.json");
    const notRun = killed.stacks.filter((s) => /^not run: the fleet run was interrupted/.test(s.error ?? ""));
    assert.ok(
      notRun.length >= STACKS - 4,
      `the stacks not started are listed: ${notRun.map((s) => s.stack).join(", ")}`,
    );
    const locks = path.join(engine.backendDir, ".pulumi", "locks");
    const left = existsSync(locks)
      ? (await fs.readdir(locks, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
      : [];
    assert.deepEqual(
      left.map((e) => e.name),
      [],
      "no lock left behind",
    );

    const again = await fleet(["up", "--json", out("after-kill.json")]);
    assert.equal(again.code, 0, again.output);
    const expected = Object.keys(spec).length;
    for (const [stack, { customer, accountId }] of accountOf) {
      const listed = await clients[customer].listAdded(accountId);
      assert.equal(listed.length, expected, `${stack}: every connector, once`);
      assert.equal(new Set(listed.map((c) => c.connectorId)).size, expected, `${stack}: no connector twice`);
    }
    const drift = await fleet(["drift", "--json", out("after-kill-drift.json")]);
    assert.equal(drift.code, 0, drift.output);
    assert.equal((await report("after-kill-drift.json")).summary.clean, STACKS);
    for (const text of outputs) assertNoSecret(text, benchSecret, "fleet output or report");
  });
});
