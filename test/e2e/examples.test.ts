// Every program under examples/ runs `up` and `destroy` under
// the real engine against the local service, as its README says to run it. The programs
// are copied from examples/ (StackOptions.programDir) so that the engine's stack files do
// not land in the examples.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue, repoRoot } from "./harness";
import { type E2EService, e2eSuite, FACEBOOK, fieldValue, S3, SEGMENT, serviceSettings } from "./fixtures";

const examplesDir = path.join(repoRoot, "examples");
const execFileAsync = promisify(execFile);
/** The demo credentials harness/quickstart.ts sets with --secret. */
const QUICKSTART_DEMO_SECRETS = ["demo-s3-secret-access-key", "demo-facebook-client-secret", "demo-secret"];

/**
 * A copy of what `npm start` reads of the checkout's root, in a temporary directory: its built
 * tree (hard links), the root project and the quickstart program, the engine's script; the
 * dependencies (linked) resolve the package to this checkout, as in the root.
 */
async function quickstartRoot(): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "npm-start-"));
  await execFileAsync("cp", ["-al", path.join(repoRoot, "dist"), path.join(root, "dist")]);
  for (const name of ["node_modules", "tools"]) await fs.symlink(path.join(repoRoot, name), path.join(root, name));
  for (const file of ["Pulumi.yaml", "package.json", path.join("scripts", "ensure-pulumi.sh")])
    await fs.cp(path.join(repoRoot, file), path.join(root, file));
  await fs.cp(path.join(examplesDir, "quickstart"), path.join(root, "examples", "quickstart"), { recursive: true });
  return root;
}

/** A user's environment: none of the suite's PULUMI_* settings. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PULUMI_")));
}

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

const DIGEST_KEY_WARNING = "warning: embedded:digestKey is not set";

/**
 * A warning of one engine run, once: the engine shows a stack's warning as it happens and lists it
 * again under Diagnostics, so once is one line of each.
 */
function assertWarnsOnce(printed: string, warning: string): void {
  const at = printed.indexOf("Diagnostics:");
  assert.ok(at >= 0, `the run lists its diagnostics:\n${printed}`);
  const count = (text: string) => text.split(warning).length - 1;
  assert.equal(count(printed.slice(at)), 1, `listed once under Diagnostics:\n${printed}`);
  assert.equal(count(printed.slice(0, at)), 1, `shown once as it happened:\n${printed}`);
}

describe("e2e: examples/", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const stacks: E2EStack[] = [];
  const e2e = e2eSuite({
    tearDown: async () => {
      for (const stack of stacks) await stack.dispose();
    },
  });

  // The README's first command: `npm start` (after its build, which the suite has done) deploys
  // the quickstart, prints what it made and runs the drift check; `npm start -- --down` destroys it.
  // In a copy of the checkout's root (its state and stack file stay there), as a user sees it: no
  // `error:` line in a successful run (it probes the config keys it sets once), no demo secret.
  it("npm start, then npm start -- --down: the quickstart deployed and checked, then destroyed, with no error line", async () => {
    const root = await quickstartRoot();
    try {
      const run = (args: string[]) =>
        execFileAsync(process.execPath, [path.join(root, "dist", "harness", "quickstart.js"), ...args], {
          cwd: root,
          env: userEnv(),
          maxBuffer: 64 * 1024 * 1024,
        }).then(({ stdout, stderr }) => `${stdout}\n${stderr}`);
      const started = await run([]);
      assert.match(started, /Source\s+Amazon S3 \(\w+\) configured=true/, started);
      assert.match(started, /Destination\s+Facebook Custom Audiences \(\w+\) configured=true/, started);
      assert.match(started, /no drift: the sub-account matches the stack/, started);
      const down = await run(["--down"]);
      assert.match(down, /stack dev destroyed and removed/, down);
      for (const printed of [started, down]) {
        const errors = printed.split("\n").filter((line) => /\berror:/i.test(line));
        assert.deepEqual(errors, [], `a successful run prints no error line:\n${printed}`);
        for (const value of QUICKSTART_DEMO_SECRETS) assertNoSecret(printed, value, "npm start's output");
      }
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
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
    // No embedded:digestKey here: its warning once for the run's four ConnectorConfigurations.
    assertWarnsOnce(result.stdout, DIGEST_KEY_WARNING);
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
