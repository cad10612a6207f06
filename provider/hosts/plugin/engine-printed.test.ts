// What the engine itself prints from the plugin's answers: a preview
// Create or Update answers without the service and hands back no secret (the program's SDK
// prints its RegisterResource response under `--debug`); a check failure about an input that
// arrived secret, or is secret by definition, leaves `property` empty (the engine prints
// `property <name> value <value> has a problem`, with the plaintext); a secret accountId or
// connectorId is refused (an id is plaintext in the state).
import assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { stableId } from "../../../service/domain/ids";
import { mutatingCalls } from "../../../test/support/provider-fixtures";
import {
  raw,
  secret,
  struct,
  UNKNOWN,
  urnOf,
  usePluginFixture,
  type Failure,
  type Props,
} from "../../../test/support/plugin-harness";

const SEGMENT = stableId("connector", "Segment");
const CANARY = `canary-engine-printed-${process.pid}`;
const CONFIG = { apiKey: CANARY, workspace: "acme", dataCenter: "EU", eventTypes: ["page"], batchSize: 100 };
const CONFIGURATION_OUTPUTS = [
  "configured",
  "lastUpdated",
  "appliedLastUpdated",
  "fieldDigests",
  "digestKeyId",
  "drift",
];

function rpc<Res>(start: (done: (error: Error | null, response: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => start((error, response) => (error ? reject(error) : resolve(response))));
}

/** The failures whose property names a top-level input that was given secret (what the engine would print). */
function printable(failures: Failure[], secretNames: string[]): Failure[] {
  return failures.filter((f) => secretNames.includes(f.property));
}

describe("plugin: what the engine prints of its answers", () => {
  const fx = usePluginFixture();

  async function previewCreate(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const request = new proto.CreateRequest().setUrn(urn).setProperties(struct(properties)).setPreview(true);
    const response = await rpc<proto.CreateResponse>((done) => fx.plugin.client.create(request, done));
    return { id: response.getId(), properties: raw(response.getProperties()) };
  }

  async function previewUpdate(urn: string, id: string, olds: Props, news: Props): Promise<Props> {
    const request = new proto.UpdateRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(olds))
      .setPreview(true);
    return raw((await rpc<proto.UpdateResponse>((done) => fx.plugin.client.update(request, done))).getProperties());
  }

  it("a preview Create and Update write nothing and hand back no secret input; the provider's outputs are unknown", async () => {
    const urn = urnOf("ConnectorConfiguration", "segment");
    const added = urnOf("AddedConnector", "segment");
    const before = await fx.service.stats();
    const addPreview = await previewCreate(added, (await fx.plugin.check(added, { connectorId: SEGMENT })).inputs);
    assert.equal(addPreview.properties.connectorId, SEGMENT, "a plain input is echoed");
    assert.equal(addPreview.properties.platformId, UNKNOWN, "the provider's outputs are unknown");
    const checked = await fx.plugin.check(urn, { connectorId: SEGMENT, secretConfig: CONFIG, name: secret(CANARY) });
    assert.deepEqual(checked.failures, []);
    const created = await previewCreate(urn, checked.inputs);
    assert.equal(created.id, "");
    assert.ok(!JSON.stringify(created.properties).includes(CANARY), "a secret value in the preview's outputs");
    assert.ok(!("secretConfig" in created.properties) && !("name" in created.properties), "secret inputs are left out");
    assert.equal(created.properties.connectorId, SEGMENT);
    for (const name of CONFIGURATION_OUTPUTS) assert.equal(created.properties[name], UNKNOWN, `${name} is unknown`);
    assert.equal(
      mutatingCalls(await fx.service.stats()) - mutatingCalls(before),
      0,
      "the preview wrote to the service",
    );
    // An update's preview half: the same, against a configuration that exists.
    await fx.plugin.create(added, (await fx.plugin.check(added, { connectorId: SEGMENT })).inputs);
    const real = await fx.plugin.create(urn, checked.inputs);
    const afterCreate = await fx.service.stats();
    const changed = await fx.plugin.check(urn, { ...checked.inputs, secretConfig: { ...CONFIG, dataCenter: "US" } });
    const updated = await previewUpdate(urn, real.id, real.properties, changed.inputs);
    assert.ok(!JSON.stringify(updated).includes(CANARY), "a secret value in the update preview's outputs");
    assert.ok(!("secretConfig" in updated) && !("name" in updated));
    assert.equal(updated.fieldDigests, UNKNOWN);
    assert.equal(mutatingCalls(await fx.service.stats()) - mutatingCalls(afterCreate), 0, "the update preview wrote");
  });

  it("a check failure about a secret input leaves `property` empty and names the input in its reason", async () => {
    const urn = urnOf("ConnectorConfiguration", "x");
    const cases: [string, Props, string[], RegExp][] = [
      [
        "secretConfig as a secret string",
        { secretConfig: secret(`{"apiKey":"${CANARY}"}`) },
        ["secretConfig"],
        /^secretConfig must be an object/,
      ],
      [
        "secretConfig (secret by definition) given plainly as a string",
        { secretConfig: CANARY },
        ["secretConfig"],
        /^secretConfig must be an object/,
      ],
      [
        "a secret name of the wrong type",
        { secretConfig: CONFIG, name: secret(42) },
        ["name"],
        /^name must be a string/,
      ],
      [
        "a secret secretName of the wrong type",
        { secretConfig: CONFIG, secretName: secret([CANARY]) },
        ["secretName"],
        /^secretName must be a string/,
      ],
    ];
    for (const [what, given, secretNames, reason] of cases) {
      const { failures } = await fx.plugin.check(urn, { connectorId: SEGMENT, ...given });
      assert.deepEqual(printable(failures, secretNames), [], `${what}: the engine would print the value`);
      assert.ok(
        failures.some((f) => f.property === "" && reason.test(f.reason)),
        `${what}: ${JSON.stringify(failures)}`,
      );
      assert.ok(!JSON.stringify(failures).includes(CANARY), `${what}: the value is quoted`);
    }
    const adopt = await fx.plugin.check(urnOf("AddedConnector", "x"), {
      connectorId: SEGMENT,
      adoptExisting: secret(CANARY),
    });
    assert.deepEqual(
      printable(adopt.failures, ["adoptExisting"]),
      [],
      "adoptExisting: the engine would print the value",
    );
    assert.match(adopt.failures[0]?.reason ?? "", /^adoptExisting must be a boolean/);
    // Given plainly (and not secret by definition), a failure keeps its property, and a path stays a path.
    const plain = await fx.plugin.check(urn, { connectorId: SEGMENT, secretConfig: CONFIG, name: 42 });
    assert.deepEqual(
      plain.failures.map((f) => f.property),
      ["name"],
    );
    const field = await fx.plugin.check(urn, { connectorId: SEGMENT, secretConfig: { ...CONFIG, dataCenter: "MARS" } });
    assert.deepEqual(
      field.failures.map((f) => f.property),
      ["secretConfig.dataCenter"],
    );
  });

  it("CheckConfig: a clientSecret that is not a string, or any setting that arrived secret, has no property", async () => {
    const valid = { baseUrl: fx.service.baseUrl, clientId: "demo-client" };
    for (const clientSecret of [42, secret(42), secret({ value: CANARY })]) {
      const { failures } = await fx.plugin.checkConfig({ ...valid, clientSecret });
      assert.deepEqual(printable(failures, ["clientSecret"]), [], "the engine would print the clientSecret");
      assert.match(failures[0]?.reason ?? "", /^clientSecret must be a string/);
      assert.ok(!JSON.stringify(failures).includes(CANARY));
    }
    const typo = await fx.plugin.checkConfig({ ...valid, clientSecret: "x", baseurl: secret(CANARY) });
    assert.deepEqual(printable(typo.failures, ["baseurl"]), []);
    assert.match(typo.failures[0]?.reason ?? "", /^baseurl: unknown setting "baseurl"/);
    // Every CheckConfig failure has no property, and names its argument.
    const missing = await fx.plugin.checkConfig(valid);
    assert.deepEqual(
      missing.failures.map((f) => [f.property, f.reason.split(":")[0]]),
      [["", "clientSecret"]],
    );
  });

  for (const type of ["AddedConnector", "ConnectorConfiguration"]) {
    it(`${type}: a secret accountId or connectorId is refused, saying why and what to do, before the service is asked`, async () => {
      const before = await fx.service.stats();
      const extra = type === "ConnectorConfiguration" ? { secretConfig: CONFIG } : {};
      for (const [name, given] of [
        ["accountId", { connectorId: SEGMENT, accountId: secret(fx.otherAccountId) }],
        ["connectorId", { connectorId: secret(SEGMENT) }],
      ] as const) {
        const { failures } = await fx.plugin.check(urnOf(type, "x"), { ...extra, ...given });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        assert.equal(failures[0].property, "");
        assert.match(failures[0].reason, new RegExp(`^${name} is a secret, but it is part of the resource's id`));
        assert.match(failures[0].reason, /plaintext in the state.*Pass .* as a plain value.*docs\/secrets\.md/);
        for (const value of [fx.otherAccountId, SEGMENT]) assert.ok(!failures[0].reason.includes(value));
      }
      const stats = await fx.service.stats();
      assert.deepEqual(stats.byRoute, before.byRoute, "the service was asked about a secret id");
    });
  }
});
