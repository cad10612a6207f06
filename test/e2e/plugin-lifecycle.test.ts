// The plugin `embedded` from TypeScript under the real engine: up, a no-change preview, drift
// caught by `preview --refresh --expect-no-changes` and repaired by `up --refresh`, and the
// delete guard (its message printed once, without a stack trace). One stack, one service; the
// tests run in order and each builds on the one before.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { apiKeyFields, e2eSuite, FACEBOOK, fieldValue, S3, SEGMENT } from "./fixtures";
import {
  ADDED_CONNECTOR_TYPE,
  CONFIGURATION_TYPE,
  diagnostics,
  engineFailure,
  occurrences,
  pluginStack,
  PROVIDER_TYPE,
  STACK_FRAME,
} from "./plugin-fixtures";

describe("e2e: plugin lifecycle (up, no-change preview, drift, delete guard)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const apiKey = `plugin-lifecycle-${randomBytes(6).toString("hex")}`;
  let connectionId: string | undefined;
  const e2e = e2eSuite({
    stack: (svc) =>
      pluginStack(svc, "plugin-lifecycle", {
        config: {
          connectors: [
            { key: "segment", connectorId: SEGMENT },
            { key: "s3", connectorId: S3 },
            { key: "facebook", connectorId: FACEBOOK },
          ],
          configurations: [
            {
              key: "segmentConfig",
              connectorId: SEGMENT,
              after: "segment",
              secretConfig: apiKeyFields(),
              secretRefs: { apiKey: "segmentKey" },
            },
          ],
        },
      }),
    setUp: async ({ stack }) => {
      // The Password as a user sets it.
      await stack.cli(["config", "set", "--secret", "--path", "secretValues.segmentKey", apiKey]);
    },
    tearDown: async ({ svc }) => {
      if (connectionId) {
        await svc.service.deleteConnection(connectionId).catch(() => undefined);
      }
    },
  });

  it("up adds 3 connectors and configures 1 through the plugin; the service holds exactly that", async () => {
    assert.match(
      await e2e.stack.stackConfigText(),
      /segmentKey:\s+secure:/,
      "the Password is a secret in the stack config",
    );
    const result = await e2e.stack.up();
    assert.equal(result.summary.result, "succeeded");
    assert.equal(result.summary.resourceChanges?.create, 5, JSON.stringify(result.summary.resourceChanges)); // 4 resources and the stack

    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.otherAccountId), []);
    const live = new Map((await e2e.svc.outOfBand.listAdded(e2e.svc.accountId)).map((c) => [c.connectorId, c]));
    assert.equal(live.get(SEGMENT)?.configured, true);
    assert.equal(live.get(S3)?.configured, false);
    assert.equal(live.get(FACEBOOK)?.configured, false);
    const segmentConfig = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(fieldValue(segmentConfig, "workspace"), "acme");
    assert.equal(fieldValue(segmentConfig, "dataCenter"), "EU");
    assert.equal(fieldValue(segmentConfig, "batchSize"), "500");
    assert.equal(fieldValue(segmentConfig, "eventTypes"), "track,identify");
    assert.equal(fieldValue(segmentConfig, "apiKey"), undefined, "the service never returns a Password");

    // The plugin's resources, not the dynamic provider's, with ids <accountId>/<connectorId>.
    const resources = await e2e.stack.resources();
    const byName = new Map(resources.map((r) => [resourceName(r), r]));
    for (const [name, id] of [
      ["segment", SEGMENT],
      ["s3", S3],
      ["facebook", FACEBOOK],
    ] as const) {
      assert.equal(byName.get(name)?.type, ADDED_CONNECTOR_TYPE, `${name} type`);
      assert.equal(byName.get(name)?.id, `${e2e.svc.accountId}/${id}`, `${name} id`);
    }
    assert.equal(byName.get("segmentConfig")?.type, CONFIGURATION_TYPE);
    assert.equal(byName.get("segmentConfig")?.id, `${e2e.svc.accountId}/${SEGMENT}`);
    assert.equal(byName.get("segment")?.outputs?.name, "Segment");
    assert.ok(!resources.some((r) => r.type.startsWith("pulumi-nodejs:dynamic")), "no dynamic resource");
    const exported = await e2e.stack.exportText();
    assert.match(exported, new RegExp(`"type": "${PROVIDER_TYPE}"`), "the default provider is the plugin");
    assert.ok(!exported.includes(apiKey), "the Password is not in the state in plain text");
  });

  it("a second preview reports no changes", async () => {
    const preview = await e2e.stack.preview({ expectNoChanges: true });
    assert.equal(preview.changeSummary.same, 5, JSON.stringify(preview.changeSummary));
  });

  it("an out-of-band configure is caught by `preview --refresh --expect-no-changes`; `up --refresh` repairs it", async () => {
    await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, {
      apiKey: "out-of-band-key",
      workspace: "changed-elsewhere",
      dataCenter: "US",
      batchSize: 7,
    });
    const drift = await engineFailure(() => e2e.stack.preview({ refresh: true, expectNoChanges: true }));
    assert.match(
      drift.stdout,
      /~\s+embedded:index:ConnectorConfiguration\s+segmentConfig\s+update/,
      "the preview names the drifted configuration",
    );
    assert.doesNotMatch(drift.stdout, /AddedConnector\s+\w+\s+(update|replace|create|delete)/, "and nothing else");
    assert.match(drift.printed, /no changes were expected/i);
    // The preview changed nothing.
    assert.equal(
      fieldValue(await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT), "workspace"),
      "changed-elsewhere",
    );

    const up = await e2e.stack.up({ refresh: true });
    assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));
    const repaired = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(fieldValue(repaired, "workspace"), "acme");
    assert.equal(fieldValue(repaired, "dataCenter"), "EU");
    assert.equal(fieldValue(repaired, "batchSize"), "500");

    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroy while a connection uses two connectors fails, naming each once, without a stack trace", async () => {
    connectionId = await e2e.svc.service.createConnection(e2e.svc.accountId, S3, FACEBOOK);

    const failed = await engineFailure(() => e2e.stack.destroy());

    const s3Message = `cannot remove connector "Amazon S3" (${S3}) from sub-account ${e2e.svc.accountId}: it is used in connections (srcConnections=1, destConnections=0)`;
    const facebookMessage =
      `cannot remove connector "Facebook Custom Audiences" (${FACEBOOK}) from sub-account ${e2e.svc.accountId}: ` +
      "it is used in connections (srcConnections=0, destConnections=1)";
    // Each message reaches the engine once: one error per resource in Diagnostics (a second
    // report, such as a log call besides the returned error, would be a second entry there),
    // and none on the CLI's stderr.
    const reported = diagnostics(failed.stdout);
    for (const [name, message] of [
      ["s3", s3Message],
      ["facebook", facebookMessage],
    ] as const) {
      const block = reported.get(`${ADDED_CONNECTOR_TYPE} (${name})`);
      assert.ok(block !== undefined, `Diagnostics has a block for ${name}:\n${failed.printed}`);
      assert.equal(occurrences(block, message), 1, `${name}: the message once in:\n${block}`);
      assert.equal(occurrences(block, "error:"), 1, `${name}: one error in:\n${block}`);
      assert.equal(occurrences(block, "Delete those connections first"), 1, `${name}: what to do, once`);
      assert.ok(
        failed.stdout.includes(`${name} **deleting failed** error: ${message}`),
        `${name}'s row shows the message`,
      );
    }
    assert.equal(occurrences(failed.stderr, "cannot remove connector"), 0, `nothing on stderr:\n${failed.stderr}`);
    // Every copy in the output is one of the two full messages (no variant, no prefix-only copy).
    assert.equal(
      occurrences(failed.printed, "cannot remove connector"),
      occurrences(failed.printed, s3Message) + occurrences(failed.printed, facebookMessage),
    );
    assert.doesNotMatch(failed.printed, STACK_FRAME, "no stack trace");
    assert.doesNotMatch(failed.printed, /\bat (?:Object|async|process)\.|embedded-plugin\.js:\d+/, "no stack trace");

    // The unused connector and its configuration went; the two in use stayed, in the service and the state.
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3, FACEBOOK].sort());
    assert.deepEqual((await e2e.stack.resources()).map(resourceName).sort(), ["facebook", "s3"]);
  });

  it("once the connection is deleted, destroy succeeds and the sub-account is empty", async () => {
    assert.ok(connectionId, "the connection of the previous test");
    await e2e.svc.service.deleteConnection(connectionId);
    connectionId = undefined;

    const result = await e2e.stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });
});
