// Lookup functions in the program process: settings from the stack config `embedded:*`.
import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import {
  findConnector,
  getConnector,
  getConnectorConfiguration,
  getConnectorConfigurationOutput,
  getConnectorOutput,
  listAddedConnectors,
  listConnectors,
  listSupportedConnectors,
} from "..";
import { SEED_ROWS } from "../../service/seed/connectors";
import { CONNECTORS, rejection, SEGMENT_CONFIG, useLookupFixture } from "../../test/support/provider-fixtures";

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("lookup functions", () => {
  const fx = useLookupFixture();

  it("getConnector reads one connector of the default sub-account", async () => {
    const connector = await getConnector({ connectorId: CONNECTORS.segment });
    assert.equal(connector.name, "Segment");
    assert.equal(typeof connector.integrated, "boolean");
  });

  it("listConnectors returns every page, and filters", async () => {
    const all = await listConnectors();
    assert.equal(all.connectors.length, SEED_ROWS.length);
    assert.equal(all.accountId, fx.accountId);
    const sources = await listConnectors({ supportedType: "Source" });
    assert.ok(sources.connectors.length > 0);
    assert.ok(sources.connectors.every((c) => c.supportedType === "Source"));
  });

  it("findConnector finds by exact name and side, and lists near matches otherwise", async () => {
    assert.equal((await findConnector({ name: "Segment", supportedType: "Source" })).connectorId, CONNECTORS.segment);
    const error = await rejection(findConnector({ name: "Segmnt", supportedType: "Source" }));
    assert.match(error.message, /no connector named "Segmnt" with supportedType Source/);
    assert.match(error.message, /near matches: .*"Segment"/);
  });

  it("listAddedConnectors and listSupportedConnectors see the sub-account", async () => {
    await fx.service.reset();
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const added = await listAddedConnectors({});
    assert.deepEqual(
      added.connectors.map((c) => c.connectorId),
      [CONNECTORS.segment],
    );
    const supported = await listSupportedConnectors({ connectorId: CONNECTORS.segment });
    assert.ok(supported.connectors.some((c) => c.connectorId === CONNECTORS.tiktokEvents));
    assert.ok(supported.connectors.every((c) => c.supportedType === "Destination"));
  });

  it("getConnectorConfiguration gives descriptors and non-secret state only", async () => {
    const result = await getConnectorConfiguration({ connectorId: CONNECTORS.segment, accountId: fx.otherAccountId });
    assert.equal(result.configured, false);
    assert.equal(result.lastUpdated, 0);
    assert.match(String(result.configurationId), /^[a-f0-9]{16}$/);
    const apiKey = result.fields.find((f) => f.id === "apiKey");
    assert.equal(apiKey?.type, "Password");
    assert.equal(apiKey?.value, undefined);
  });

  it("getConnectorConfiguration: the saved values only from the Output form, as a secret", async () => {
    const workspace = `workspace-canary-${process.pid}`;
    await fx.service.reset();
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const view = await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment);
    const configurationId = view.secretConfig[0]?.configurationId ?? "";
    await fx.client.configure(fx.accountId, CONNECTORS.segment, {
      configurationId,
      secretConfig: { ...SEGMENT_CONFIG, workspace },
    });
    const promised = await getConnectorConfiguration({ connectorId: CONNECTORS.segment });
    assert.equal(promised.configured, true);
    assert.ok(
      promised.fields.some((f) => f.id === "workspace"),
      "the descriptors are there",
    );
    assert.ok(
      !JSON.stringify(promised).includes(workspace),
      "a saved value in the Promise form (a plain object cannot be secret)",
    );
    const output = getConnectorConfigurationOutput({ connectorId: CONNECTORS.segment });
    assert.equal(await pulumi.isSecret(output), true, "the Output form is a secret");
    const fields = await valueOf(output.apply((c) => c.fields));
    assert.equal(fields.find((f) => f.id === "workspace")?.value, workspace);
    assert.equal(fields.find((f) => f.id === "apiKey")?.value, undefined, "never a Password value");
  });

  it("has Output forms that take Inputs", async () => {
    const connector = getConnectorOutput({ connectorId: pulumi.output(CONNECTORS.segment) });
    assert.equal(await valueOf(connector.apply((c) => c.name)), "Segment");
    const config = getConnectorConfigurationOutput({ connectorId: Promise.resolve(CONNECTORS.segment) });
    assert.equal(await valueOf(config.apply((c) => c.connectorId)), CONNECTORS.segment);
  });
});
