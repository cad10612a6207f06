// A customer typed
// their own API key into the service's UI; the platform team's stack manages the other fields
// and leaves the key to the service (`heldByService`). The program and the commands are the
// ones docs/configuration-ownership.md shows ("Passwords the service holds"), run as written.
// On the local service, whose Configure replaces the whole configuration (the contract's):
// a create is refused at preview and nothing is sent; the import and a no-change preview work;
// the customer's new key shows as drift once, and nothing is restored; a field changed out of
// band cannot be restored without the key, and the preview says so; the key is never printed.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, repoRoot } from "./harness";
import { apiKeyFields, e2eSuite, fieldValue, SEGMENT, serviceSettings } from "./fixtures";

const DOC = path.join(repoRoot, "docs", "configuration-ownership.md");

/** The doc section's YAML program and its shell commands, as written. */
async function docSection(): Promise<{ program: string; commands: string[] }> {
  const text = await fs.readFile(DOC, "utf8");
  const start = text.indexOf("\n## Passwords the service holds\n");
  assert.ok(start >= 0, "the doc has the section");
  const body = text.slice(start).split(/\n## /)[1];
  const program = /```yaml\n([\s\S]*?)```/.exec(body)?.[1];
  const commands = /```sh\n([\s\S]*?)```/.exec(body)?.[1].trim().split("\n");
  assert.ok(program && commands, "the section shows a YAML program and its commands");
  return { program, commands };
}

describe("e2e: Passwords the service holds are never sent, so never cleared (plugin, YAML)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const customerKey = `canary-customer-${randomBytes(6).toString("hex")}`;
  let programDir: string;
  let commands: string[] = [];
  let lastUpdated = 0;

  const e2e = e2eSuite({
    stack: async (svc) => {
      programDir = await fs.mkdtemp(path.join(os.tmpdir(), "customer-held-key-"));
      const doc = await docSection();
      commands = doc.commands;
      await fs.writeFile(path.join(programDir, "Pulumi.yaml"), doc.program);
      return E2EStack.create({
        program: "customer-held-key",
        programDir,
        name: "held",
        service: serviceSettings(svc),
      });
    },
    setUp: async ({ svc }) => {
      // The customer added Segment and saved its configuration, their own key included.
      await svc.outOfBand.add(svc.accountId, [SEGMENT]);
      await svc.outOfBand.configure(svc.accountId, SEGMENT, apiKeyFields({ apiKey: customerKey }));
      lastUpdated = (await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT)).lastUpdated;
    },
  });
  after(async () => fs.rm(programDir, { recursive: true, force: true }));

  /** A doc command as written, the placeholders filled, run in the stack's directory. */
  const runDoc = (line: string) => {
    const args = line.replace("<accountId>", e2e.svc.accountId).replace("<connectorId>", SEGMENT).split(/\s+/).slice(1); // "pulumi"
    return e2e.stack.cli(args);
  };

  it("an up that would create it is refused at preview, naming the held field; nothing is sent", async () => {
    const text = await e2e.stack.expectFailure((s) => s.up());
    assert.match(text, /creating the configuration of connector \w+ of sub-account \S+ would clear the Password/);
    assert.match(text, /heldByService: apiKey/);
    assert.equal((await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT)).lastUpdated, lastUpdated);
    assertNoSecret(text, customerKey, "the refused up's output");
  });

  it("the doc's import and preview: adopted with no change, nothing written", async () => {
    assert.equal(commands.length, 2, commands.join("\n"));
    await runDoc(commands[0]);
    await runDoc(commands[1]);
    await e2e.stack.up({ expectNoChanges: true });
    assert.equal((await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT)).lastUpdated, lastUpdated);
  });

  it("the customer's new key shows as drift once and is not restored; a field changed by hand is not restored either", async () => {
    const rotated = `canary-rotated-${randomBytes(6).toString("hex")}`;
    await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, apiKeyFields({ apiKey: rotated }));
    const rotatedAt = (await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT)).lastUpdated;
    await e2e.stack.cli(["refresh", "--yes"]);
    const outputs = (await e2e.stack.resources()).find((r) => r.type.endsWith("ConnectorConfiguration"))?.outputs;
    assert.match(String(outputs?.drift), /^changed out of band at /, JSON.stringify(outputs?.drift));
    await e2e.stack.up({ expectNoChanges: true }); // their key: nothing to restore
    // A field of the stack's changed by hand: restoring it would clear the key, so the preview refuses.
    await e2e.svc.outOfBand.configure(
      e2e.svc.accountId,
      SEGMENT,
      apiKeyFields({ apiKey: rotated, workspace: "changed-by-hand" }),
    );
    const handAt = (await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT)).lastUpdated;
    assert.ok(handAt > rotatedAt);
    const text = await e2e.stack.expectFailure((s) => s.cli(["preview", "--refresh", "--diff"]));
    assert.match(text, /writing the configuration of connector \w+ of sub-account \S+ would clear the Password/);
    assert.match(text, /heldByService: apiKey/);
    const live = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(live.lastUpdated, handAt, "nothing was written");
    assert.equal(fieldValue(live, "workspace"), "changed-by-hand");
    for (const canary of [customerKey, rotated]) {
      assertNoSecret(text, canary, "the refused preview's output");
      assertNoSecret(e2e.stack.engineOutput(), canary, "the engine's output");
      assertNoSecret(await e2e.stack.exportText(), canary, "pulumi stack export");
    }
  });
});
