// GetPluginInfo and GetSchema over gRPC: what `pulumi package get-schema`, Pulumi YAML, the
// SDK generators and `pulumi import` read from the plugin.
import assert from "node:assert/strict";
import { SETTINGS } from "../../settings/resolve";
import { Plugin, resetRuntime } from "../../../test/support/plugin-harness";

type Spec = Record<string, unknown> & { secret?: boolean; replaceOnChange?: boolean };
interface Schema {
  name: string;
  version: string;
  config: { variables: Record<string, Spec> };
  provider: { inputProperties: Record<string, Spec>; properties: Record<string, Spec> };
  resources: Record<
    string,
    {
      inputProperties: Record<string, Spec>;
      properties: Record<string, Spec>;
      requiredInputs: string[];
      required: string[];
    }
  >;
  functions: Record<
    string,
    { inputs: { properties: Record<string, Spec>; required: string[] }; outputs: { properties: Record<string, Spec> } }
  >;
  types: Record<string, { properties: Record<string, Spec> }>;
}

const RESOURCES = ["embedded:index:AddedConnector", "embedded:index:ConnectorConfiguration"];
const FUNCTIONS = [
  "embedded:index:findConnector",
  "embedded:index:getConnector",
  "embedded:index:getConnectorConfiguration",
  "embedded:index:listAddedConnectors",
  "embedded:index:listConnectors",
  "embedded:index:listSupportedConnectors",
];
const TYPES = [
  "embedded:index:AddedConnectorSummary",
  "embedded:index:CatalogueConnector",
  "embedded:index:ConfigurationField",
  "embedded:index:SupportedConnector",
];

describe("plugin: GetPluginInfo and GetSchema", () => {
  let plugin: Plugin;
  let text: string;
  let schema: Schema;
  before(async () => {
    await resetRuntime();
    plugin = await Plugin.start();
    text = await plugin.schema();
    schema = JSON.parse(text) as Schema;
  });
  after(async () => {
    plugin.close();
    await resetRuntime();
  });

  it("reports the version it was served with", async () => {
    assert.equal(await plugin.version(), "0.1.0");
    assert.equal(schema.version, "0.1.0");
    assert.equal(schema.name, "embedded");
  });

  it("the same schema text every time", async () => {
    assert.equal(await plugin.schema(), text);
  });

  it("has exactly the resources, functions and object types of the definitions", () => {
    assert.deepEqual(Object.keys(schema.resources).sort(), RESOURCES);
    assert.deepEqual(Object.keys(schema.functions).sort(), FUNCTIONS);
    assert.deepEqual(Object.keys(schema.types).sort(), TYPES);
  });

  it("every $ref points at a type of the schema, or is Pulumi's Any (secretConfig's values)", () => {
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length > 0);
    for (const ref of refs) {
      if (ref === "pulumi.json#/Any") continue;
      assert.ok(ref.startsWith("#/types/") && ref.slice("#/types/".length) in schema.types, `dangling ${ref}`);
    }
    const secretConfig = schema.resources["embedded:index:ConnectorConfiguration"].inputProperties.secretConfig;
    assert.deepEqual(secretConfig.additionalProperties, { $ref: "pulumi.json#/Any" }, "a map of any value");
    for (const shape of ["a string", "a number or a numeric string", "a list, or a comma-separated string"])
      assert.ok(String(secretConfig.description).includes(shape), `secretConfig's description documents ${shape}`);
  });

  it("flags the secrets: secretConfig, clientSecret and the lookup's field values; the field digests are plain", () => {
    const configuration = schema.resources["embedded:index:ConnectorConfiguration"];
    assert.equal(configuration.inputProperties.secretConfig.secret, true);
    for (const name of ["fieldDigests", "digestKeyId", "drift"])
      assert.equal(configuration.properties[name].secret, undefined, name);
    assert.ok(!("values" in configuration.properties) && !("fingerprint" in configuration.properties));
    assert.equal(schema.config.variables.clientSecret.secret, true);
    assert.equal(schema.provider.inputProperties.clientSecret.secret, true);
    assert.ok(!("clientSecret" in schema.provider.properties), "the provider's outputs do not carry the secret");
    const secrets: string[] = [];
    const collect = (where: string, specs: Record<string, Spec>) => {
      for (const [name, spec] of Object.entries(specs)) if (spec.secret) secrets.push(`${where}.${name}`);
    };
    collect("config", schema.config.variables);
    collect("provider", schema.provider.inputProperties);
    for (const [token, resource] of Object.entries(schema.resources)) {
      collect(`${token}.in`, resource.inputProperties);
      collect(`${token}.out`, resource.properties);
    }
    for (const [token, fn] of Object.entries(schema.functions)) collect(`${token}.out`, fn.outputs.properties);
    for (const [token, type] of Object.entries(schema.types)) collect(token, type.properties);
    assert.deepEqual(secrets.sort(), [
      "config.clientSecret",
      "config.digestKey",
      "embedded:index:ConfigurationField.value",
      "embedded:index:ConnectorConfiguration.in.secretConfig",
      "embedded:index:ConnectorConfiguration.out.digestSalt",
      "embedded:index:getConnectorConfiguration.out.connectionFields",
      "embedded:index:getConnectorConfiguration.out.fields",
      "provider.clientSecret",
      "provider.digestKey",
    ]);
  });

  it("connectorId and accountId replace the resource when they change; nothing else does", () => {
    for (const token of RESOURCES) {
      const replacing = Object.entries(schema.resources[token].inputProperties)
        .filter(([, spec]) => spec.replaceOnChange)
        .map(([name]) => name)
        .sort();
      assert.deepEqual(replacing, ["accountId", "connectorId"], token);
      assert.deepEqual(schema.resources[token].requiredInputs.includes("connectorId"), true);
    }
  });

  it("every input is echoed as an output but secretConfig (whose values no output may carry: --debug prints outputs) and heldByService", () => {
    // heldByService is compared at check, and changing it alone writes nothing: an output would go stale.
    const inputOnly = new Set(["secretConfig", "heldByService"]);
    for (const token of RESOURCES) {
      for (const name of Object.keys(schema.resources[token].inputProperties)) {
        if (token === "embedded:index:ConnectorConfiguration" && inputOnly.has(name)) {
          assert.ok(!(name in schema.resources[token].properties), `${token}.${name} is an output`);
          assert.ok(!schema.resources[token].required.includes(name), `${token}.${name} is a required output`);
        } else {
          assert.ok(name in schema.resources[token].properties, `${token}.${name}`);
        }
      }
    }
  });

  it("config variables and provider inputs are exactly the settings, each with its environment variable", () => {
    const names = Object.keys(SETTINGS).sort();
    assert.deepEqual(Object.keys(schema.config.variables).sort(), names);
    assert.deepEqual(Object.keys(schema.provider.inputProperties).sort(), names);
    for (const [name, setting] of Object.entries(SETTINGS)) {
      const spec = schema.config.variables[name];
      assert.equal(spec.type, setting.type, name);
      assert.deepEqual(spec.defaultInfo, { environment: [setting.env] }, name);
      assert.ok(String(spec.description).includes(setting.env), name);
    }
  });

  it("findConnector takes name and supportedType, and returns a connectorId", () => {
    const find = schema.functions["embedded:index:findConnector"];
    assert.deepEqual(find.inputs.required.sort(), ["name", "supportedType"]);
    assert.ok("accountId" in find.inputs.properties);
    assert.ok("connectorId" in find.outputs.properties);
  });
});
