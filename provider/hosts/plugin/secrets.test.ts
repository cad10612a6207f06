// What the plugin hands back never shows a secret: Check failures name the kind of an input that
// arrived secret, not its value; secretConfig is never an output, not even
// from an older state that holds it (defect 4); getConnectorConfiguration's field values leave
// as secrets (defect 7). Secret-ness comes from the definitions, applied in hosts/plugin/outgoing.ts.
import assert from "node:assert/strict";
import { stableId } from "../../../service/domain/ids";
import {
  isSecret,
  type Props,
  secret,
  secretValue,
  urnOf,
  usePluginFixture,
} from "../../../test/support/plugin-harness";

const SEGMENT = stableId("connector", "Segment");
const CONFIG = {
  apiKey: "s3cr3t-api-key-value",
  workspace: "acme-workspace-canary",
  dataCenter: "EU",
  eventTypes: ["page", "track"],
  batchSize: 100,
};
const TYPES = ["AddedConnector", "ConnectorConfiguration"] as const;

describe("plugin: secrets in what it hands back", () => {
  const fx = usePluginFixture();

  for (const type of TYPES) {
    const inputs = (extra: Props) => ({
      connectorId: SEGMENT,
      ...(type === "ConnectorConfiguration" ? { secretConfig: CONFIG } : {}),
      ...extra,
    });

    it(`${type} Check: a connectorId or accountId that arrived secret is refused (an id is plaintext), never quoted`, async () => {
      const badId = "not-an-id-canary-7f3a";
      const badAccount = "acct canary 91bd with spaces and more than forty characters in all";
      const { failures } = await fx.plugin.check(
        urnOf(type, "x"),
        inputs({ connectorId: secret(badId), accountId: secret(badAccount) }),
      );
      const text = JSON.stringify(failures);
      // No property: the engine would print the value beside it.
      assert.deepEqual(
        failures.map((f) => f.property),
        ["", ""],
      );
      for (const [what, value] of [
        ["connectorId", badId],
        ["accountId", badAccount],
        ["accountId's first 20 characters", badAccount.slice(0, 20)],
      ]) {
        assert.ok(!text.includes(value), `${what} is quoted in a failure`);
      }
      for (const name of ["connectorId", "accountId"]) {
        assert.ok(
          failures.some((f) => f.reason.startsWith(`${name} is a secret, but it is part of the resource's id`)),
          `${name} is refused: ${text}`,
        );
      }
      // Given plainly, the value is quoted, so the user sees what was wrong.
      const plain = await fx.plugin.check(urnOf(type, "x"), inputs({ connectorId: "not-an-id" }));
      assert.match(plain.failures.find((f) => f.property === "connectorId")?.reason ?? "", /got "not-an-id"/);
    });
  }

  it("ConnectorConfiguration Check: a well-formed secret connectorId the catalogue lacks is not printed either", async () => {
    const missing = stableId("connector", "No such connector");
    const { failures } = await fx.plugin.check(urnOf("ConnectorConfiguration", "x"), {
      connectorId: secret(missing),
      secretConfig: CONFIG,
    });
    assert.equal(failures.length, 1, JSON.stringify(failures.map((f) => f.property)));
    assert.ok(!failures[0].reason.includes(missing), "the secret connector id is in the failure");
  });

  it("Read of a state that still holds secretConfig among its outputs (older plugin) does not hand it back", async () => {
    const urn = urnOf("ConnectorConfiguration", "segment");
    const added = urnOf("AddedConnector", "segment");
    await fx.plugin.create(added, (await fx.plugin.check(added, { connectorId: SEGMENT })).inputs);
    const checked = await fx.plugin.check(urn, { connectorId: SEGMENT, secretConfig: CONFIG });
    const { id, properties } = await fx.plugin.create(urn, checked.inputs);
    const older = { ...properties, secretConfig: secret(CONFIG) };
    const read = await fx.plugin.read(urn, id, older, checked.inputs);
    assert.ok(!("secretConfig" in read.properties), "secretConfig came back as an output");
    assert.ok(!JSON.stringify(read.properties).includes(CONFIG.apiKey));
    assert.deepEqual(secretValue(read.inputs.secretConfig, "inputs.secretConfig"), CONFIG, "the inputs keep it");
  });

  it("Invoke getConnectorConfiguration: no saved value crosses the engine (the SDK's --debug prints Invoke responses); descriptors and state do", async () => {
    const urn = urnOf("ConnectorConfiguration", "segment");
    const added = urnOf("AddedConnector", "segment");
    await fx.plugin.create(added, (await fx.plugin.check(added, { connectorId: SEGMENT })).inputs);
    await fx.plugin.create(urn, (await fx.plugin.check(urn, { connectorId: SEGMENT, secretConfig: CONFIG })).inputs);
    const { result, failures } = await fx.plugin.invoke("embedded:index:getConnectorConfiguration", {
      connectorId: SEGMENT,
    });
    assert.deepEqual(failures, []);
    assert.ok(result);
    const text = JSON.stringify(result);
    for (const value of [CONFIG.workspace, CONFIG.apiKey])
      assert.ok(!text.includes(value), `a saved value in the Invoke response: ${value}`);
    const fields = (isSecret(result.fields) ? secretValue(result.fields, "fields") : result.fields) as {
      id: string;
      value?: string;
    }[];
    assert.ok(
      fields.some((f) => f.id === "workspace"),
      "the descriptors are there",
    );
    assert.ok(
      fields.every((f) => f.value === undefined),
      "no field carries a value",
    );
    assert.equal(result.configured, true);
  });

  it("Invoke: an argument that arrived secret comes back secret where the result echoes it", async () => {
    const { result } = await fx.plugin.invoke("embedded:index:getConnectorConfiguration", {
      connectorId: SEGMENT,
      accountId: secret(fx.accountId),
    });
    assert.ok(result);
    assert.equal(secretValue(result.accountId, "accountId"), fx.accountId);
    assert.ok(!isSecret(result.connectorId));
  });
});
