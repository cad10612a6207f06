// The salt of the digests' key is a hidden secret INPUT that
// check sets (connector-configuration/digest-salt.ts), never an output, so the program's RegisterResource
// response (which the Node.js SDK prints under `pulumi up --debug`) holds nothing that keys the
// digests. A plugin state written before (an output `digestSalt`, or none) refreshes and diffs
// without false drift, and its next write re-keys it under the input salt.
import assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { stableId } from "../../../service/domain/ids";
import { digestKeyOf, digestsOfInputs, PASSWORD_MARK } from "../../connector-configuration/field-digests";
import {
  isSecret,
  secret,
  secretValue,
  urnOf,
  usePluginFixture,
  type Props,
} from "../../../test/support/plugin-harness";

const { DIFF_NONE } = proto.DiffResponse.DiffChanges;
const SEGMENT = stableId("connector", "Segment");
const URN = urnOf("ConnectorConfiguration", "segment");
const CONFIG = { apiKey: "salt-test-key", workspace: "acme", dataCenter: "EU", eventTypes: ["page"], batchSize: 100 };
const PROGRAM = { connectorId: SEGMENT, secretConfig: CONFIG };
const SALT = /^[0-9a-f]{32}$/;

describe("plugin: the digests' salt is a hidden secret input, never an output", () => {
  const fx = usePluginFixture();
  const clientSecret = () => fx.service.customers[0].clientSecret;
  const saltOf = (inputs: Props) => String(secretValue(inputs.__digestSalt, "__digestSalt"));
  beforeEach(async () => {
    const added = urnOf("AddedConnector", "segment");
    await fx.plugin.create(added, (await fx.plugin.check(added, { connectorId: SEGMENT })).inputs);
  });

  async function created(): Promise<{ id: string; properties: Props; inputs: Props }> {
    const { inputs, failures } = await fx.plugin.check(URN, PROGRAM);
    assert.deepEqual(failures, []);
    return { ...(await fx.plugin.create(URN, inputs)), inputs };
  }

  /** No output holds the salt, in any case, nor a `digestSalt`; the digests are under the input salt. */
  function assertKeyedByInput(properties: Props, salt: string, what: string): void {
    assert.ok(!("digestSalt" in properties), `${what}: no digestSalt output`);
    assert.ok(!JSON.stringify(properties).toLowerCase().includes(salt), `${what}: the salt is in an output`);
    assert.equal(properties.digestKeyId, digestKeyOf(clientSecret(), salt).id, `${what}: keyed by the input salt`);
  }

  it("check draws a secret salt at create, carries the stored one on every later check, and never takes the program's", async () => {
    const first = (await fx.plugin.check(URN, PROGRAM)).inputs;
    const second = (await fx.plugin.check(URN, PROGRAM)).inputs;
    assert.ok(isSecret(first.__digestSalt), "the salt input is a secret (the state encrypts it)");
    assert.match(saltOf(first), SALT);
    assert.notEqual(saltOf(first), saltOf(second), "each create draws its own");
    const chosen = { ...PROGRAM, __digestSalt: "0".repeat(32) };
    assert.equal(saltOf((await fx.plugin.check(URN, chosen, first)).inputs), saltOf(first), "carried from the olds");
    assert.notEqual(saltOf((await fx.plugin.check(URN, chosen)).inputs), "0".repeat(32), "a program cannot choose it");
  });

  it("create, update and refresh: no output carries the salt; an update moves only the changed field's digest", async () => {
    const { id, properties, inputs } = await created();
    const salt = saltOf(inputs);
    assertKeyedByInput(properties, salt, "create");
    const news = (await fx.plugin.check(URN, { ...PROGRAM, secretConfig: { ...CONFIG, batchSize: 7 } }, inputs)).inputs;
    assert.equal(saltOf(news), salt);
    const updated = await fx.plugin.update(URN, id, properties, news);
    assertKeyedByInput(updated, salt, "update");
    const [before, after] = [properties.fieldDigests as Props, updated.fieldDigests as Props];
    assert.deepEqual(
      Object.keys(after).filter((field) => after[field] !== before[field]),
      ["batchSize"],
    );
    const read = await fx.plugin.read(URN, id, updated, news);
    assertKeyedByInput(read.properties, salt, "refresh");
    assert.equal(read.properties.drift, "");
    assert.equal(saltOf(read.inputs), salt, "the refresh keeps the stored inputs, salt included");
    assert.equal((await fx.plugin.diff(URN, id, read.properties, news)).changes, DIFF_NONE);
  });

  it("import: the salt is among the imported inputs, secret; the outputs are keyed by it and hold none", async () => {
    const { id } = await created();
    const found = await fx.plugin.read(urnOf("ConnectorConfiguration", "imported"), id);
    assert.ok(isSecret(found.inputs.__digestSalt), "the imported salt input is a secret");
    assertKeyedByInput(found.properties, saltOf(found.inputs), "import");
    assert.equal(saltOf((await fx.plugin.check(URN, found.inputs, found.inputs)).inputs), saltOf(found.inputs));
  });

  for (const legacy of ["an output digestSalt", "no salt (unsalted digests)"]) {
    it(`a plugin state written before, with ${legacy}: no false drift; the next write re-keys it under the input salt`, async () => {
      const { id, properties, inputs } = await created();
      const outputSalt = legacy.startsWith("an") ? "ab".repeat(16) : undefined;
      const key = digestKeyOf(clientSecret(), outputSalt);
      const applied = secretValue(inputs.secretConfig) as Record<string, unknown>;
      const { __digestSalt: _none, ...oldInputs } = inputs;
      const oldOutputs: Props = {
        ...properties,
        fieldDigests: digestsOfInputs(key, fx.accountId, SEGMENT, applied, new Set(["apiKey"])),
        digestKeyId: key.id,
        ...(outputSalt ? { digestSalt: secret(outputSalt) } : {}),
      };
      const news = (await fx.plugin.check(URN, PROGRAM, oldInputs)).inputs;
      assert.match(saltOf(news), SALT, "the upgrade's check draws an input salt");
      const read = await fx.plugin.read(URN, id, oldOutputs, oldInputs);
      assert.equal(read.properties.drift, "", "no false drift");
      assert.deepEqual(read.properties.fieldDigests, oldOutputs.fieldDigests);
      assert.equal(read.properties.digestKeyId, key.id);
      assert.equal((await fx.plugin.diff(URN, id, read.properties, news)).changes, DIFF_NONE, "no false diff");
      const changed = (await fx.plugin.check(URN, { ...PROGRAM, secretConfig: { ...CONFIG, workspace: "x" } }, news))
        .inputs;
      assert.equal(
        (await fx.plugin.detailedDiff(URN, id, read.properties, changed))["secretConfig.workspace"],
        "UPDATE",
      );
      const written = await fx.plugin.update(URN, id, read.properties, changed);
      assertKeyedByInput(written, saltOf(news), "the re-keying write");
      assert.equal((written.fieldDigests as Props).apiKey, PASSWORD_MARK);
      assert.equal((await fx.plugin.diff(URN, id, written, changed)).changes, DIFF_NONE);
    });
  }
});
