// An inline program whose Output rejects (a refused lookup) while a
// resource takes it as an input. That resource never registers, so neither do the stack
// outputs that wait for it: the Automation API's inline run never ended (pulumi/pulumi#17613),
// alone or beside another stack. runFleet must fail such a stack, with the program's error,
// and leave a healthy neighbour's outcome its own. No service: the resource fails before any
// plugin is asked, and the engine's file backend is the suite's.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as automation from "@pulumi/pulumi/automation";
import { runFleet } from "../../cli/fleet/run";
import type { StackReport } from "../../cli/fleet/report";
import { ensureEngine, programsDir } from "./harness";

const REFUSAL = "lookup refused: no connector named Nope (request id req-inline-1)";

class Thing extends pulumi.CustomResource {
  constructor(name: string, args: { connectorId: pulumi.Input<string> }) {
    super("inline:index:Thing", name, args);
  }
}

/** `bad-*` stacks: a resource fed by a rejected Output, the stack's output waiting for it; others: nothing. */
async function program(): Promise<Record<string, unknown>> {
  if (!pulumi.getStack().startsWith("bad-")) return { healthy: "yes" };
  const refused = pulumi.output(Promise.reject(new pulumi.RunError(REFUSAL)) as Promise<string>);
  const thing = new Thing("thing", { connectorId: refused });
  return { thing: thing.urn };
}

describe("e2e: fleet inline runs whose program leaves an error uncaught", function () {
  this.timeout(2 * 60_000); // a run that never ends fails here
  const suffix = randomBytes(3).toString("hex");
  const bad = `bad-${suffix}`;
  const good = `good-${suffix}`;
  const projectDir = path.join(programsDir, ".work", `fleet-inline-errors-${suffix}`);
  const saved: NodeJS.ProcessEnv = {};

  before(async function () {
    const engine = await ensureEngine();
    // The Automation API reads the engine's environment from the process's.
    for (const [name, value] of Object.entries(engine.env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    await fs.mkdir(projectDir, { recursive: true });
    await fs.writeFile(path.join(projectDir, "Pulumi.yaml"), "name: fleet-inline-errors\nruntime: nodejs\n");
  });

  after(async function () {
    const workspace = await automation.LocalWorkspace.create({ workDir: projectDir });
    for (const name of [bad, good]) await workspace.removeStack(name, { force: true }).catch(() => undefined);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await fs.rm(projectDir, { recursive: true, force: true });
  });

  const fleetUp = (stacks: string[], concurrency: number, retried: string[] = []): Promise<StackReport[]> =>
    runFleet({
      automation,
      projectDir,
      command: "up",
      stacks,
      concurrency,
      program,
      repairCommand: (stack) => `fleet up --stack ${stack}`,
      onRetry: (stack) => retried.push(stack),
    });

  it("alone, the stack fails with the program's error instead of hanging", async () => {
    const [report] = await fleetUp([bad], 1);
    assert.equal(report.status, "failed", JSON.stringify(report));
    assert.match(report.error ?? "", /lookup refused: no connector named Nope \(request id req-inline-1\)/);
  });

  it("beside a healthy stack: the failing one fails with its own error, the healthy one is applied", async () => {
    const retried: string[] = [];
    const reports = await fleetUp([bad, good], 2, retried);
    const byName = new Map(reports.map((r) => [r.stack, r]));
    assert.equal(byName.get(bad)?.status, "failed", JSON.stringify(reports));
    assert.match(byName.get(bad)?.error ?? "", /lookup refused: no connector named Nope/);
    assert.notEqual(byName.get(good)?.status, "failed", JSON.stringify(reports));
    assert.ok(retried.includes(bad), `the failed stack ran again alone (retried: ${retried.join(", ")})`);
    const outputs = await (
      await automation.LocalWorkspace.selectStack({ stackName: good, workDir: projectDir })
    ).outputs();
    assert.equal(outputs.healthy?.value, "yes", "the healthy stack's outputs were written");
  });
});
