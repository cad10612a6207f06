// The whole lifecycle under the real engine. One stack,
// one service; the tests run in order and each builds on the one before.
import { strict as assert } from "node:assert";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { apiKeyFields, connectorsStack, e2eSuite, FACEBOOK, fieldValue, S3, SEGMENT, storageFields } from "./fixtures";

type Props = Record<string, unknown>;

/** The fields of the List Added Connectors view that an AddedConnector outputs. */
const LIVE_FIELDS = [
  "name",
  "logo",
  "dataType",
  "dataTypeCategory",
  "platformType",
  "supportedType",
  "configured",
  "description",
  "srcConnections",
  "destConnections",
  "editable",
  "env",
  "transfer",
  "platformId",
];

function record(value: unknown, what: string): Record<string, Props> {
  assert.ok(value && typeof value === "object", `${what} is an object`);
  return value as Record<string, Props>;
}

describe("e2e: lifecycle (up, no-change preview, drift, out-of-band remove)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = e2eSuite({
    stack: (svc) =>
      connectorsStack(
        svc,
        "lifecycle",
        {
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
            {
              key: "s3Config",
              connectorId: S3,
              after: "s3",
              secretConfig: storageFields(),
              secretRefs: { secretAccessKey: "s3Key" },
            },
          ],
        },
        { secretValues: { segmentKey: "lifecycle-segment-key", s3Key: "lifecycle-s3-key" } },
      ),
  });

  it("up adds 3 connectors and configures 2; the service holds exactly that", async () => {
    const result = await e2e.stack.up();
    assert.equal(result.summary.result, "succeeded");
    assert.equal(result.summary.resourceChanges?.create, 6); // 5 resources and the stack

    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.otherAccountId), []);
    const live = new Map((await e2e.svc.outOfBand.listAdded(e2e.svc.accountId)).map((c) => [c.connectorId, c]));
    assert.equal(live.get(SEGMENT)?.configured, true);
    assert.equal(live.get(S3)?.configured, true);
    assert.equal(live.get(FACEBOOK)?.configured, false);
    const segmentConfig = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(fieldValue(segmentConfig, "workspace"), "acme");
    // The service returns every value as a string (Multi-Select comma-separated).
    assert.equal(fieldValue(segmentConfig, "batchSize"), "500");
    assert.equal(fieldValue(await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3), "bucket"), "acme-exports");
  });

  it("outputs carry the live fields", async () => {
    const outputs = await e2e.stack.outputValues();
    const connectors = record(outputs.connectors, "connectors output");
    assert.deepEqual(Object.keys(connectors).sort(), ["facebook", "s3", "segment"]);
    const live = new Map((await e2e.svc.outOfBand.listAdded(e2e.svc.accountId)).map((c) => [c.connectorId, c]));
    for (const [key, id] of [
      ["segment", SEGMENT],
      ["s3", S3],
      ["facebook", FACEBOOK],
    ] as const) {
      const out = connectors[key];
      const view = live.get(id);
      assert.ok(view, `${key} is live`);
      assert.equal(out.id, `${e2e.svc.accountId}/${id}`);
      assert.equal(out.connectorId, id);
      assert.equal(out.accountId, e2e.svc.accountId);
      // `configured` is as the Add left it: the configurations came after.
      assert.equal(out.configured, false, `${key}.configured`);
      for (const field of LIVE_FIELDS.filter((f) => f !== "configured")) {
        assert.deepEqual(out[field], view[field], `${key}.${field}`);
      }
    }
    assert.equal(connectors.segment.name, "Segment");
    assert.equal(connectors.facebook.supportedType, "Destination");

    const configurations = record(outputs.configurations, "configurations output");
    const segment = configurations.segmentConfig;
    const liveSegment = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(segment.connectorId, SEGMENT);
    assert.equal(segment.configured, true);
    assert.equal(segment.lastUpdated, liveSegment.lastUpdated);
    assert.ok(Number(segment.lastUpdated) > 0, "lastUpdated is set");
    // A keyed digest per field, Password included; no value among the outputs.
    const digests = segment.fieldDigests as Props;
    assert.deepEqual(Object.keys(digests).sort(), ["apiKey", "batchSize", "dataCenter", "eventTypes", "workspace"]);
    assert.ok(!("values" in segment) && !("fingerprint" in segment), "no value-bearing output");
    assert.equal(segment.drift, "");
    // The program's own `secretConfig` (the SDK fills an input it passed back in) is exported too: not an output.
    const outputsOnly = Object.values(configurations).map(({ secretConfig: _secretConfig, ...outputs }) => outputs);
    assert.ok(!JSON.stringify(outputsOnly).includes("eu-west-1"), "no Select value among the outputs");
  });

  it("a second preview reports no changes", async () => {
    const preview = await e2e.stack.preview({ expectNoChanges: true });
    assert.equal(preview.changeSummary.same, 6);
  });

  it("an out-of-band configure is drift: refresh then preview show an update, up re-applies", async () => {
    await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, {
      apiKey: "out-of-band-key",
      workspace: "changed-elsewhere",
      dataCenter: "US",
      batchSize: 7,
    });
    // `pulumi preview --refresh --expect-no-changes` is how users catch it.
    await e2e.stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true }));

    await e2e.stack.refresh();
    // Refresh also brought every AddedConnector's outputs up to date.
    const live = new Map((await e2e.svc.outOfBand.listAdded(e2e.svc.accountId)).map((c) => [c.connectorId, c]));
    for (const resource of await e2e.stack.resources()) {
      const view = resource.type.endsWith(":AddedConnector")
        ? live.get(String(resource.outputs?.connectorId))
        : undefined;
      // All but `configured`, which stays as of the add (no drift: the configuration came after).
      for (const field of view ? LIVE_FIELDS.filter((f) => f !== "configured") : []) {
        assert.deepEqual(resource.outputs?.[field], view?.[field], `${resourceName(resource)}.${field} after refresh`);
      }
      if (view) assert.equal(resource.outputs?.configured, false, `${resourceName(resource)}.configured after refresh`);
    }
    assert.equal(live.get(SEGMENT)?.configured, true);

    const preview = await e2e.stack.preview();
    assert.equal(preview.changeSummary.update, 1, JSON.stringify(preview.changeSummary));
    assert.match(preview.stdout, /segmentConfig/);

    const up = await e2e.stack.up();
    assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));
    const reapplied = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.equal(fieldValue(reapplied, "workspace"), "acme");
    assert.equal(fieldValue(reapplied, "batchSize"), "500");

    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("an out-of-band remove: refresh drops the connector, up adds it back", async () => {
    await e2e.svc.outOfBand.remove(e2e.svc.accountId, FACEBOOK);
    await e2e.stack.refresh();
    const names = (await e2e.stack.resources()).map(resourceName);
    assert.ok(!names.includes("facebook"), `refresh dropped facebook: ${names.join(", ")}`);

    const up = await e2e.stack.up();
    assert.equal(up.summary.resourceChanges?.create, 1, JSON.stringify(up.summary.resourceChanges));
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
    const facebook = (await e2e.stack.resources()).find((r) => resourceName(r) === "facebook");
    assert.equal(facebook?.id, `${e2e.svc.accountId}/${FACEBOOK}`);
  });

  it("an out-of-band remove of a configured connector: up adds and configures it again", async () => {
    // Removing a connector drops its saved configuration too (service contract).
    await e2e.svc.outOfBand.remove(e2e.svc.accountId, S3);
    assert.equal((await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3)).configured, false);

    await e2e.stack.refresh();
    await e2e.stack.up();
    const live = new Map((await e2e.svc.outOfBand.listAdded(e2e.svc.accountId)).map((c) => [c.connectorId, c]));
    assert.equal(live.get(S3)?.configured, true);
    assert.equal(fieldValue(await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3), "bucket"), "acme-exports");
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroy empties the sub-account", async () => {
    const result = await e2e.stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });
});
