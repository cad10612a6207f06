// docs/policy.md's two shell blocks, run as written in a copy of examples/fleet outside the
// checkout, the package installed by name (npm, from the by-name tests' registry on loopback,
// by-name-registries.ts, shared with them): three stacks, each adding Segment with its API key
// from the environment; the team's config (examples/policy/policy-config.json, the doc's) allows
// Segment but only Amazon S3 for one stack.
// - The install block (the pack in a folder of its own, then `pulumi preview` with it) on that
//   stack: blocked, naming the resource, the rule and what to change.
// - The fleet block: that stack alone is blocked, and its violation (rule, resource, what to
//   change) is in the terminal's table, the JSON, the Markdown and the JUnit reports; the two
//   others are clean.
// No canary in any output, in any letter case.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { writeStackFile } from "../../cli/fleet/new";
import type { FleetReport } from "../../cli/fleet/report";
import { repoRoot } from "./harness";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { copyFleetExample, type FleetCopy } from "./fleet-example-copy";
import { publishedRegistries } from "./by-name-registries";
import { RULE_SAYS } from "./policy-fixture";

const execFileAsync = promisify(execFile);
const STACKS = ["acme-a", "acme-b", "acme-c"];
const BLOCKED = "acme-c";

/** docs/policy.md's shell blocks: the install block (its `pulumi preview` last) and the fleet block. */
async function policyBlocks(): Promise<{ install: string; fleet: string }> {
  const doc = await fs.readFile(path.join(repoRoot, "docs", "policy.md"), "utf8");
  const blocks = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const install = blocks.find((block) => /^npm install pulumi-embedded-connectors /m.test(block));
  const fleet = blocks.find((block) => block.includes(" fleet preview "));
  assert.ok(install && fleet && blocks.length === 2, "docs/policy.md gives the install block and the fleet block");
  return { install, fleet };
}

describe("e2e: docs/policy.md's blocks as written: the pack installed by name blocks a preview, and the fleet reports each stack's violations", function () {
  this.timeout(10 * 60_000);
  replayCanariesOnFailure();
  let fleet: FleetCopy;
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const acmeSecret = canary("fleet-policy-client");
  const apiKey = canary("fleet-policy-segment-key");
  /** Everything a user saw: each command's output, each report; [where, text]. */
  const outputs: [string, string][] = [];

  /** A block as the user runs it: bash, in the fleet's directory; its exit code and output. */
  async function sh(command: string): Promise<{ code: number; output: string }> {
    const where = `the output of \`${command.trim().split("\n")[0]}\``;
    const run = await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", command], {
      cwd: fleet.workDir,
      env,
      maxBuffer: 64 * 1024 * 1024,
    })
      .then((r) => ({ code: 0, output: `${r.stdout}${r.stderr}` }))
      .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: typeof e.code === "number" ? e.code : -1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }));
    outputs.push([where, run.output]);
    return run;
  }

  before(async function () {
    this.timeout(30 * 60_000); // a cold machine: the engine, the registries' tools, the release
    const registries = await publishedRegistries();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-fleet-policy-"));
    fleet = await copyFleetExample({ parent: tmp, name: "fleet", acmeClientSecret: acmeSecret });
    const accounts = fleet.service.customers[0].subAccountIds;
    for (const [index, stack] of STACKS.entries()) {
      await writeStackFile(fleet.project, stack, {
        accountId: accounts[index % accounts.length],
        customer: "acme",
        connectors: {
          segment: {
            name: "Segment",
            supportedType: "Source" as const,
            values: { dataCenter: "EU", batchSize: 5, workspace: `ws-${index}` },
            secrets: { apiKey: { env: "ACME_SEGMENT_API_KEY" } },
          },
        },
      });
    }
    // docs/policy.md's config, as it shows it.
    await fs.copyFile(
      path.join(repoRoot, "examples", "policy", "policy-config.json"),
      path.join(fleet.workDir, "policy-config.json"),
    );
    const npmrc = path.join(tmp, "user.npmrc");
    await fs.writeFile(npmrc, "");
    env = fleet.env({
      ACME_SEGMENT_API_KEY: apiKey,
      NPM_CONFIG_REGISTRY: registries.npm,
      NPM_CONFIG_USERCONFIG: npmrc,
      NPM_CONFIG_AUDIT: "false",
      NPM_CONFIG_FUND: "false",
    });
    // The fleet's own dependencies (its package.json: the package by name), as its repository has them.
    const started = Date.now();
    const installed = await sh("npm install");
    assert.equal(installed.code, 0, installed.output);
    console.log(`      the fleet's npm install: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(async () => {
    await fleet?.remove();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("the install block as written: the pack in its own folder, then `pulumi preview` with it, blocked on the stack the config refuses Segment", async () => {
    const { install } = await policyBlocks();
    const selected = await sh(`pulumi stack select --create ${BLOCKED}`); // the user's stack, selected
    assert.equal(selected.code, 0, selected.output);
    const started = Date.now();
    const run = await sh(install);
    console.log(`      the install block: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.notEqual(run.code, 0, `a mandatory violation fails the preview:\n${run.output}`);
    const pack = await fs.readFile(path.join(fleet.workDir, "guardrails", "package.json"), "utf8");
    assert.match(pack, /"@pulumi\/policy": "\^?1\.21\.0"/, "the block installed the pack's peer beside it");
    assert.match(run.output, /embedded-allowed-connectors/);
    for (const pattern of RULE_SAYS["embedded-allowed-connectors"].slice(1)) assert.match(run.output, pattern);
    assert.match(
      run.output,
      /AddedConnector "segment" adds connector "Segment".*stack "acme-c" \(allowed: name "Amazon S3"\)/,
      run.output.slice(-6000),
    );
  });

  it("the fleet block as written: one stack of three blocked, its violation in every report", async () => {
    const { fleet: block } = await policyBlocks();
    const out = (name: string) => path.join(fleet.workDir, name);
    const started = Date.now();
    const run = await sh(block);
    console.log(
      `      fleet preview of ${STACKS.length} stacks with the pack: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    assert.equal(run.code, 1, run.output);
    const json = await fs.readFile(out("report.json"), "utf8");
    const report = JSON.parse(json) as FleetReport;
    const byStack = new Map(report.stacks.map((s) => [s.stack, s]));
    assert.deepEqual(
      STACKS.map((s) => [s, byStack.get(s)?.status, byStack.get(s)?.violations?.length ?? 0]),
      [
        ["acme-a", "changed", 0],
        ["acme-b", "changed", 0],
        [BLOCKED, "failed", 1],
      ],
      json,
    );
    const [violation] = byStack.get(BLOCKED)?.violations ?? [];
    assert.equal(violation.policy, "embedded-allowed-connectors");
    assert.equal(violation.level, "mandatory");
    assert.equal(violation.resource, "segment");
    assert.match(violation.message, /adds connector "Segment".*stack "acme-c" \(allowed: name "Amazon S3"\)/);
    assert.equal(report.summary.violations, 1);

    const markdown = await fs.readFile(out("report.md"), "utf8");
    assert.match(markdown, /\| acme-c \| mandatory \| `embedded-allowed-connectors` \| segment \| .*"Segment"/);
    assert.doesNotMatch(markdown, /\| acme-[ab] \| mandatory/);
    const junit = await fs.readFile(out("report.xml"), "utf8");
    assert.match(
      junit,
      /policy mandatory embedded-allowed-connectors \(segment\): [^\n]*\nAddedConnector &quot;segment&quot; adds/,
    );
    assert.match(
      run.output,
      /acme-c +failed +segment +policy mandatory +embedded-allowed-connectors: AddedConnector "segment" adds/,
    );
    assert.match(run.output, /1 policy violation\(s\)/);
    outputs.push(["the JSON report", json], ["the Markdown report", markdown], ["the JUnit report", junit]);
  });

  it("no canary in any output or report", function () {
    if (outputs.length === 0) this.skip();
    for (const [where, text] of outputs) {
      assertNoLeak(text, acmeSecret, where);
      assertNoLeak(text, apiKey, where);
    }
  });
});
