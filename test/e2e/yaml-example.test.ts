// examples/yaml-sub-account under the real engine, as its README says to run it: a Pulumi YAML
// program (language host pulumi-language-yaml) using the plugin `embedded`, installed into the
// hermetic PULUMI_HOME by ensureEngine() the way a user does (`pulumi-embedded-connectors plugin
// install`). One stack goes through the life of a sub-account's file: up (the service holds
// exactly the file's connectors and configurations, the explicit provider's in the other
// customer's sub-account), the drift check clean, an out-of-band Configure caught by the drift
// check and repaired, the delete guard's refusal, destroy. Canaries (the first customer's client
// secret, every Password value, a Text value written in the file) never appear in `pulumi stack
// export`, the backend's files, anything the engine printed or the service's log. The second
// customer's client secret is the service's seeded `other-secret` (only the first customer's can
// be chosen): it is scanned for all the same. The README's commands: yaml-example-readme.test.ts;
// a lookup given a secret name: yaml-example-secret-lookup.test.ts, on the same stack
// (yaml-example-stack.ts).
import { strict as assert } from "node:assert";
import { assertInUseRefusals } from "./in-use-refusals";
import { assertNoValue, assertSecretConfigKept, fieldsMarkedChanged, withoutStackOutputs } from "./drift-display";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, resourceName, type StateResource } from "./harness";
import { assertNoLeak } from "./canaries";
import { connectorId, FACEBOOK, fieldValue, S3 } from "./fixtures";
import { yamlCanaries, yamlExample } from "./yaml-example-stack";

const SEGMENT = connectorId("Segment");

/** Every resource of the stack's state, providers included (secrets decrypted). */
async function allResources(stack: E2EStack): Promise<(StateResource & { provider?: string })[]> {
  const deployment = await stack.stack.exportStack();
  return (deployment.deployment as { resources?: (StateResource & { provider?: string })[] }).resources ?? [];
}

/** The engine's summary of a run's errors: from its first "Diagnostics:" to the "Resources:" after it. */
function diagnosticsOf(text: string): string {
  const start = text.indexOf("Diagnostics:");
  assert.ok(start >= 0, `the engine printed its Diagnostics:\n${text.slice(-3000)}`);
  const end = text.indexOf("Resources:", start);
  return text.slice(start, end > start ? end : undefined);
}

describe("e2e: examples/yaml-sub-account (Pulumi YAML, the plugin embedded)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const { textValue } = yamlCanaries;
  const canaries = Object.values(yamlCanaries);
  const e2e = yamlExample.use();

  it("up adds and configures exactly the file's connectors, each in its customer's sub-account", async () => {
    await e2e.stack.up();

    const outputs = await e2e.stack.outputValues();
    assert.deepEqual(
      {
        accountId: outputs.accountId,
        sourceConnectorId: outputs.sourceConnectorId,
        sourceName: outputs.sourceName,
        sourceConnections: outputs.sourceConnections,
        destinationConnectorId: outputs.destinationConnectorId,
        destinationName: outputs.destinationName,
        destinationConnections: outputs.destinationConnections,
        sourceConfigured: outputs.sourceConfigured,
        destinationConfigured: outputs.destinationConfigured,
        partnerAccountId: outputs.partnerAccountId,
        partnerConnectorName: outputs.partnerConnectorName,
        partnerConfigured: outputs.partnerConfigured,
      },
      {
        accountId: e2e.svc.accountId,
        sourceConnectorId: S3,
        sourceName: "Amazon S3",
        sourceConnections: 0,
        destinationConnectorId: FACEBOOK,
        destinationName: "Facebook Custom Audiences",
        destinationConnections: 0,
        sourceConfigured: true,
        destinationConfigured: true,
        partnerAccountId: e2e.partner.subAccountIds[0],
        partnerConnectorName: "Segment",
        partnerConfigured: true,
      },
    );

    // The stack config's sub-account holds exactly the two, configured as the file says.
    const added = await e2e.svc.outOfBand.listAdded(e2e.svc.accountId);
    assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
    assert.ok(
      added.every((c) => c.configured),
      "both connectors are configured",
    );
    const s3 = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3);
    assert.equal(fieldValue(s3, "bucket"), "acme-exports");
    assert.ok(fieldValue(s3, "accessKeyId") === textValue, "the access key id is the file's Text value");
    assert.equal(fieldValue(s3, "region"), "eu-west-1");
    assert.equal(fieldValue(s3, "fileFormats"), "csv,parquet");
    assert.equal(fieldValue(s3, "maxFileSizeMb"), "512");
    const facebook = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, FACEBOOK);
    assert.equal(fieldValue(facebook, "adAccountId"), "act_1001");
    assert.equal(fieldValue(facebook, "apiVersion"), "v20.0");
    assert.equal(fieldValue(facebook, "permissions"), "read,audiences");
    // Nothing elsewhere in the first customer's sub-accounts.
    for (const other of e2e.svc.service.customers[0].subAccountIds.slice(1)) {
      assert.deepEqual(
        await e2e.svc.outOfBand.addedIds(other),
        [],
        `sub-account ${other} of the first customer is untouched`,
      );
    }

    // The explicit provider: Segment in the second customer's sub-account, and only there.
    const partnerAdded = await e2e.partnerOutOfBand.listAdded(e2e.partner.subAccountIds[0]);
    assert.deepEqual(
      partnerAdded.map((c) => [c.connectorId, c.configured]),
      [[SEGMENT, true]],
    );
    const segment = await e2e.partnerOutOfBand.getConfiguration(e2e.partner.subAccountIds[0], SEGMENT);
    assert.equal(fieldValue(segment, "workspace"), "partner");
    assert.equal(fieldValue(segment, "eventTypes"), "track,identify");
    for (const other of e2e.partner.subAccountIds.slice(1)) {
      assert.deepEqual(
        await e2e.partnerOutOfBand.addedIds(other),
        [],
        `sub-account ${other} of the second customer is untouched`,
      );
    }

    // The plugin's resources (not dynamic ones); the partner's under the explicit provider.
    const resources = await allResources(e2e.stack);
    const byName = new Map(resources.map((r) => [resourceName(r), r]));
    const explicit = resources.find((r) => r.type === "pulumi:providers:embedded" && resourceName(r) === "partner");
    assert.ok(explicit, `the explicit provider is in the state: ${[...byName.keys()].join(", ")}`);
    for (const [name, type, explicitProvider] of [
      ["s3Source", "embedded:index:AddedConnector", false],
      ["facebookDestination", "embedded:index:AddedConnector", false],
      ["s3SourceConfiguration", "embedded:index:ConnectorConfiguration", false],
      ["facebookDestinationConfiguration", "embedded:index:ConnectorConfiguration", false],
      ["partnerSegmentSource", "embedded:index:AddedConnector", true],
      ["partnerSegmentSourceConfiguration", "embedded:index:ConnectorConfiguration", true],
    ] as const) {
      const r = byName.get(name);
      assert.equal(r?.type, type, `${name}'s type`);
      const provider = r?.provider ?? "";
      if (explicitProvider)
        assert.ok(provider.startsWith(`${explicit.urn}::`), `${name} uses the explicit provider: ${provider}`);
      else assert.match(provider, /::pulumi:providers:embedded::default/, `${name} uses the default provider`);
    }
  });

  it("no canary in `pulumi stack export`, the backend's files or the stack's config file", async () => {
    const exported = await e2e.stack.exportText();
    const backend = await e2e.stack.backendText();
    const stackConfig = await e2e.stack.stackConfigText();
    assert.match(exported, /s3SourceConfiguration/, "the export holds the configurations");
    assert.match(stackConfig, /partnerClientSecret/);
    for (const value of canaries) {
      assertNoSecret(exported, value, "pulumi stack export");
      assertNoSecret(backend, value, "the backend's files");
      assertNoSecret(stackConfig, value, "Pulumi.<stack>.yaml");
    }
    // Kept as ciphertext: the explicit provider's clientSecret and every secretConfig.
    const deployment = JSON.parse(exported) as {
      deployment: { resources: { urn: string; type: string; inputs?: Record<string, unknown> }[] };
    };
    const explicit = deployment.deployment.resources.find(
      (r) => r.type === "pulumi:providers:embedded" && r.urn.endsWith("::partner"),
    );
    assert.match(JSON.stringify(explicit?.inputs?.clientSecret), /ciphertext/, "the explicit provider's clientSecret");
    for (const name of [
      "s3SourceConfiguration",
      "facebookDestinationConfiguration",
      "partnerSegmentSourceConfiguration",
    ]) {
      const r = deployment.deployment.resources.find((x) => x.urn.endsWith(`::${name}`));
      assert.match(JSON.stringify(r?.inputs?.secretConfig), /ciphertext/, `${name}'s secretConfig`);
    }
  });

  it("the drift check passes after up", async () => {
    await e2e.stack.preview({ expectNoChanges: true });
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("an out-of-band Configure fails the drift check; up --refresh puts the file's values back", async () => {
    await e2e.svc.outOfBand.configure(e2e.svc.accountId, S3, {
      bucket: "changed-by-hand",
      accessKeyId: "AKIAOUTOFBAND",
      region: "us-east-1",
      secretAccessKey: "typed-in-a-console",
    });
    const preview = await e2e.stack.preview({ refresh: true, diff: true });
    assert.equal(
      preview.changeSummary.update,
      1,
      `only the S3 configuration changes: ${JSON.stringify(preview.changeSummary)}`,
    );
    // The drift display names the changed fields (Text, Select; Multi-Select and Number cleared)
    // and shows no value, old or new.
    const display = withoutStackOutputs(preview.stdout);
    const s3Fields = [
      "bucket",
      "accessKeyId",
      "secretAccessKey",
      "region",
      "fileFormats",
      "maxFileSizeMb",
      "startDate",
    ];
    assert.deepEqual(
      fieldsMarkedChanged(display, s3Fields),
      ["bucket", "accessKeyId", "region", "fileFormats", "maxFileSizeMb"],
      display,
    );
    assert.match(display, /changed out of band at \S+: accessKeyId, bucket, fileFormats, maxFileSizeMb, region/);
    assertNoValue(
      display,
      [
        "changed-by-hand",
        "AKIAOUTOFBAND",
        "us-east-1",
        "typed-in-a-console",
        "acme-exports",
        "eu-west-1",
        "csv",
        "parquet",
        "512",
        textValue,
      ],
      "preview --refresh --diff",
    );
    const text = await e2e.stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true }));
    assert.match(text, /no changes were expected/i);
    assert.match(text, /~\s+embedded:index:ConnectorConfiguration s3SourceConfiguration update/);
    assert.doesNotMatch(text, /~\s+embedded:index:ConnectorConfiguration facebookDestinationConfiguration update/);

    // Without a refresh, up compares the file with the state only: the drift stays (README).
    const plain = await e2e.stack.up();
    assert.equal(plain.summary.resourceChanges?.update, undefined, JSON.stringify(plain.summary.resourceChanges));
    assert.equal(
      fieldValue(await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3), "bucket"),
      "changed-by-hand",
    );

    // `pulumi refresh --diff` names the same fields (by their digests and `drift`), with no value.
    const refreshed = withoutStackOutputs((await e2e.stack.cli(["refresh", "--diff", "--yes"])).stdout);
    assert.deepEqual(
      fieldsMarkedChanged(refreshed, s3Fields),
      ["bucket", "accessKeyId", "region", "fileFormats", "maxFileSizeMb"],
      refreshed,
    );
    assertSecretConfigKept(refreshed, "refresh --diff");
    assertNoValue(
      refreshed,
      [
        "changed-by-hand",
        "AKIAOUTOFBAND",
        "us-east-1",
        "typed-in-a-console",
        "acme-exports",
        "eu-west-1",
        "csv",
        "parquet",
        "512",
        textValue,
      ],
      "refresh --diff",
    );

    const repaired = await e2e.stack.up({ refresh: true });
    assert.equal(repaired.summary.resourceChanges?.update, 1, JSON.stringify(repaired.summary.resourceChanges));
    const s3 = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3);
    assert.equal(fieldValue(s3, "bucket"), "acme-exports", "the bucket is the file's again");
    assert.ok(fieldValue(s3, "accessKeyId") === textValue, "the access key id is the file's again");
    assert.equal(fieldValue(s3, "region"), "eu-west-1");
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroy refuses while a connection uses the connectors, once per connector, without a stack trace", async () => {
    e2e.connectionId = await e2e.svc.service.createConnection(e2e.svc.accountId, S3, FACEBOOK);
    const text = await e2e.stack.expectFailure((s) => s.destroy());
    const diagnostics = diagnosticsOf(text);
    assertInUseRefusals(diagnostics, e2e.svc.accountId, [
      [S3, "Amazon S3", /srcConnections\D{0,3}1\b/],
      [FACEBOOK, "Facebook Custom Audiences", /destConnections\D{0,3}1\b/],
    ]);
    assert.doesNotMatch(diagnostics, /^\s+at /m, `no stack trace:\n${diagnostics}`);
    assert.doesNotMatch(text, /embedded-plugin\.js/, "no frame of the plugin anywhere");
    // Nothing used was removed: both still added (and configured) in the sub-account.
    const added = await e2e.svc.outOfBand.listAdded(e2e.svc.accountId);
    assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
    assert.ok(
      added.every((c) => c.configured),
      "both still configured",
    );
    const left = (await e2e.stack.resources()).map(resourceName);
    assert.ok(
      left.includes("s3Source") && left.includes("facebookDestination"),
      `still in the state: ${left.join(", ")}`,
    );
  });

  it("once the connection is deleted, destroy empties both customers' sub-accounts", async () => {
    assert.ok(e2e.connectionId, "the connection of the previous test");
    await e2e.svc.service.deleteConnection(e2e.connectionId);
    e2e.connectionId = undefined;
    const result = await e2e.stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    assert.deepEqual(await e2e.partnerOutOfBand.addedIds(e2e.partner.subAccountIds[0]), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });

  it("no canary in anything the engine printed, the backend's files (every checkpoint) or the service's log", async () => {
    const printed = e2e.stack.engineOutput();
    assert.match(printed, /s3SourceConfiguration/, "the engine output was captured");
    const backend = await e2e.stack.backendText();
    const log = e2e.svc.logs.join("");
    assert.match(log, /\/es\/v2\/connectors/, "the service log was captured");
    for (const value of canaries) {
      assertNoLeak(printed, value, "the engine's output");
      assertNoLeak(backend, value, "the backend's files");
      assertNoLeak(log, value, "the service's log");
    }
  });
});
