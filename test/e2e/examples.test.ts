// Every program under examples/ runs `up` and `destroy` under
// the real engine against the local service, as its README says to run it. The programs
// are copied from examples/ (StackOptions.programDir) so that the engine's stack files do
// not land in the examples.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue, repoRoot } from "./harness";
import { type E2EService, e2eSuite, FACEBOOK, fieldValue, S3, SEGMENT, serviceSettings } from "./fixtures";

const examplesDir = path.join(repoRoot, "examples");

function exampleStack(
  svc: E2EService,
  example: string,
  secretConfig: Record<string, ProgramConfigValue>,
): Promise<E2EStack> {
  return E2EStack.create({
    program: example,
    programDir: path.join(examplesDir, example),
    name: example,
    service: serviceSettings(svc),
    secretConfig,
  });
}

describe("e2e: examples/", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const stacks: E2EStack[] = [];
  const e2e = e2eSuite({
    tearDown: async () => {
      for (const stack of stacks) await stack.dispose();
    },
  });

  it("quickstart: adds and configures a source and a destination, then destroys them", async () => {
    const secrets = {
      s3SecretAccessKey: "quickstart-e2e-s3-key-1f2e",
      facebookClientSecret: "quickstart-e2e-fb-secret-9c8d",
    };
    const stack = await exampleStack(e2e.svc, "quickstart", secrets);
    stacks.push(stack);
    await stack.up();
    const outputs = (await stack.outputValues()) as {
      accountId: string;
      connectors: { connectorId: string; name: string }[];
      configurations: { connectorId: string; configured: boolean }[];
    };
    assert.equal(outputs.accountId, e2e.svc.accountId);
    assert.deepEqual(
      outputs.connectors.map((c) => c.name),
      ["Amazon S3", "Facebook Custom Audiences"],
    );
    assert.deepEqual(
      outputs.configurations.map((c) => c.configured),
      [true, true],
    );
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3, FACEBOOK].sort());
    await stack.preview({ refresh: true, expectNoChanges: true });
    for (const value of Object.values(secrets)) assertNoSecret(stack.engineOutput(), value, "the engine output");
    await stack.destroy();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
  });

  it("sub-account-baseline: applies the baseline to every file of accounts/, then destroys it", async () => {
    const accounts: Record<string, string> = {};
    for (const file of await fs.readdir(path.join(examplesDir, "sub-account-baseline", "accounts"))) {
      const text = await fs.readFile(path.join(examplesDir, "sub-account-baseline", "accounts", file), "utf8");
      accounts[path.basename(file, ".json")] = (JSON.parse(text) as { accountId: string }).accountId;
    }
    assert.deepEqual(
      Object.values(accounts).sort(),
      [e2e.svc.accountId, e2e.svc.otherAccountId].sort(),
      "the files name the seeded sub-accounts",
    );
    const secrets: Record<string, string> = {};
    for (const key of Object.keys(accounts)) {
      secrets[`${key}-s3-secretAccessKey`] = `baseline-e2e-${key}-s3`;
      secrets[`${key}-facebook-clientSecret`] = `baseline-e2e-${key}-fb`;
    }
    const stack = await exampleStack(e2e.svc, "sub-account-baseline", secrets);
    stacks.push(stack);
    const result = await stack.up();
    // Per sub-account: the component, two AddedConnectors, two ConnectorConfigurations.
    assert.equal(result.summary.resourceChanges?.create, 1 + 5 * Object.keys(accounts).length);
    for (const accountId of Object.values(accounts)) {
      const added = await e2e.svc.outOfBand.listAdded(accountId);
      assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
      assert.ok(
        added.every((c) => c.configured),
        `every connector of ${accountId} is configured`,
      );
    }
    // A sub-account's file overrides the baseline's value.
    assert.equal(fieldValue(await e2e.svc.outOfBand.getConfiguration(accounts.globex, S3), "region"), "us-east-1");
    assert.equal(fieldValue(await e2e.svc.outOfBand.getConfiguration(accounts.acme, S3), "region"), "eu-west-1");
    await stack.destroy();
    for (const accountId of Object.values(accounts)) assert.deepEqual(await e2e.svc.outOfBand.addedIds(accountId), []);
  });

  // The workflow's drift job runs exactly this preview; `up --refresh` (the workflow's apply,
  // the operator's resync) repairs the drift. Kept to four engine runs for the suite's time.
  it("gitops: the drift check passes after up and fails after an out-of-band write; up repairs it", async () => {
    const stack = await exampleStack(e2e.svc, "gitops", {
      segmentApiKey: "gitops-e2e-segment-key",
      s3SecretAccessKey: "gitops-e2e-s3-key",
    });
    stacks.push(stack);
    await stack.up();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3, SEGMENT].sort());
    await stack.preview({ refresh: true, expectNoChanges: true });
    await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, {
      apiKey: "changed-in-the-console",
      workspace: "someone-else",
      dataCenter: "US",
      batchSize: 1,
    });
    const text = await stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true }));
    assert.match(text, /no changes were expected/i);
    await stack.up({ refresh: true });
    assert.equal(fieldValue(await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT), "workspace"), "acme");
    await stack.destroy();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
  });

  it("gitops: the workflow and the operator manifest run the drift check and state their needs", async () => {
    const workflow = await fs.readFile(path.join(examplesDir, "gitops", "workflow.yml"), "utf8");
    assert.match(workflow, /^\s+pull_request:/m);
    assert.match(workflow, /branches: \[main\]/);
    assert.match(workflow, /schedule:/);
    assert.match(workflow, /pulumi preview [^\n]*--refresh --expect-no-changes/);
    assert.match(workflow, /pulumi up [^\n]*--yes/);
    assert.match(workflow, /What it needs/);
    const manifest = await fs.readFile(path.join(examplesDir, "gitops", "operator-stack.yaml"), "utf8");
    assert.match(manifest, /^kind: Stack$/m);
    assert.match(manifest, /resyncFrequencySeconds: \d+/);
    assert.match(manifest, /repoDir: examples\/gitops/);
    assert.match(manifest, /What it needs/);
  });
});
