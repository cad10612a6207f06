// ConnectorConfiguration's create/read/diff/update/delete against the local service:
// outputs without plaintext secrets, per-field digests, drift through lastUpdated.
import assert from "node:assert/strict";
import * as impl from "./steps";
import * as addedConnector from "../added-connector/steps";
import { UNKNOWN } from "../schema/checks";
import { PASSWORD_MARK } from "./field-digests";
import {
  captureWarnings,
  CONNECTORS,
  mutatingCalls,
  rejection,
  SEGMENT_CONFIG,
  useConfig,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { declaredConnectors } from "../sub-account/process";

type Props = Record<string, unknown>;

describe("ConnectorConfiguration provider", () => {
  const fx = useProviderFixture();

  const inputs = (secretConfig: Props = SEGMENT_CONFIG, extra: Props = {}): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig,
    __provider: "p",
    ...extra,
  });

  async function configured(secretConfig: Props = SEGMENT_CONFIG): Promise<{ id: string; outs: Props }> {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const { id, outs } = await impl.create(inputs(secretConfig));
    return { id, outs: outs as Props };
  }

  it("fails clearly when the connector is not added", async () => {
    const error = await rejection(impl.create(inputs()));
    assert.match(error.message, /is it added\?/);
    assert.match(error.message, /request id/);
  });

  it("creates with a digest of every field but the Password (marked, no digest), the key's id, no drift and no value", async () => {
    const { id, outs } = await configured();
    assert.equal(id, `${fx.accountId}/${CONNECTORS.segment}`);
    assert.equal(outs.configured, true);
    assert.ok(typeof outs.lastUpdated === "number" && outs.lastUpdated > 0);
    assert.equal(outs.appliedLastUpdated, outs.lastUpdated);
    const digests = outs.fieldDigests as Record<string, string>;
    assert.deepEqual(Object.keys(digests).sort(), ["apiKey", "batchSize", "dataCenter", "eventTypes", "workspace"]);
    const { apiKey, ...others } = digests;
    assert.equal(apiKey, PASSWORD_MARK, "no digest of a Password");
    for (const digest of Object.values(others)) assert.match(digest, /^[0-9a-f]{16}$/);
    assert.match(String(outs.digestKeyId), /^[0-9a-f]{12}$/);
    assert.equal(outs.drift, "");
    for (const key of ["values", "fingerprint", "fingerprintSalt"]) assert.ok(!(key in outs), `no ${key} output`);
    const text = JSON.stringify(outs);
    for (const value of [SEGMENT_CONFIG.apiKey, "acme", "page,track", fx.config["embedded:clientSecret"] ?? ""])
      assert.ok(!text.includes(value), "no value in the outputs");
  });

  it("sees no change for the same desired configuration", async () => {
    const { id, outs } = await configured();
    const result = await impl.diff(id, outs, inputs({ ...SEGMENT_CONFIG, eventTypes: ["page", "track"] }));
    assert.deepEqual([result.changes, result.replaces], [false, []]);
  });

  it("sees no change after create, nor after a refresh, for a Number and a Multi-Select given as strings", async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const written = inputs({ ...SEGMENT_CONFIG, batchSize: "100.0", eventTypes: "page, track" });
    const checked = (await impl.check({}, written)).inputs as Props; // what the engine stores and passes on
    const { id, outs } = await impl.create(checked);
    assert.equal((await impl.diff(id, outs as Props, checked)).changes, false, "right after create");
    const refreshed = await impl.read(id, outs as Props);
    assert.equal((await impl.diff(id, refreshed.props as Props, checked)).changes, false, "after a refresh");
  });

  it('a state written before check normalised ("100.0", "page, track" as given) converges: no diff, no call', async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const raw = inputs({ ...SEGMENT_CONFIG, batchSize: "100.0", eventTypes: "page, track" });
    const legacy = {
      ...raw,
      configurationId: (await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).secretConfig[0]
        .configurationId,
    };
    const { id, outs } = await impl.create(legacy); // what the state holds: inputs as written
    useConfig(fx); // the next preview's engine process
    const before = await fx.service.stats();
    const checked = (await impl.check(legacy, raw)).inputs as Props;
    assert.equal((await impl.diff(id, outs as Props, checked)).changes, false);
    assert.deepEqual(await fx.service.stats(), before, "no call");
  });

  it("updates (does not replace) when a secret value changes, naming that field; its digest alone changes", async () => {
    const { id, outs } = await configured();
    const changed = inputs({ ...SEGMENT_CONFIG, workspace: "another-workspace" });
    const result = await impl.diff(id, outs, changed);
    assert.deepEqual([result.changes, result.replaces], [true, []]);
    assert.deepEqual(result.detailedDiff, { "secretConfig.workspace": { kind: "update", inputDiff: true } });
    const updated = (await impl.update(id, outs, changed)).outs as Props;
    const [before, after] = [outs.fieldDigests as Props, updated.fieldDigests as Props];
    assert.notEqual(after.workspace, before.workspace);
    assert.deepEqual(
      { ...after, workspace: 0 },
      { ...before, workspace: 0 },
      "the other fields' entries are unchanged",
    );
    assert.ok(Number(updated.lastUpdated) > Number(outs.lastUpdated));
    assert.equal((await impl.diff(id, updated, changed)).changes, false);
  });

  it("a Password changed in the program: check, against the stored inputs, has the diff name it (no digest of it)", async () => {
    const { id, outs } = await configured();
    const stored = (await impl.check({}, inputs())).inputs as Props; // the inputs the state holds
    const rotated = (await impl.check(stored, inputs({ ...SEGMENT_CONFIG, apiKey: "rotated-key" }))).inputs as Props;
    const result = await impl.diff(id, outs, rotated);
    assert.deepEqual(result.detailedDiff, { "secretConfig.apiKey": { kind: "update", inputDiff: true } });
    const updated = (await impl.update(id, outs, rotated)).outs as Props;
    assert.equal((updated.fieldDigests as Props).apiKey, PASSWORD_MARK);
    // The same Password again: check notes nothing, and a diff without a check before it (a refresh's) sees nothing.
    await impl.check(rotated, rotated);
    assert.equal((await impl.diff(id, updated, rotated)).changes, false);
    assert.equal((await impl.diff(id, updated, rotated)).changes, false, "a diff with no check before it");
  });

  it("replaces on another connector or sub-account; updates on unknown values", async () => {
    const { id, outs } = await configured();
    assert.deepEqual(
      (await impl.diff(id, outs, inputs(SEGMENT_CONFIG, { connectorId: CONNECTORS.amplitude }))).replaces,
      ["connectorId"],
    );
    assert.deepEqual((await impl.diff(id, outs, inputs(SEGMENT_CONFIG, { accountId: fx.otherAccountId }))).replaces, [
      "accountId",
    ]);
    const unknown = await impl.diff(id, outs, inputs({ ...SEGMENT_CONFIG, apiKey: UNKNOWN }));
    assert.deepEqual([unknown.changes, unknown.replaces], [true, []]);
  });

  it("the same configuration digests differently when another resource writes it again, and in another sub-account", async () => {
    const first = await configured();
    await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
    const second = await configured();
    // Each resource has its own salt: no two states' digests can be compared.
    const digested = (digests: unknown) =>
      Object.keys(digests as Props).filter((field) => (digests as Props)[field] !== PASSWORD_MARK);
    for (const field of digested(first.outs.fieldDigests))
      assert.notEqual((second.outs.fieldDigests as Props)[field], (first.outs.fieldDigests as Props)[field], field);
    await fx.client.addConnectors(fx.otherAccountId, [CONNECTORS.segment]);
    const elsewhere = (await impl.create(inputs(SEGMENT_CONFIG, { accountId: fx.otherAccountId }))).outs as Props;
    const [here, there] = [first.outs.fieldDigests as Props, elsewhere.fieldDigests as Props];
    for (const field of digested(here)) assert.notEqual(there[field], here[field], field);
  });

  it("detects an out-of-band write through lastUpdated, and a re-apply clears it", async () => {
    const { id, outs } = await configured();
    await fx.client.configure(fx.accountId, CONNECTORS.segment, {
      configurationId: String(outs.configurationId),
      secretConfig: { ...SEGMENT_CONFIG, apiKey: "changed-by-hand" },
    });
    const refreshed = await impl.read(id, outs);
    assert.equal(refreshed.id, id);
    const props = refreshed.props as Props;
    assert.notEqual(props.lastUpdated, props.appliedLastUpdated);
    assert.deepEqual(props.fieldDigests, outs.fieldDigests, "the fields the service returns are unchanged");
    assert.match(
      String(props.drift),
      /^changed out of band at \d{4}-\d\d-\d\dT[\d:]+Z; only a Password can differ \(apiKey\), or the same values were written again$/,
    );
    assert.equal(refreshed.inputs, undefined, "the engine keeps the stored (encrypted) inputs");
    const diff = await impl.diff(id, props, inputs());
    assert.deepEqual(
      [diff.changes, diff.detailedDiff],
      [true, { "secretConfig.apiKey": { kind: "update", inputDiff: true } }],
      "the update writes the Password back",
    );

    const reapplied = (await impl.update(id, props, inputs())).outs as Props;
    assert.equal(reapplied.appliedLastUpdated, reapplied.lastUpdated);
    assert.equal(reapplied.drift, "", "our own write clears the drift");
    const again = await impl.read(id, reapplied);
    assert.equal((await impl.diff(id, again.props as Props, inputs())).changes, false);
  });

  it("detects a changed non-Password digest even when lastUpdated agrees, and names that field", async () => {
    const { id, outs } = await configured();
    const drifted = { ...outs, fieldDigests: { ...(outs.fieldDigests as Props), workspace: "0000000000000000" } };
    const diff = await impl.diff(id, drifted, inputs());
    assert.deepEqual(
      [diff.changes, diff.detailedDiff],
      [true, { "secretConfig.workspace": { kind: "update", inputDiff: true } }],
    );
  });

  it("returns no id on refresh once the connector was removed", async () => {
    const { id, outs } = await configured();
    await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
    assert.equal((await impl.read(id, outs)).id, "");
  });

  it("delete while the program keeps the connector: the configuration stays, with a warning, and nothing is called", async () => {
    const { id } = await configured();
    const check = await addedConnector.check({}, { connectorId: CONNECTORS.segment, accountId: fx.accountId });
    assert.deepEqual(check.failures, []);
    const warnings = captureWarnings();
    const before = mutatingCalls(await fx.service.stats());
    await impl.remove(id, {});
    assert.equal(mutatingCalls(await fx.service.stats()), before);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot unconfigure/);
    assert.ok(warnings[0].includes(id), warnings[0]);
    assert.equal((await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).configured, true);
  });

  it("delete in a run that does not declare the connector (a destroy, or both removed): no warning", async () => {
    const { id } = await configured();
    declaredConnectors().clear();
    const warnings = captureWarnings();
    await impl.remove(id, {});
    assert.deepEqual(warnings, []);
  });

  it("maps service validation errors with their fields", async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const error = await rejection(impl.create(inputs({ ...SEGMENT_CONFIG, batchSize: 999999 })));
    assert.match(error.message, /secretConfig\.batchSize/);
    assert.ok(!error.message.includes(SEGMENT_CONFIG.apiKey));
  });
});
