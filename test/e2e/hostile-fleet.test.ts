// The fleet (examples/fleet, one stack) against the hostile proxy in front of
// the local service. `fleet up` refused inside a 200 that quotes the client secret; `fleet drift`
// (the fast path: checkpoints read, the provider's code in the fleet's process) against each
// hostile list: it never reports a connector gone while the service still has it, and no canary
// in any quoted form reaches its output or its JSON, Markdown and JUnit reports.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { allowBenchSecret, benchConnectors } from "../../bench/fleet";
import { readProject } from "../../cli/fleet/project";
import { writeStackFile } from "../../cli/fleet/new";
import type { FleetReport } from "../../cli/fleet/report";
import { ensureEngine, programsDir, repoRoot } from "./harness";
import { runCli } from "./fleet-cli";
import { startService, type E2EService } from "./fixtures";
import { routesOf, READ_MODES, startHostileProxy, TOKEN, type HostileProxy } from "./hostile-proxy";
import { assertNoCanary, hostileCanary, HOSTILE_SEED } from "./hostile-support";

const clientSecret = hostileCanary("Client");
const canaries = { clientSecret, password: hostileCanary("Pass") };

describe("e2e: the fleet against a hostile service", function () {
  this.timeout(10 * 60_000);
  let svc: E2EService;
  let proxy: HostileProxy;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  const reports = () => `${workDir}-reports`;
  const spec = benchConnectors(2);

  async function fleet(args: string[]): Promise<{ code: number; output: string; reports: string }> {
    const files = ["json", "markdown", "junit"].flatMap((kind) => [
      `--${kind}`,
      path.join(reports(), `report.${kind}`),
    ]);
    // A fleet that never ends is a failure of its own (killed: the test says so), not the suite's hang.
    const run = await runCli(["fleet", ...args, "--dir", workDir, ...files], { env, timeoutMs: 2 * 60_000 });
    assertNoCanary(run.output, canaries, `fleet ${args[0]}'s output`);
    if (run.code === -1)
      throw new Error(`fleet ${args[0]} did not end within 2 minutes (killed); it printed:\n${run.output}`);
    const texts = await Promise.all(
      ["json", "markdown", "junit"].map((kind) => fs.readFile(path.join(reports(), `report.${kind}`), "utf8")),
    );
    texts.forEach((text, i) =>
      assertNoCanary(text, canaries, `fleet ${args[0]}'s ${["JSON", "Markdown", "JUnit"][i]} report`),
    );
    return { ...run, reports: texts[0] };
  }

  before(async function () {
    console.log(`hostile fleet: seed ${HOSTILE_SEED} (replay with HOSTILE_SEED=${HOSTILE_SEED})`);
    const engine = await ensureEngine();
    svc = await startService({ firstCustomer: { clientSecret } });
    proxy = await startHostileProxy(svc.baseUrl);
    workDir = path.join(programsDir, ".work", `hostile-fleet-${randomBytes(3).toString("hex")}`);
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    await allowBenchSecret(workDir);
    await fs.mkdir(reports(), { recursive: true });
    await writeStackFile(await readProject(workDir), "h001", {
      accountId: svc.accountId,
      customer: "acme",
      connectors: spec,
    });
    env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: proxy.baseUrl,
      ACME_CLIENT_SECRET: clientSecret,
      BENCH_SECRET: canaries.password,
    };
  });

  after(async function () {
    proxy?.setMode({ kind: "pass" });
    if (workDir) {
      await fleet(["destroy"]).catch(() => undefined);
      await fs.rm(workDir, { recursive: true, force: true });
      await fs.rm(reports(), { recursive: true, force: true });
    }
    await proxy?.close();
    await svc?.service.stop();
  });

  afterEach(async function () {
    // A fleet run killed by its timeout leaves its stack locked: the lock goes, so the next run is the next mode's.
    const locks = path.join((await ensureEngine()).backendDir, ".pulumi", "locks");
    await fs.rm(locks, { recursive: true, force: true });
  });

  it("fleet up through the proxy passing answers on: every connector added", async () => {
    const run = await fleet(["up"]);
    assert.equal(run.code, 0, run.output);
    assert.equal((await svc.outOfBand.addedIds(svc.accountId)).length, Object.keys(spec).length);
  });

  for (const [what, mode] of READ_MODES) {
    it(`fleet drift (fast path) against ${what}: no connector reported gone, no canary`, async () => {
      proxy.setMode(mode);
      const run = await fleet(["drift"]).finally(() => proxy.setMode({ kind: "pass" }));
      const report = JSON.parse(run.reports) as FleetReport;
      const gone = report.stacks.flatMap((s) => s.resources.filter((r) => r.operation === "delete"));
      assert.deepEqual(gone, [], `fleet drift against ${what} reported connectors gone:\n${run.output}`);
      assert.notEqual(run.code, 2, `fleet drift against ${what} reported drift:\n${run.output}`);
      assert.deepEqual(routesOf(proxy.trapped.splice(0)), [], "a request reached the redirect's other origin");
    });
  }

  it("after all that, the sub-account still holds every connector and the drift check is clean", async () => {
    const run = await fleet(["drift"]);
    assert.equal(run.code, 0, run.output);
    const report = JSON.parse(run.reports) as FleetReport;
    assert.ok(
      report.stacks.every((s) => s.checkedBy === "checkpoint"),
      "the fast path checked the stack",
    );
    assert.equal((await svc.outOfBand.addedIds(svc.accountId)).length, Object.keys(spec).length);
  });

  it("fleet up of an applied and a new stack, refused inside a 200 that quotes the client secret: fails within 2 min, no canary in its output or reports", async () => {
    // A second stack, never applied: the first `up` of a new sub-account meets the refusal too.
    const fresh = svc.service.customers[0].subAccountIds[1];
    await writeStackFile(await readProject(workDir), "h002", { accountId: fresh, customer: "acme", connectors: spec });
    proxy.setMode({ kind: "quote", on: TOKEN });
    const run = await fleet(["up"]).finally(() => proxy.setMode({ kind: "pass" }));
    assert.equal(run.code, 1, run.output);
    // The never-applied stack ends too, failed with its lookup's refusal (the route named, the text withheld).
    assert.match(run.output, /up h002: failed \([^)]*\): [^\n]*oauth\/client-token/, run.output);
  });
});
