// Issue 31, item 4, under the real engine: a Pulumi YAML stack that declares only a
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
  let othersLastUpdated = 0;

  const e2e = e2eSuite({
    stack: async (svc) => {
      programDir = await fs.mkdtemp(path.join(os.tmpdir(), "configuration-takeover-"));
      await fs.writeFile(path.join(programDir, "Pulumi.yaml"), await docProgram());
      return E2EStack.create({
        program: "configuration-takeover",
        programDir,
        name: "takeover",
        service: serviceSettings(svc),
        secretConfig: { segmentApiKey: ourPassword },
      });
    },
    setUp: async ({ svc }) => {
      // Another writer (stack A, a console) added Segment and saved its own configuration.
      await svc.outOfBand.add(svc.accountId, [SEGMENT]);
      await svc.outOfBand.configure(svc.accountId, SEGMENT, apiKeyFields({ apiKey: othersPassword, workspace: "a" }));
      othersLastUpdated = (await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT)).lastUpdated;
    },
  });
  after(() => fs.rm(programDir, { recursive: true, force: true }));

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
    await e2e.stack.preview({ expectNoChanges: true });
    for (const canary of [othersPassword, ourPassword]) {
      assertNoSecret(e2e.stack.engineOutput(), canary, "the engine's output");
      assertNoSecret(await e2e.stack.exportText(), canary, "pulumi stack export");
    }
  });
});
