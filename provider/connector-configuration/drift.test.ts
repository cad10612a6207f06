// ConnectorConfiguration's drift by field against the local service: a refresh
// names the fields changed out of band (digests and `drift`), diff names the fields the update
// writes, a changed client secret and a state from before the digests each cost one update.
import assert from "node:assert/strict";
import * as impl from "./steps";
import { CONNECTORS, SEGMENT_CONFIG, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;

describe("ConnectorConfiguration drift by field", () => {
  const fx = useProviderFixture();

  const inputs = (secretConfig: Props = SEGMENT_CONFIG): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig,
    __provider: "p",
  });

  async function configured(): Promise<{ id: string; outs: Props }> {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const { id, outs } = await impl.create(inputs());
    return { id, outs: outs as Props };
  }

  /** A write by someone else (a console, a colleague): the whole configuration, as Configure takes it. */
  const outOfBand = (outs: Props, secretConfig: Record<string, string | number | string[]>) =>
    fx.client.configure(fx.accountId, CONNECTORS.segment, {
      configurationId: String(outs.configurationId),
      secretConfig,
    });

  for (const [type, field, value] of [
    ["Text", "workspace", "someone-else"],
    ["Number", "batchSize", 250],
    ["Date", "backfillFrom", "2024-02-29"],
    ["Select", "dataCenter", "APAC"],
    ["Multi-Select", "eventTypes", ["identify"]],
  ] as const) {
    it(`a ${type} field changed out of band: the refresh and the diff name it, and only it, with no value`, async () => {
      const { id, outs } = await configured();
      await outOfBand(outs, { ...SEGMENT_CONFIG, [field]: value });
      const read = (await impl.read(id, outs)).props as Props;
      const [before, after] = [
        outs.fieldDigests as Record<string, string>,
        read.fieldDigests as Record<string, string>,
      ];
      const moved = Object.keys({ ...before, ...after }).filter((f) => before[f] !== after[f]);
      assert.deepEqual(moved, [field], "the refresh's output diff shows fieldDigests.<field> changing");
      assert.match(String(read.drift), new RegExp(`^changed out of band at \\S+Z: ${field}$`));
      const diff = await impl.diff(id, read, inputs());
      const kind = type === "Date" ? "delete" : "update"; // the program sets no Date: the update clears it
      assert.deepEqual(diff.detailedDiff, { [`secretConfig.${field}`]: { kind, inputDiff: true } });
      const text = JSON.stringify([read, diff]);
      for (const shown of [
        JSON.stringify(value).replace(/^"|"$/g, ""),
        String(SEGMENT_CONFIG[field as keyof typeof SEGMENT_CONFIG] ?? "-none-"),
      ]) {
        // As a value of its own: a short number (250) may stand inside a random hex digest by chance.
        const alone = new RegExp(`(?<![A-Za-z0-9])${shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`);
        assert.ok(!alone.test(text), `no value (${type}) in the outputs or the diff`);
      }
      // A second refresh with nothing new keeps the drift; the update clears it.
      assert.equal(((await impl.read(id, read)).props as Props).drift, read.drift);
      const repaired = (await impl.update(id, read, inputs())).outs as Props;
      assert.deepEqual([repaired.drift, repaired.fieldDigests], ["", before]);
    });
  }

  it("the same values written again: no field named, the Password said in words, the update names it", async () => {
    const { id, outs } = await configured();
    await outOfBand(outs, { ...SEGMENT_CONFIG, batchSize: "100.0", eventTypes: "page, track" }); // stored alike
    const read = (await impl.read(id, outs)).props as Props;
    assert.deepEqual(read.fieldDigests, outs.fieldDigests);
    assert.match(String(read.drift), /only a Password can differ \(apiKey\), or the same values were written again$/);
    assert.deepEqual((await impl.diff(id, read, inputs())).detailedDiff, {
      "secretConfig.apiKey": { kind: "update", inputDiff: true },
    });
  });

  it("another client secret: the digests cannot be compared, one update re-writes and records them", async () => {
    const { id, outs } = await configured();
    useConfig(fx, { "embedded:clientSecret": "rotated-client-secret" }, fx.client); // the same service account
    const diff = await impl.diff(id, outs, inputs());
    assert.deepEqual([diff.changes, diff.detailedDiff], [true, { secretConfig: { kind: "update", inputDiff: true } }]);
    const read = (await impl.read(id, outs)).props as Props;
    assert.notEqual(read.digestKeyId, outs.digestKeyId);
    assert.equal(read.drift, "", "nothing was written out of band");
    assert.equal(
      (await impl.diff(id, read, inputs())).changes,
      true,
      "the Password's digest is under the old key: written again",
    );
    const updated = (await impl.update(id, read, inputs())).outs as Props;
    assert.equal((await impl.diff(id, updated, inputs())).changes, false);
  });

  it("a state from before the digests (values, fingerprint): one update, and a refresh gives the new shape", async () => {
    const { id, outs } = await configured();
    const { fieldDigests: _d, digestKeyId: _k, drift: _x, ...rest } = outs;
    const legacy = { ...rest, values: { workspace: "acme" }, fingerprint: "hmac-sha256:00", fingerprintSalt: "00" };
    const diff = await impl.diff(id, legacy, inputs());
    assert.deepEqual([diff.changes, diff.detailedDiff], [true, { secretConfig: { kind: "update", inputDiff: true } }]);
    const read = (await impl.read(id, legacy)).props as Props;
    for (const key of ["values", "fingerprint", "fingerprintSalt"])
      assert.ok(!(key in read), `the refresh drops ${key}`);
    assert.deepEqual([typeof read.digestKeyId, read.drift], ["string", ""]);
    assert.deepEqual((await impl.diff(id, read, inputs())).detailedDiff, {
      "secretConfig.apiKey": { kind: "add", inputDiff: true },
    });
    const updated = (await impl.update(id, read, inputs())).outs as Props;
    assert.deepEqual(updated.fieldDigests, outs.fieldDigests);
    assert.equal((await impl.diff(id, updated, inputs())).changes, false);
  });
});
