// `fleet preview --policy-pack policy/ --policy-pack-config <file>` on examples/fleet: three
// stacks, each adding Segment with its API key from the environment; the team's config
// (examples/policy/policy-config.json, docs/policy.md's) allows Segment but only Amazon S3 for one stack. That stack alone is blocked, and its
// violation (rule, resource, what to change) is in the terminal's table, the JSON, the Markdown
// and the JUnit reports; the two others are clean. No canary in any output, in any letter case.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { writeStackFile } from "../../cli/fleet/new";
import { readProject } from "../../cli/fleet/project";
import type { FleetReport } from "../../cli/fleet/report";
import { ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { runCli } from "./fleet-cli";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { policyPackDir } from "./policy-fixture";

const STACKS = ["acme-a", "acme-b", "acme-c"];
const BLOCKED = "acme-c";

describe("e2e: the fleet runs every stack with the policy pack and reports each stack's violations", function () {
  this.timeout(10 * 60_000);
  replayCanariesOnFailure();
  let engine: Engine;
  let service: LocalService;
  let workDir: string;
  const acmeSecret = canary("fleet-policy-client");
  const apiKey = canary("fleet-policy-segment-key");

  before(async function () {
    this.timeout(30 * 60_000);
    engine = await ensureEngine();
    service = await startLocalService({ firstCustomer: { clientSecret: acmeSecret } });
    workDir = path.join(programsDir, ".work", `fleet-policy-${randomBytes(4).toString("hex")}`);
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    const project = await readProject(workDir);
    const accounts = service.customers[0].subAccountIds;
    for (const [index, stack] of STACKS.entries()) {
      await writeStackFile(project, stack, {
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
      path.join(workDir, "policy-config.json"),
    );
  });

  after(async () => {
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
    await service?.stop();
  });

  it("fleet preview: one stack of three blocked, its violation in every report", async () => {
    const env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: acmeSecret,
      ACME_SEGMENT_API_KEY: apiKey,
    };
    const out = (name: string) => path.join(workDir, name);
    const started = Date.now();
    const run = await runCli(
      [
        "fleet",
        "preview",
        "--dir",
        workDir,
        "--policy-pack",
        policyPackDir,
        "--policy-pack-config",
        out("policy-config.json"),
        "--json",
        out("report.json"),
        "--markdown",
        out("report.md"),
        "--junit",
        out("report.xml"),
      ],
      { env },
    );
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

    for (const [text, where] of [
      [run.output, "the fleet's output"],
      [json, "the JSON report"],
      [markdown, "the Markdown report"],
      [junit, "the JUnit report"],
    ] as const) {
      assertNoLeak(text, acmeSecret, where);
      assertNoLeak(text, apiKey, where);
    }
  });
});
