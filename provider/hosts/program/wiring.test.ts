// Resource wiring under pulumi.runtime.setMocks: type tokens, secret marking, declared
// outputs, and a provider object that serializes small (it captures no heavy module).
import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { AddedConnector, ConnectorConfiguration } from "../..";
import { CONNECTORS, SEGMENT_CONFIG } from "../../../test/support/provider-fixtures";

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

interface Seen {
  name: string;
  type: string;
  props: pulumi.Inputs;
  opts: pulumi.ResourceOptions;
}

describe("resource wiring (mocks)", () => {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  const seen: Seen[] = [];
  // A legacy transformation sees the final props and options the resource registers with.
  const record: pulumi.ResourceTransformation = (args) => {
    seen.push({ name: args.name, type: args.type, props: args.props, opts: args.opts });
    return undefined;
  };

  before(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args);
          const outputs = {
            name: "Segment",
            srcConnections: 2,
            fieldDigests: { workspace: "0123456789abcdef" },
            lastUpdated: 7,
          };
          return { id: `${args.name}-id`, state: { ...args.inputs, ...outputs } };
        },
        call: (args) => args.inputs,
      },
      "project",
      "stack",
      false,
    );
  });

  it("registers AddedConnector with its type token and declared outputs", async () => {
    const added = new AddedConnector("segment", { connectorId: CONNECTORS.segment }, { transformations: [record] });
    assert.equal(await valueOf(added.srcConnections), 2);
    assert.equal(await valueOf(added.name), "Segment");
    const args = registered.find((r) => r.name === "segment");
    assert.equal(args?.type, "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector");
    assert.equal(args?.inputs.connectorId, CONNECTORS.segment);
  });

  it("makes secretConfig secret whatever was passed; of the outputs, only the digests' salt is secret", async () => {
    // No additionalSecretOutputs of our own: the resource must declare them itself.
    const config = new ConnectorConfiguration(
      "segment-config",
      { connectorId: CONNECTORS.segment, secretConfig: SEGMENT_CONFIG },
      { transformations: [record] },
    );
    assert.equal(await valueOf(config.lastUpdated), 7);
    const args = registered.find((r) => r.name === "segment-config");
    assert.equal(args?.type, "pulumi-nodejs:dynamic/embedded-connectors:ConnectorConfiguration");
    assert.ok(pulumi.runtime.isRpcSecret(args?.inputs.secretConfig), "secretConfig must reach the engine as a secret");
    const registration = seen.find((s) => s.name === "segment-config");
    assert.ok(pulumi.Output.isInstance(registration?.props.secretConfig));
    assert.equal(await pulumi.isSecret(registration?.props.secretConfig as pulumi.Output<unknown>), true);
    const secretOutputs = (registration?.opts as pulumi.CustomResourceOptions).additionalSecretOutputs;
    assert.deepEqual([...(secretOutputs ?? [])], ["digestSalt"]);
    assert.deepEqual(await valueOf(config.fieldDigests), { workspace: "0123456789abcdef" });
    assert.equal(
      await pulumi.isSecret(config.fieldDigests),
      false,
      "the digests are plain: a drift display names their fields",
    );
  });

  it("keeps the caller's own secret outputs", async () => {
    new ConnectorConfiguration(
      "segment-config-own-secrets",
      { connectorId: CONNECTORS.segment, secretConfig: SEGMENT_CONFIG },
      { transformations: [record], additionalSecretOutputs: ["secretName"] },
    );
    const registration = seen.find((s) => s.name === "segment-config-own-secrets");
    const secretOutputs = (registration?.opts as pulumi.CustomResourceOptions | undefined)?.additionalSecretOutputs;
    assert.deepEqual([...(secretOutputs ?? [])].sort(), ["digestSalt", "secretName"]);
  });

  it("serializes a small provider that loads its implementation at call time", async () => {
    const args = registered.find((r) => r.name === "segment-config");
    const text = String(args?.inputs.__provider);
    assert.match(text, /pulumi-embedded-connectors\/dist\/provider\/resources\/connector-configuration-impl/);
    for (const heavy of ["undici", "zod", "clientSecret", "createHmac"]) {
      assert.ok(!text.includes(heavy), `the serialized provider must not capture ${heavy}`);
    }
    assert.ok(text.length < 8000, `serialized provider is ${text.length} characters`);
  });
});
