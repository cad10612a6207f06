// `fleet drift` answers Pulumi's drift
// question. Random out-of-band changes (seeded: FLEET_DRIFT_SEED replays them) in many
// sub-accounts; the fast path (checkpoints read, the provider's code in the fleet's process)
// and `fleet drift --engine` (`pulumi refresh --preview-only` per stack) must give each stack
// the same verdict, resources and fields. A stack the fast path cannot take goes to the engine,
// and the report says why. Then a `fleet up` killed with SIGTERM and SIGINT: the stacks that
// did not run are listed, no lock is left, the next `fleet up` finishes, and every sub-account
// holds exactly its connectors. The service keeps its rate limit: 429s are waited out. On the
// same fleet, the read-only proof (fleet-read-only.ts): drift, preview and doctor under faults.
//
// FLEET_DRIFT_STACKS sets the number of stacks (default 10, split between two customers).
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { assertNoSecret, repoRoot } from "./harness";
import { assertAgreement, setUpFleetDrift, type FleetDrift } from "./fleet-drift-fixture";
import { assertReadOnly, fileBackendHashes } from "./fleet-read-only";

const STACKS = Number(process.env.FLEET_DRIFT_STACKS ?? 10);
const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");
const cli = path.join(repoRoot, "dist", "cli", "main.js");

describe("e2e: fleet drift against pulumi refresh --preview-only; a killed fleet up", function () {
  this.timeout(30 * 60_000);
  let f: FleetDrift;

  before(async function () {
    console.log(`fleet drift e2e: ${STACKS} stacks, seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    f = await setUpFleetDrift({ stacks: STACKS, seed: SEED, label: "fleet-drift" });
  });

  after(async function () {
    await f?.teardown();
  });

  it("random out-of-band changes: the fast path and refresh --preview-only agree per stack, resource and field", async () => {
    await assertAgreement(f, SEED);
  });

  it("read-only, proven: with faults injected, drift (fast and --engine), preview and doctor send only the token and reads, and leave every backend file byte-identical", async () => {
    await assertReadOnly(f, fileBackendHashes(f.engine.backendDir), SEED);
  });

  it("a stack the fast path cannot take goes to the engine, and the report says why", async () => {
    // A `pulumi refresh` accepted one stack's drift: its state no longer holds the last apply's digests.
    // A field changed by hand first (whatever the test before did to this stack), on a connector still configured.
    const [[stack, { customer, accountId }]] = [...f.accountOf];
    const added = await f.connectorIds(customer, accountId);
    let changed = false;
    for (let pick = 0; pick < added.length && !changed; pick++)
      changed = await f.changeOutOfBand(customer, accountId, "field", pick);
    assert.ok(changed, `a configured connector with a Text field in ${stack}'s sub-account`);
    await f.pulumi(["refresh", "--yes", "--skip-preview", "--stack", stack]);
    const run = await f.fleet(["drift", "--stacks", stack, "--json", f.out("fallback.json")]);
    const [s] = (await f.report("fallback.json")).stacks;
    assert.equal(s.checkedBy, "engine", run.output);
    assert.match(s.engineBecause ?? "", /refreshed after its last apply/);
    assert.match(run.output, /1 stack\(s\) checked by the engine instead/);
  });

  it("fleet up killed by SIGTERM then SIGINT: stacks not run listed, no lock left, the next up finishes the job", async () => {
    const child = spawn(
      process.execPath,
      [cli, "fleet", "up", "--concurrency", "2", "--dir", f.workDir, "--json", f.out("killed.json")],
      {
        env: f.env,
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
    f.outputs.push(output);
    assert.equal(code, 1, output);
    assert.match(output, /SIGTERM: no further stack starts/);
    const killed = await f.report("killed.json");
    const notRun = killed.stacks.filter((s) => /^not run: the fleet run was interrupted/.test(s.error ?? ""));
    assert.ok(
      notRun.length >= STACKS - 4,
      `the stacks not started are listed: ${notRun.map((s) => s.stack).join(", ")}`,
    );
    const locks = path.join(f.engine.backendDir, ".pulumi", "locks");
    const left = existsSync(locks)
      ? (await fs.readdir(locks, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
      : [];
    assert.deepEqual(
      left.map((e) => e.name),
      [],
      "no lock left behind",
    );

    const again = await f.fleet(["up", "--json", f.out("after-kill.json")]);
    assert.equal(again.code, 0, again.output);
    const expected = Object.keys(f.spec).length;
    for (const [stack, { customer, accountId }] of f.accountOf) {
      const listed = await f.clients[customer].listAdded(accountId);
      assert.equal(listed.length, expected, `${stack}: every connector, once`);
      assert.equal(new Set(listed.map((c) => c.connectorId)).size, expected, `${stack}: no connector twice`);
    }
    const drift = await f.fleet(["drift", "--json", f.out("after-kill-drift.json")]);
    assert.equal(drift.code, 0, drift.output);
    assert.equal((await f.report("after-kill-drift.json")).summary.clean, STACKS);
    for (const text of f.outputs) assertNoSecret(text, f.benchSecret, "fleet output or report");
  });
});
