// The life of examples/<language>-sub-account under the real engine, for the programs written
// with a generated SDK (Python, Go): the program of examples/yaml-sub-account in that language,
// with the plugin `embedded` installed into the hermetic PULUMI_HOME as a user does. One stack
// per CLI (the suite's, and NEWEST_CLI with the same language hosts): up (the service holds
// exactly the program's connectors and configurations, the explicit provider's in the second
// customer's sub-account), the drift check clean, an out-of-band Configure caught and repaired,
// the delete guard's refusal printed once per connector, destroy.
// Canaries (sdk-example-canaries.ts) never appear, in any case or encoding, in `pulumi stack
// export`, the backend's files, anything the engine printed or the service's log: the client
// secrets, every Password (from `pulumi config set --secret`), a value of every other field type
// that the test writes into its copy of the program (canaryEdits), a Text the program makes
// secret, another resource's secret output, and a lookup's secret argument. Under the suite's
// CLI the runs print all they can: `up --diff --debug`, `preview --diff`, an
// update with `--json`, and failing runs with `--debug`.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  E2EStack,
  ENGINE_TIMEOUT_MS,
  ensureEngine,
  NEWEST_CLI,
  repoRoot,
  resourceName,
  type StateResource,
} from "./harness";
import { assertNoLeak, replayCanariesOnFailure } from "./canaries";
import { exampleCanaries, SECRET_LOOKUP_ENV, type FieldCanaries } from "./sdk-example-canaries";
import { FACEBOOK, fieldValue, OutOfBandClient, S3, SEGMENT, startService, type E2EService } from "./fixtures";
import { diagnostics, engineFailure, occurrences, STACK_FRAME } from "./plugin-fixtures";
import { assertInUseRefusals } from "./in-use-refusals";
import type { SeededCustomer } from "../../harness/local-service";

export interface SdkExample {
  /** The language, as test titles name it. */
  language: string;
  /** The directory name under examples/. */
  example: string;
  /** The program file (relative to the example) holding the values that canaryEdits replace. */
  programFile: string;
  /** Edits of the program's copy: [text as written in the program (exactly once), its replacement]. */
  canaryEdits(canaries: FieldCanaries): [string, string][];
  /** What the README must say to install the SDK (a pattern). */
  installStep: RegExp;
  /** Prepares the language's toolchain for a CLI (the suite's: undefined); returns the environment of every engine run. */
  prepare(engineEnv: Record<string, string>, cliVersion: string | undefined): Promise<Record<string, string>>;
  /** Adapts the program's copy (in test/e2e/programs/.work/) to its place, before the first run. */
  adapt?(workDir: string, env: Record<string, string>): Promise<void>;
}

/** Every resource of the stack's state, providers included (secrets decrypted). */
async function allResources(stack: E2EStack): Promise<(StateResource & { provider?: string })[]> {
  const deployment = await stack.stack.exportStack();
  return (deployment.deployment as { resources?: (StateResource & { provider?: string })[] }).resources ?? [];
}

/** The keys of Pulumi.yaml's `config:` section, each with whether it is a secret. */
function declaredConfig(pulumiYaml: string): Map<string, boolean> {
  const keys = new Map<string, boolean>();
  const section = pulumiYaml.split(/^config:\n/m)[1] ?? "";
  let current: string | undefined;
  for (const line of section.split("\n")) {
    if (/^\S/.test(line)) break;
    const key = /^ {2}(\w+):\s*$/.exec(line);
    if (key) keys.set((current = key[1]), false);
    else if (current && /^ {4}secret:\s*true\s*$/.test(line)) keys.set(current, true);
  }
  return keys;
}

/**
 * `pulumi up --refresh --json`: its changes by kind,
 * from the last `changeSummary` it printed (the refresh's and the update's documents follow one
 * another).
 */
async function updatedByJson(stack: E2EStack): Promise<Record<string, number> | undefined> {
  const { stdout } = await stack.cli(["up", "--refresh", "--yes", "--json"]);
  const summaries = [...stdout.matchAll(/"changeSummary":\s*(\{[^}]*\})/g)];
  assert.ok(summaries.length > 0, `up --json printed a changeSummary (${stdout.length} characters)`);
  return JSON.parse(summaries[summaries.length - 1][1]) as Record<string, number>;
}

/** The example's tests under the suite's CLI, then under NEWEST_CLI. */
export function describeSdkExample(example: SdkExample): void {
  for (const cliVersion of [undefined, NEWEST_CLI]) describeUnderCli(example, cliVersion);
}

function describeUnderCli(example: SdkExample, cliVersion: string | undefined): void {
  const exampleDir = path.join(repoRoot, "examples", example.example);
  const cli = cliVersion ? `CLI ${cliVersion}` : "the suite's CLI";

  describe(`e2e: examples/${example.example} (${example.language}, the generated SDK, the plugin embedded, ${cli})`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    replayCanariesOnFailure();
    const label = (what: string) => `${example.example}-${cliVersion ?? "suite"}-${what}`;
    const made = exampleCanaries(label);
    const { clientSecret, s3Password, facebookPassword, segmentPassword, partnerClientSecret, fields } = made;
    const canaries = made.all;
    // Every mode that prints more, under the suite's CLI only (the other CLI runs the same program).
    const loud = !cliVersion;
    let svc: E2EService;
    let partner: SeededCustomer;
    let partnerOutOfBand: OutOfBandClient;
    let stack: E2EStack;
    let connectionId: string | undefined;
    let keysSet = new Set<string>();

    before(async function () {
      this.timeout(30 * 60_000);
      const engine = await ensureEngine(cliVersion);
      const env = await example.prepare(engine.env, cliVersion);
      svc = await startService({ firstCustomer: { clientSecret } });
      partner = svc.service.customers[1];
      assert.equal(partner.clientSecret, partnerClientSecret, "the second customer's seeded secret");
      partnerOutOfBand = new OutOfBandClient(svc.baseUrl, partner.clientId, partner.clientSecret);
      const config = {
        partnerBaseUrl: svc.baseUrl,
        partnerClientId: partner.clientId,
        partnerAccountId: partner.subAccountIds[0],
      };
      const secretConfig = {
        s3SecretAccessKey: s3Password,
        facebookClientSecret: facebookPassword,
        partnerClientSecret,
        partnerSegmentApiKey: segmentPassword,
      };
      keysSet = new Set([...Object.keys(config), ...Object.keys(secretConfig)]);
      stack = await E2EStack.create({
        program: example.example,
        programDir: exampleDir,
        name: example.example,
        service: { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret, accountId: svc.accountId },
        config,
        secretConfig,
        env: { ...env, [SECRET_LOOKUP_ENV]: made.secretLookupName },
        cliVersion,
      });
      // The other canaries are values written in the program, as the program's own values are.
      const file = path.join(stack.workDir, example.programFile);
      let program = await fs.readFile(file, "utf8");
      for (const [written, replacement] of example.canaryEdits(fields)) {
        assert.equal(occurrences(program, written), 1, `${example.programFile} has ${written} once`);
        program = program.replace(written, replacement);
      }
      await fs.writeFile(file, program);
      await example.adapt?.(stack.workDir, env);
    });

    after(async function () {
      if (connectionId) await svc.service.deleteConnection(connectionId).catch(() => undefined);
      await stack?.dispose();
      await svc?.service.stop();
    });

    // The README does not depend on the CLI: checked once.
    if (!cliVersion)
      it("the README gives every command and sets every config key the program requires", async () => {
        const readme = await fs.readFile(path.join(exampleDir, "README.md"), "utf8");
        const declared = declaredConfig(await fs.readFile(path.join(exampleDir, "Pulumi.yaml"), "utf8"));
        assert.match(readme, example.installStep, "the README installs the SDK");
        assert.match(readme, /plugin install/);
        for (const key of ["baseUrl", "clientId", "accountId"])
          assert.match(readme, new RegExp(`pulumi config set embedded:${key} `));
        assert.match(readme, /pulumi config set --secret embedded:clientSecret /);
        assert.match(readme, /^pulumi up$/m);
        assert.match(readme, /^pulumi preview --refresh --expect-no-changes/m);
        assert.ok(declared.size >= 6, `config keys in Pulumi.yaml: ${[...declared.keys()].join(", ")}`);
        for (const [key, secret] of declared) {
          const command = secret ? `pulumi config set --secret ${key}` : `pulumi config set ${key} `;
          assert.ok(readme.includes(command), `the README sets ${key}: \`${command}\``);
          assert.ok(keysSet.has(key), `the test sets ${key}`);
        }
      });

    it("up adds and configures exactly the program's connectors, each in its customer's sub-account", async () => {
      await stack.up({ debug: loud, diff: loud });
      const outputs = await stack.outputValues();
      assert.deepEqual(
        [
          outputs.accountId,
          outputs.sourceConnectorId,
          outputs.sourceName,
          outputs.destinationConnectorId,
          outputs.destinationName,
        ],
        [svc.accountId, S3, "Amazon S3", FACEBOOK, "Facebook Custom Audiences"],
      );
      assert.deepEqual(
        [outputs.sourceConfigured, outputs.destinationConfigured, outputs.partnerConfigured],
        [true, true, true],
      );
      assert.deepEqual([outputs.partnerAccountId, outputs.partnerConnectorName], [partner.subAccountIds[0], "Segment"]);

      const added = await svc.outOfBand.listAdded(svc.accountId);
      assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
      const s3 = await svc.outOfBand.getConfiguration(svc.accountId, S3);
      assert.equal(fieldValue(s3, "bucket"), "acme-exports");
      // The service holds the canaries (so they were really used). Compared without
      // assert.equal, which would print a canary on failure.
      const segment = await partnerOutOfBand.getConfiguration(partner.subAccountIds[0], SEGMENT);
      const stored: [string, unknown, string][] = [
        ["S3 accessKeyId (Text)", fieldValue(s3, "accessKeyId"), fields.text],
        ["S3 region (Select)", fieldValue(s3, "region"), fields.select],
        ["S3 fileFormats (Multi-Select)", fieldValue(s3, "fileFormats"), fields.multiSelect.join(",")],
        ["S3 maxFileSizeMb (Number)", fieldValue(s3, "maxFileSizeMb"), fields.number],
        ["S3 startDate (Date)", fieldValue(s3, "startDate"), fields.date],
        ["Segment batchSize (Number)", fieldValue(segment, "batchSize"), fields.partnerNumber],
        ["Segment eventTypes (Multi-Select)", fieldValue(segment, "eventTypes"), fields.partnerMultiSelect.join(",")],
        ["Segment workspace (Text, made secret)", fieldValue(segment, "workspace"), fields.partnerSecretText],
        ["Segment backfillFrom (Date, a secret output)", fieldValue(segment, "backfillFrom"), fields.partnerHeldDate],
      ];
      for (const [field, got, wanted] of stored) assert.ok(got === wanted, `the service holds the canary of ${field}`);
      const facebook = await svc.outOfBand.getConfiguration(svc.accountId, FACEBOOK);
      assert.equal(fieldValue(facebook, "permissions"), "read,audiences");
      for (const other of svc.service.customers[0].subAccountIds.slice(1)) {
        assert.deepEqual(
          await svc.outOfBand.addedIds(other),
          [],
          `sub-account ${other} of the first customer is untouched`,
        );
      }
      // The explicit provider: Segment in the second customer's sub-account, and only there.
      const partnerAdded = await partnerOutOfBand.listAdded(partner.subAccountIds[0]);
      assert.deepEqual(
        partnerAdded.map((c) => [c.connectorId, c.configured]),
        [[SEGMENT, true]],
      );

      const resources = await allResources(stack);
      const explicit = resources.find((r) => r.type === "pulumi:providers:embedded" && resourceName(r) === "partner");
      assert.ok(explicit, `the explicit provider is in the state: ${resources.map(resourceName).join(", ")}`);
      for (const [name, explicitProvider] of [
        ["s3SourceConfiguration", false],
        ["partnerSegmentSource", true],
        ["partnerSegmentSourceConfiguration", true],
      ] as const) {
        const provider = resources.find((r) => resourceName(r) === name)?.provider ?? "";
        if (explicitProvider)
          assert.ok(provider.startsWith(`${explicit.urn}::`), `${name} uses the explicit provider: ${provider}`);
        else assert.match(provider, /::pulumi:providers:embedded::default/, `${name} uses the default provider`);
      }
    });

    it("no canary in `pulumi stack export`, the backend's files or the stack's config file; secrets kept as ciphertext", async () => {
      const exported = await stack.exportText();
      const backend = await stack.backendText();
      const stackConfig = await stack.stackConfigText();
      assert.match(exported, /s3SourceConfiguration/, "the export holds the configurations");
      for (const [what, value] of canaries) {
        assertNoLeak(exported, value, `pulumi stack export (${what})`);
        assertNoLeak(backend, value, `the backend's files (${what})`);
        assertNoLeak(stackConfig, value, `Pulumi.<stack>.yaml (${what})`);
      }
      const deployment = JSON.parse(exported) as {
        deployment: { resources: { urn: string; type: string; inputs?: Record<string, unknown> }[] };
      };
      const explicit = deployment.deployment.resources.find(
        (r) => r.type === "pulumi:providers:embedded" && r.urn.endsWith("::partner"),
      );
      assert.match(
        JSON.stringify(explicit?.inputs?.clientSecret),
        /ciphertext/,
        "the explicit provider's clientSecret",
      );
      for (const name of [
        "s3SourceConfiguration",
        "facebookDestinationConfiguration",
        "partnerSegmentSourceConfiguration",
      ]) {
        const r = deployment.deployment.resources.find((x) => x.urn.endsWith(`::${name}`));
        assert.match(JSON.stringify(r?.inputs?.secretConfig), /ciphertext/, `${name}'s secretConfig`);
      }
    });

    it(`the drift check passes after up${loud ? " (--diff)" : ""}`, async () => {
      await stack.preview({ refresh: true, expectNoChanges: true, diff: loud });
    });

    // The engine hands a function's arguments to the plugin without their
    // secretness, and this SDK cannot name them (docs/secrets.md).
    if (loud)
      it("a lookup given a secret name fails, naming the argument and never its value (--diff --debug)", async () => {
        await stack.setConfig({ e2eSecretLookup: true });
        try {
          const printed = await stack.expectFailure((s) => s.preview({ diff: true, debug: true }));
          assert.match(printed, /no connector named \(the secret argument name\)/);
        } finally {
          await stack.removeConfig("e2eSecretLookup");
        }
      });

    it("an out-of-band Configure fails the drift check; up --refresh puts the program's values back", async () => {
      await svc.outOfBand.configure(svc.accountId, S3, {
        bucket: "changed-by-hand",
        accessKeyId: "AKIAOUTOFBAND",
        region: "us-east-1",
        secretAccessKey: "typed-in-a-console",
      });
      const text = await stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true, debug: loud }));
      assert.match(text, /no changes were expected/i);
      assert.match(text, /~\s+embedded:index:ConnectorConfiguration s3SourceConfiguration update/);
      assert.doesNotMatch(text, /~\s+embedded:index:ConnectorConfiguration facebookDestinationConfiguration update/);
      const updated = loud ? await updatedByJson(stack) : (await stack.up({ refresh: true })).summary.resourceChanges;
      assert.equal(updated?.update, 1, JSON.stringify(updated));
      assert.equal(fieldValue(await svc.outOfBand.getConfiguration(svc.accountId, S3), "bucket"), "acme-exports");
      await stack.preview({ refresh: true, expectNoChanges: true });
    });

    it("destroy refuses while a connection uses the connectors, once per connector, without a stack trace", async () => {
      connectionId = await svc.service.createConnection(svc.accountId, S3, FACEBOOK);
      const failure = await engineFailure(() => stack.destroy({ debug: loud }));
      const blocks = [...diagnostics(failure.printed).values()].join("\n");
      assertInUseRefusals(blocks, svc.accountId, [
        [S3, "Amazon S3"],
        [FACEBOOK, "Facebook Custom Audiences"],
      ]);
      assert.doesNotMatch(blocks, STACK_FRAME, `no stack trace:\n${blocks}`);
      const added = await svc.outOfBand.listAdded(svc.accountId);
      assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort(), "nothing used was removed");
    });

    it("once the connection is deleted, destroy empties both customers' sub-accounts", async () => {
      assert.ok(connectionId, "the connection of the previous test");
      await svc.service.deleteConnection(connectionId);
      connectionId = undefined;
      const result = await stack.destroy();
      assert.equal(result.summary.result, "succeeded");
      assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
      assert.deepEqual(await partnerOutOfBand.addedIds(partner.subAccountIds[0]), []);
      assert.deepEqual(await stack.resources(), []);
    });

    it("no canary in anything the engine printed, the backend's files (every checkpoint) or the service's log", async () => {
      const printed = stack.engineOutput();
      assert.match(printed, /s3SourceConfiguration/, "the engine output was captured");
      const backend = await stack.backendText();
      const log = svc.logs.join("");
      assert.match(log, /\/es\/v2\/connectors/, "the service log was captured");
      for (const [what, value] of canaries) {
        assertNoLeak(printed, value, `the engine's output (${what})`);
        assertNoLeak(backend, value, `the backend's files (${what})`);
        assertNoLeak(log, value, `the service's log (${what})`);
      }
    });
  });
}
