// `pulumi import` and the `import` resource option with the plugin `embedded`, from a
// TypeScript program: connectors added and configured by hand (through the service's API) are
// taken into the stack without any Add call; the program then declares exactly them and
// previews clean, except for the configuration's Password (never imported), which one update
// writes. Importing what does not exist fails with a message naming it. The tests run in
// order and each builds on the one before.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { ENGINE_TIMEOUT_MS, resourceName, type StateResource } from "./harness";
import { connectorId, e2eSuite, FACEBOOK, MIXPANEL, S3, SEGMENT } from "./fixtures";
import {
  ADD_ROUTE,
  ADDED_CONNECTOR_TYPE,
  callsTo,
  CONFIGURATION_TYPE,
  CONFIGURE_ROUTE,
  diagnostics,
  engineFailure,
  type Failure,
  liveValues,
  occurrences,
  pluginStack,
  revealed,
  STACK_FRAME,
} from "./plugin-fixtures";

/** What was configured by hand, as a program declares it. */
const HAND_VALUES = { workspace: "by-hand", dataCenter: "APAC", batchSize: 250, eventTypes: ["page", "track"] };
const MIXPANEL_VALUES = { workspace: "mixpanel-by-hand", dataCenter: "US", batchSize: 100 };

/**
 * `pulumi import` as a user runs it here: no code generation (the Node.js language host of
 * this engine has no GenerateProgram) and not protected (the default, protect, is the
 * engine's business and would only make every later step say so).
 */
const IMPORT_FLAGS = ["--yes", "--generate-code=false", "--protect=false"];

describe("e2e: plugin import (pulumi import, the import option)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const handKey = `hand-key-${randomBytes(6).toString("hex")}`;
  const programKey = `program-key-${randomBytes(6).toString("hex")}`;
  let addsBefore: number;
  /** The imported configuration's inputs (secrets shown). */
  let importedInputs: Record<string, unknown> = {};

  function byName(resources: StateResource[]): Map<string, StateResource> {
    return new Map(resources.map((r) => [resourceName(r), r]));
  }

  const e2e = e2eSuite({
    // The program declares nothing yet.
    stack: (svc) => pluginStack(svc, "plugin-import"),
    setUp: async ({ svc }) => {
      // By hand: three connectors added, two of them configured.
      await svc.outOfBand.add(svc.accountId, [SEGMENT, MIXPANEL, S3]);
      await svc.outOfBand.configure(svc.accountId, SEGMENT, { apiKey: handKey, ...HAND_VALUES });
      await svc.outOfBand.configure(svc.accountId, MIXPANEL, { apiKey: handKey, ...MIXPANEL_VALUES });
      addsBefore = callsTo(await svc.service.stats(), ADD_ROUTE);
    },
  });

  it("`pulumi import` takes in the hand-added connector and its configuration, without the Password", async () => {
    await e2e.stack.cli([
      "import",
      ADDED_CONNECTOR_TYPE,
      "segment",
      `${e2e.svc.accountId}/${SEGMENT}`,
      ...IMPORT_FLAGS,
    ]);
    await e2e.stack.cli([
      "import",
      CONFIGURATION_TYPE,
      "segmentConfig",
      `${e2e.svc.accountId}/${SEGMENT}`,
      ...IMPORT_FLAGS,
    ]);

    const resources = byName(await e2e.stack.resources());
    assert.deepEqual([...resources.keys()].sort(), ["segment", "segmentConfig"]);
    const segment = resources.get("segment");
    assert.equal(segment?.type, ADDED_CONNECTOR_TYPE);
    assert.equal(segment?.id, `${e2e.svc.accountId}/${SEGMENT}`);
    assert.equal(segment?.outputs?.name, "Segment");
    assert.deepEqual(
      { connectorId: segment?.inputs?.connectorId, accountId: segment?.inputs?.accountId },
      { connectorId: SEGMENT, accountId: e2e.svc.accountId },
    );
    const config = resources.get("segmentConfig");
    assert.equal(config?.type, CONFIGURATION_TYPE);
    assert.equal(config?.id, `${e2e.svc.accountId}/${SEGMENT}`);
    // No value in the inputs (the engine prints its import code from them):
    // an empty secretConfig, and the fields to declare named in a hidden input.
    const secretConfig = revealed(config?.inputs?.secretConfig) as Record<string, unknown> | undefined;
    assert.deepEqual(secretConfig, {});
    assert.deepEqual(config?.inputs?.__importedFields, {
      fields: Object.keys(HAND_VALUES).sort(),
      passwords: ["apiKey"],
    });
    assert.equal(config?.inputs?.configurationId, config?.outputs?.configurationId);
    importedInputs = { ...config?.inputs, secretConfig };
    const exported = await e2e.stack.exportText();
    assert.ok(!exported.includes(handKey), "the hand-set Password is nowhere in the state");
    const exportedConfig = (
      JSON.parse(exported) as { deployment: { resources: StateResource[] } }
    ).deployment.resources.find((r) => resourceName(r) === "segmentConfig");
    assert.match(
      JSON.stringify(exportedConfig?.inputs?.secretConfig),
      /ciphertext/,
      "the imported secretConfig is a secret",
    );
    assert.ok(!JSON.stringify(exportedConfig?.inputs).includes("by-hand"), "a hand-set value in the state's inputs");
  });

  it("declared as imported: no change for the AddedConnector; adding the Password is one update, then clean", async () => {
    await e2e.stack.setConfig({ connectors: [{ key: "segment", connectorId: SEGMENT }] });
    const preview = await e2e.stack.preview();
    // The connector is the same; the configuration, not declared yet, would be deleted.
    assert.deepEqual({ ...preview.changeSummary }, { same: 2, delete: 1 }, JSON.stringify(preview.changeSummary));
    assert.doesNotMatch(preview.stdout, /AddedConnector\s+segment\s+(update|replace|create|delete)/);

    // The program as `pulumi import` would print it (secretConfig: {}): refused, naming the
    // fields to declare; nothing is written (an empty secretConfig would clear them).
    const { configurationId } = importedInputs;
    assert.equal(typeof configurationId, "string");
    const declared = (secretConfig: object) => ({
      connectors: [{ key: "segment", connectorId: SEGMENT }],
      configurations: [
        {
          key: "segmentConfig",
          connectorId: SEGMENT,
          configurationId,
          after: "segment",
          secretConfig,
          secretRefs: { apiKey: "segmentKey" },
        },
      ],
    });
    await e2e.stack.setConfig(declared({}), { secretValues: { segmentKey: programKey } });
    const configuresAtFirst = callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE);
    const refused = await engineFailure(() => e2e.stack.preview());
    assert.match(refused.stdout, /secretConfig does not declare batchSize, dataCenter, eventTypes, workspace/);
    assert.equal(callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE), configuresAtFirst, "nothing written");

    // The program declares the values set by hand, and adds the Password.
    await e2e.stack.setConfig(declared(HAND_VALUES), { secretValues: { segmentKey: programKey } });
    const withPassword = await e2e.stack.preview();
    assert.deepEqual(
      { ...withPassword.changeSummary },
      { same: 2, update: 1 },
      `only the configuration changes: ${JSON.stringify(withPassword.changeSummary)}`,
    );
    assert.match(withPassword.stdout, /~\s+embedded:index:ConnectorConfiguration\s+segmentConfig\s+update/);

    const configuresBefore = callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE);
    const up = await e2e.stack.up();
    assert.deepEqual(
      { ...up.summary.resourceChanges },
      { same: 2, update: 1 },
      JSON.stringify(up.summary.resourceChanges),
    );
    // The update wrote the configuration (one Configure call; the service never shows a
    // Password back), with the other values as they were.
    assert.equal(callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE), configuresBefore + 1);
    const live = await liveValues(e2e.svc.outOfBand, e2e.svc.accountId, SEGMENT);
    assert.equal(live.workspace, "by-hand");
    assert.equal(live.dataCenter, "APAC");
    assert.equal(live.batchSize, "250");
    assert.equal(live.eventTypes, "page,track");

    await e2e.stack.preview({ expectNoChanges: true });
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("the `import` resource option adopts another hand-added connector with no changes, and its configuration with one update", async () => {
    const connectors = [
      { key: "segment", connectorId: SEGMENT },
      { key: "mixpanel", connectorId: MIXPANEL, import: `${e2e.svc.accountId}/${MIXPANEL}` },
    ];
    const configurations = [
      {
        key: "segmentConfig",
        connectorId: SEGMENT,
        configurationId: importedInputs.configurationId,
        after: "segment",
        secretConfig: HAND_VALUES,
        secretRefs: { apiKey: "segmentKey" },
      },
      {
        key: "mixpanelConfig",
        connectorId: MIXPANEL,
        after: "mixpanel",
        import: `${e2e.svc.accountId}/${MIXPANEL}`,
        secretConfig: MIXPANEL_VALUES,
        secretRefs: { apiKey: "mixpanelKey" },
      },
    ];
    await e2e.stack.setConfig(
      { connectors, configurations },
      { secretValues: { segmentKey: programKey, mixpanelKey: programKey } },
    );
    const preview = await e2e.stack.preview();
    // Both imported; the configuration then updated (its Password is not imported).
    assert.deepEqual(
      { ...preview.changeSummary },
      { same: 3, import: 2, update: 1 },
      JSON.stringify(preview.changeSummary),
    );
    assert.doesNotMatch(preview.stdout, /AddedConnector\s+mixpanel\s+(update|replace|create|delete)/);

    const configuresBefore = callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE);
    const up = await e2e.stack.up();
    assert.deepEqual(
      { ...up.summary.resourceChanges },
      { same: 3, import: 2, update: 1 },
      JSON.stringify(up.summary.resourceChanges),
    );
    const resources = byName(await e2e.stack.resources());
    const mixpanel = resources.get("mixpanel");
    assert.equal(mixpanel?.type, ADDED_CONNECTOR_TYPE);
    assert.equal(mixpanel?.id, `${e2e.svc.accountId}/${MIXPANEL}`);
    assert.equal(mixpanel?.outputs?.name, "Mixpanel");
    assert.equal(resources.get("mixpanelConfig")?.id, `${e2e.svc.accountId}/${MIXPANEL}`);
    assert.equal(
      callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE),
      configuresBefore + 1,
      "one Configure: the update",
    );
    const live = await liveValues(e2e.svc.outOfBand, e2e.svc.accountId, MIXPANEL);
    assert.equal(live.workspace, MIXPANEL_VALUES.workspace);
    assert.equal(live.batchSize, String(MIXPANEL_VALUES.batchSize));
    await e2e.stack.preview({ expectNoChanges: true });
  });

  it("importing what does not exist fails, naming the connector and the sub-account", async () => {
    const stateBefore = (await e2e.stack.resources()).map(resourceName).sort();
    const reported = (failure: Failure, name: string, type = ADDED_CONNECTOR_TYPE): string => {
      const block = diagnostics(failure.stdout).get(`${type} (${name})`);
      assert.ok(block !== undefined, `Diagnostics has a block for ${name}:\n${failure.printed}`);
      assert.doesNotMatch(failure.printed, STACK_FRAME, "no stack trace");
      return block;
    };
    // Not added to the sub-account: `pulumi import`.
    const missing = await engineFailure(() =>
      e2e.stack.cli(["import", ADDED_CONNECTOR_TYPE, "facebook", `${e2e.svc.accountId}/${FACEBOOK}`, ...IMPORT_FLAGS]),
    );
    assert.ok(
      reported(missing, "facebook").includes(`connector ${FACEBOOK} is not added to sub-account ${e2e.svc.accountId}`),
    );

    // Not added to the sub-account: the import option, in a program; the up fails the same way.
    const ghost = connectorId("Google Ads Reporting");
    await e2e.stack.setConfig({
      connectors: [
        { key: "segment", connectorId: SEGMENT },
        { key: "mixpanel", connectorId: MIXPANEL },
        { key: "ghost", connectorId: ghost, import: `${e2e.svc.accountId}/${ghost}` },
      ],
    });
    const option = await engineFailure(() => e2e.stack.up());
    assert.ok(
      reported(option, "ghost").includes(`connector ${ghost} is not added to sub-account ${e2e.svc.accountId}`),
    );

    // Added, but never configured: there is no configuration to import.
    const unconfigured = await engineFailure(() =>
      e2e.stack.cli(["import", CONFIGURATION_TYPE, "s3Config", `${e2e.svc.accountId}/${S3}`, ...IMPORT_FLAGS]),
    );
    assert.ok(
      reported(unconfigured, "s3Config", CONFIGURATION_TYPE).includes(
        `connector ${S3} of sub-account ${e2e.svc.accountId} has no saved configuration to import`,
      ),
    );

    assert.deepEqual((await e2e.stack.resources()).map(resourceName).sort(), stateBefore, "the state is as before");
    assert.deepEqual(
      await e2e.svc.outOfBand.addedIds(e2e.svc.accountId),
      [SEGMENT, MIXPANEL, S3].sort(),
      "nothing added",
    );
  });

  it("no Add call reached the service for the imported connectors", async () => {
    assert.equal(callsTo(await e2e.svc.service.stats(), ADD_ROUTE), addsBefore);
  });

  it("a hand-added connector declared without import is refused with the command that imports it; that command works", async () => {
    const connectors = [
      { key: "segment", connectorId: SEGMENT },
      { key: "mixpanel", connectorId: MIXPANEL },
      { key: "s3", connectorId: S3 },
    ];
    await e2e.stack.setConfig({ connectors });
    const refused = await engineFailure(() => e2e.stack.up());
    const command = `pulumi import ${ADDED_CONNECTOR_TYPE} <name> ${e2e.svc.accountId}/${S3}`;
    const block = diagnostics(refused.stdout).get(`${ADDED_CONNECTOR_TYPE} (s3)`);
    assert.ok(block, `Diagnostics has a block for s3:\n${refused.printed}`);
    assert.match(block, /"Amazon S3" \([0-9a-f]{16}\) is already added to sub-account/);
    assert.equal(occurrences(block, command), 1, `the import command once in:\n${block}`);
    assert.doesNotMatch(
      block,
      /does not work for dynamic-provider resources/,
      "no advice meant for the dynamic provider",
    );
    assert.ok(!byName(await e2e.stack.resources()).has("s3"), "s3 is not in the state");

    // The command, as the message gives it.
    await e2e.stack.cli(["import", ADDED_CONNECTOR_TYPE, "s3", `${e2e.svc.accountId}/${S3}`, ...IMPORT_FLAGS]);
    await e2e.stack.preview({ expectNoChanges: true });
    assert.equal(byName(await e2e.stack.resources()).get("s3")?.id, `${e2e.svc.accountId}/${S3}`);
    assert.deepEqual(
      await e2e.svc.outOfBand.addedIds(e2e.svc.accountId),
      [SEGMENT, MIXPANEL, S3].sort(),
      "added once each",
    );
  });

  it("imported connectors are managed: destroy removes them all", async () => {
    await e2e.stack.destroy();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });
});
