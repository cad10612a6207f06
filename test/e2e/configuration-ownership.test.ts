// A Pulumi YAML stack that declares only a
// ConnectorConfiguration with the literal connector of another writer's saved configuration is
// refused (the message names the connector, the sub-account and `adoptExisting`), the service
// keeps the other writer's values, and `adoptExisting: true` takes it over. The program is the
// one docs/configuration-ownership.md shows, run as written.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, repoRoot } from "./harness";
import { apiKeyFields, e2eSuite, fieldValue, SEGMENT, serviceSettings } from "./fixtures";
import { AddJournal } from "../../provider/runtime/pending-writes";
import { configurationKey } from "../../provider/connector-configuration/ownership";

const DOC = path.join(repoRoot, "docs", "configuration-ownership.md");

/** The doc's one YAML program (its first ```yaml block). */
async function docProgram(): Promise<string> {
  const text = await fs.readFile(DOC, "utf8");
  const found = /```yaml\n([\s\S]*?)```/.exec(text);
  assert.ok(found, `${DOC} shows a YAML program`);
  return found[1];
}

describe("e2e: a ConnectorConfiguration never overwrites a configuration this stack did not write", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const othersPassword = `canary-others-${randomBytes(6).toString("hex")}`;
  const ourPassword = `canary-ours-${randomBytes(6).toString("hex")}`;
  let programDir: string;
  let journalDir: string;
  let othersLastUpdated = 0;
  const sameNamed: E2EStack[] = [];
  const scratch: string[] = [];

  const e2e = e2eSuite({
    stack: async (svc) => {
      programDir = await fs.mkdtemp(path.join(os.tmpdir(), "configuration-takeover-"));
      journalDir = await fs.mkdtemp(path.join(os.tmpdir(), "configuration-takeover-records-"));
      await fs.writeFile(path.join(programDir, "Pulumi.yaml"), await docProgram());
      return E2EStack.create({
        program: "configuration-takeover",
        programDir,
        name: "takeover",
        service: serviceSettings(svc),
        secretConfig: { segmentApiKey: ourPassword },
        env: { EMBEDDED_ADD_JOURNAL_DIR: journalDir },
      });
    },
    tearDown: async () => {
      for (const stack of sameNamed) await stack.dispose();
    },
    setUp: async ({ svc }) => {
      // Another writer (stack A, a console) added Segment and saved its own configuration.
      await svc.outOfBand.add(svc.accountId, [SEGMENT]);
      await svc.outOfBand.configure(svc.accountId, SEGMENT, apiKeyFields({ apiKey: othersPassword, workspace: "a" }));
      othersLastUpdated = (await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT)).lastUpdated;
    },
  });
  after(async () => {
    for (const dir of [programDir, journalDir, ...scratch]) await fs.rm(dir, { recursive: true, force: true });
  });

  it("the first up is refused, naming connector, sub-account and adoptExisting; the other writer's values stay", async () => {
    const text = await e2e.stack.expectFailure((s) => s.up());
    assert.ok(
      text.includes(`connector ${SEGMENT} of sub-account ${e2e.svc.accountId} already has a saved configuration`),
      text.slice(-3000),
    );
    assert.match(text, /that this stack did not write/);
    assert.match(text, /set `adoptExisting: true` on this ConnectorConfiguration/);
    assert.ok(
      text.includes(`pulumi import embedded:index:ConnectorConfiguration <name> ${e2e.svc.accountId}/${SEGMENT}`),
    );
    const live = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(live.lastUpdated, othersLastUpdated, "nothing was written");
    assert.equal(fieldValue(live, "workspace"), "a");
    assert.deepEqual(
      (await e2e.stack.resources()).filter((r) => r.type.endsWith("ConnectorConfiguration")),
      [],
      "no resource in the state",
    );
    for (const canary of [othersPassword, ourPassword]) assertNoSecret(text, canary, "the refused up's output");
  });

  it("adoptExisting: true takes it over; setting it back to false is no change", async () => {
    await e2e.stack.setConfig({ adoptExisting: true });
    const up = await e2e.stack.up();
    assert.equal(up.summary.resourceChanges?.create, 1, JSON.stringify(up.summary.resourceChanges));
    const live = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(fieldValue(live, "workspace"), "acme");
    assert.ok(live.lastUpdated >= othersLastUpdated);
    await e2e.stack.setConfig({ adoptExisting: false });
    // A no-change `up` (Check and Diff only) settles the create's pending-Configure record.
    await e2e.stack.up({ expectNoChanges: true });
    assert.deepEqual(await fs.readdir(journalDir), [], "no record outlives a no-change up");
    for (const canary of [othersPassword, ourPassword]) {
      assertNoSecret(e2e.stack.engineOutput(), canary, "the engine's output");
      assertNoSecret(await e2e.stack.exportText(), canary, "pulumi stack export");
    }
  });

  it("a stack of the same name in a second file backend does not take over a killed run's configuration", async () => {
    const live = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    // This stack's run was killed writing the configuration: its pending-Configure record stays.
    new AddJournal(journalDir, await e2e.stack.recordIdentity("configuration-takeover")).begin(
      e2e.svc.baseUrl,
      e2e.svc.accountId,
      configurationKey(SEGMENT),
    );
    const [record] = await fs.readdir(journalDir);
    // The same project directory and stack name (same Pulumi.<stack>.yaml), another file backend.
    const backend = await fs.mkdtemp(path.join(os.tmpdir(), "second-backend-"));
    const other = await E2EStack.create({
      program: "configuration-takeover",
      programDir: e2e.stack.workDir,
      name: "takeover",
      stackName: e2e.stack.name,
      service: serviceSettings(e2e.svc),
      secretConfig: { segmentApiKey: ourPassword },
      env: { EMBEDDED_ADD_JOURNAL_DIR: journalDir, PULUMI_BACKEND_URL: `file://${backend}` },
    });
    sameNamed.push(other);
    scratch.push(backend);
    const text = await other.expectFailure((s) => s.up());
    assert.ok(text.includes(`connector ${SEGMENT} of sub-account ${e2e.svc.accountId} already has a saved`), text);
    const now = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(now.lastUpdated, live.lastUpdated, "nothing was written");
    assert.deepEqual(await fs.readdir(journalDir), [record], "the record stays the killed run's");
    assertNoSecret(text, ourPassword, "the refused up's output");
  });
});
