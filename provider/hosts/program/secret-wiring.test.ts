// What the program side applies of the definitions' secrets, under pulumi.runtime.setMocks:
// a dynamic resource names the inputs the program made secret (its provider gets
// them unwrapped and must not quote them); the plugin SDK's lookups keep the field values of
// getConnectorConfiguration out of the Promise form and return the Output form as a secret;
// an explicit provider's clientSecret is secret because SETTINGS says so.
import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { AddedConnector, ConnectorConfiguration, embedded } from "../..";
import { SECRET_INPUTS } from "../../schema/checks";
import { CONNECTORS, SEGMENT_CONFIG } from "../../../test/support/provider-fixtures";

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

const WORKSPACE = "workspace-canary-5e1c";
/** What the plugin's Invoke returns for getConnectorConfiguration (values included, as the wire carries them). */
const LOOKUP = {
  accountId: "acct",
  connectorId: CONNECTORS.segment,
  configured: true,
  lastUpdated: 7,
  editable: true,
  env: "prod",
  fields: [
    { id: "workspace", label: "Workspace", type: "Text", required: true, readonly: false, value: WORKSPACE },
    { id: "apiKey", label: "API key", type: "Password", required: true, readonly: false },
  ],
  connectionFields: [
    { id: "stream", label: "Stream", type: "Text", required: false, readonly: false, value: "conn-canary-77ab" },
  ],
};

describe("secrets applied on the program side (mocks)", () => {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: (args) => (args.token === "embedded:index:getConnectorConfiguration" ? LOOKUP : args.inputs),
      },
      "project",
      "stack",
      false,
    );
  });

  async function registration(name: string): Promise<pulumi.runtime.MockResourceArgs> {
    for (let i = 0; i < 100 && !registered.some((r) => r.name === name); i++)
      await new Promise((resolve) => setImmediate(resolve));
    const found = registered.find((r) => r.name === name);
    assert.ok(found, `${name} was registered`);
    return found;
  }

  it("a dynamic resource tells its provider which inputs the program made secret, and only those", async () => {
    new AddedConnector("secret-account", { connectorId: CONNECTORS.segment, accountId: pulumi.secret("acct-1") });
    new AddedConnector("plain-account", { connectorId: CONNECTORS.segment, accountId: "acct-1" });
    new ConnectorConfiguration("config", {
      connectorId: pulumi.secret(CONNECTORS.segment),
      secretConfig: SEGMENT_CONFIG,
    });
    assert.deepEqual((await registration("secret-account")).inputs[SECRET_INPUTS], ["accountId"]);
    assert.deepEqual((await registration("plain-account")).inputs[SECRET_INPUTS], []);
    assert.deepEqual([...(await registration("config")).inputs[SECRET_INPUTS]].sort(), ["connectorId", "secretConfig"]);
  });

  it("a default sub-account set with --secret makes a resource without accountId name it secret (its check refuses)", async () => {
    const before = pulumi.runtime.allConfig();
    pulumi.runtime.setAllConfig({ ...before, "embedded:accountId": "acct-secret" }, ["embedded:accountId"]);
    try {
      new AddedConnector("defaulted-secret-account", { connectorId: CONNECTORS.segment });
      new AddedConnector("own-account", { connectorId: CONNECTORS.segment, accountId: "acct-1" });
    } finally {
      pulumi.runtime.setAllConfig(before);
    }
    pulumi.runtime.setAllConfig({ ...before, "embedded:accountId": "acct-plain" });
    try {
      new AddedConnector("defaulted-plain-account", { connectorId: CONNECTORS.segment });
    } finally {
      pulumi.runtime.setAllConfig(before);
    }
    assert.deepEqual((await registration("defaulted-secret-account")).inputs[SECRET_INPUTS], ["accountId"]);
    assert.deepEqual((await registration("own-account")).inputs[SECRET_INPUTS], []);
    assert.deepEqual((await registration("defaulted-plain-account")).inputs[SECRET_INPUTS], []);
  });

  it("the plugin's getConnectorConfiguration: no field value in the Promise form", async () => {
    const result = await embedded.getConnectorConfiguration({ connectorId: CONNECTORS.segment });
    assert.equal(result.configured, true);
    assert.deepEqual(
      result.fields.map((f) => f.id),
      ["workspace", "apiKey"],
      "the descriptors are there",
    );
    assert.ok(!JSON.stringify(result).includes(WORKSPACE), "a field value in the Promise form");
    assert.ok(!JSON.stringify(result).includes("conn-canary-77ab"), "a connection field value in the Promise form");
  });

  it("the plugin's getConnectorConfigurationOutput: a secret Output, with the values", async () => {
    const result = embedded.getConnectorConfigurationOutput({ connectorId: pulumi.output(CONNECTORS.segment) });
    assert.equal(await pulumi.isSecret(result), true);
    const fields = await valueOf(result.apply((r) => r.fields));
    assert.equal(fields.find((f) => f.id === "workspace")?.value, WORKSPACE);
    // A lookup whose definition holds no secret stays plain.
    assert.equal(await pulumi.isSecret(embedded.getConnectorOutput({ connectorId: CONNECTORS.segment })), false);
  });

  it("an explicit plugin provider registers clientSecret as a secret (SETTINGS says so), and nothing else", async () => {
    new embedded.Provider("customer", {
      baseUrl: "https://example.com",
      clientId: "id",
      clientSecret: "provider-secret-canary",
    });
    const inputs = (await registration("customer")).inputs;
    assert.ok(pulumi.runtime.isRpcSecret(inputs.clientSecret), "clientSecret reaches the engine as a secret");
    assert.ok(!pulumi.runtime.isRpcSecret(inputs.clientId));
  });
});
