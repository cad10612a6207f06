// The key of the field digests is salted per resource with randomness kept in
// the state as a secret (`digestSalt`). One dictionary no longer serves against every state, two
// stacks managing one connector show different digests, and the client secret alone no longer
// tests a guessed value (of a Password or of the client secret itself) against a state. A state
// written by the previous version (unsalted digests) refreshes and diffs without false drift.
import assert from "node:assert/strict";
import { createHmac, scryptSync } from "node:crypto";
import * as impl from "./steps";
import { CONNECTOR_CONFIGURATION } from "../schema/connector-configuration";
import { resourceSecrets } from "../schema/secrets";
import { canonicalValue, fieldDigest, PASSWORD_MARK, type DigestKey } from "./field-digests";
import { CONNECTORS, SEGMENT_CONFIG, useProviderFixture } from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;
type Digests = Record<string, string>;

/** The previous version's key, written out independently: scrypt under a constant salt (its label). */
function previousVersionKey(clientSecret: string): DigestKey {
  const key = scryptSync(clientSecret, "pulumi-embedded-connectors/field-digest-key/v1", 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  const id = createHmac("sha256", key).update("pulumi-embedded-connectors/field-digest-key-id/v1").digest("hex");
  return { key, id: id.slice(0, 12) };
}

describe("ConnectorConfiguration provider: salted field digests", () => {
  const fx = useProviderFixture();
  const clientSecret = () => fx.config["embedded:clientSecret"] as string;

  const inputs = (extra: Props = {}): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig: SEGMENT_CONFIG,
    ...extra,
  });
  async function created(extra: Props = {}): Promise<{ id: string; outs: Props }> {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const { id, outs } = await impl.create(inputs(extra));
    return { id, outs: outs as Props };
  }

  it("each resource draws its own secret salt: two stacks managing one connector share no digest and no key id", async () => {
    const a = await created();
    const b = await created({ adoptExisting: true }); // stack B, same values, same client secret
    assert.match(String(a.outs.digestSalt), /^[0-9a-f]{32}$/);
    assert.notEqual(a.outs.digestSalt, b.outs.digestSalt);
    assert.notEqual(a.outs.digestKeyId, b.outs.digestKeyId);
    const [da, db] = [a.outs.fieldDigests as Digests, b.outs.fieldDigests as Digests];
    for (const field of Object.keys(da).filter((f) => da[f] !== PASSWORD_MARK))
      assert.notEqual(da[field], db[field], field);
    assert.ok(resourceSecrets(CONNECTOR_CONFIGURATION).includes("digestSalt"), "the salt is a secret in both hosts");
  });

  it("the client secret and the plain outputs cannot test a guess, nor the client secret, without the salt", async () => {
    const { outs } = await created();
    const stored = (outs.fieldDigests as Digests).workspace;
    const guess = (key: DigestKey) =>
      fieldDigest(
        key,
        fx.accountId,
        CONNECTORS.segment,
        "workspace",
        canonicalValue(SEGMENT_CONFIG.workspace, "string")!,
      );
    // The previous version's derivation (one dictionary for every state) confirms nothing now,
    // even with the right client secret and the right Password.
    const unsalted = previousVersionKey(clientSecret());
    assert.notEqual(guess(unsalted), stored);
    assert.notEqual(unsalted.id, outs.digestKeyId, "digestKeyId is no oracle for the client secret without the salt");
    // With the salt (a secret of the state) the provider itself reproduces it: the salt is what is needed.
    const salted = createHmac("sha256", unsalted.key)
      .update(`pulumi-embedded-connectors/field-digest-key/v2-salted\n${String(outs.digestSalt)}`)
      .digest();
    assert.equal(guess({ key: salted, id: "" }), stored);
  });

  it("an update keeps the resource's salt: only the changed field's digest moves", async () => {
    const { id, outs } = await created();
    const changed = inputs({ secretConfig: { ...SEGMENT_CONFIG, workspace: "other-workspace" } });
    const updated = (await impl.update(id, outs, changed)).outs as Props;
    assert.equal(updated.digestSalt, outs.digestSalt);
    const [before, after] = [outs.fieldDigests as Digests, updated.fieldDigests as Digests];
    assert.deepEqual(
      Object.keys(after).filter((f) => after[f] !== before[f]),
      ["workspace"],
    );
  });

  describe("a state written by the previous version (no digestSalt, unsalted digests)", () => {
    /** What the previous version wrote for `inputs()`: its digests under its key, and no salt. */
    async function previousVersionState(): Promise<{ id: string; outs: Props }> {
      const { id, outs } = await created();
      const key = previousVersionKey(clientSecret());
      const fieldDigests: Digests = {};
      for (const [field, value] of Object.entries(SEGMENT_CONFIG)) {
        const rule = typeof value === "number" ? "number" : Array.isArray(value) ? "list" : "string";
        fieldDigests[field] = fieldDigest(key, fx.accountId, CONNECTORS.segment, field, canonicalValue(value, rule)!);
      }
      const { digestSalt: _salt, ...rest } = outs;
      return { id, outs: { ...rest, fieldDigests, digestKeyId: key.id } };
    }

    it("diff with the same program: no change; with a changed Password: that field only", async () => {
      const { id, outs } = await previousVersionState();
      assert.equal((await impl.diff(id, outs, inputs())).changes, false);
      const rotated = inputs({ secretConfig: { ...SEGMENT_CONFIG, apiKey: "rotated" } });
      assert.deepEqual((await impl.diff(id, outs, rotated)).detailedDiff, {
        "secretConfig.apiKey": { kind: "update", inputDiff: true },
      });
    });

    it("refresh: no drift, the same digests and key id, no salt invented; then no diff", async () => {
      const { id, outs } = await previousVersionState();
      const read = (await impl.read(id, outs)).props as Props;
      assert.equal(read.drift, "");
      assert.deepEqual(read.fieldDigests, outs.fieldDigests);
      assert.equal(read.digestKeyId, outs.digestKeyId);
      assert.equal(read.digestSalt, undefined);
      assert.equal((await impl.diff(id, read, inputs())).changes, false);
    });

    it("an out-of-band change is still named by field; the next write salts the state and marks its Password", async () => {
      const { id, outs } = await previousVersionState();
      await fx.client.configure(fx.accountId, CONNECTORS.segment, {
        configurationId: String(outs.configurationId),
        secretConfig: { ...SEGMENT_CONFIG, workspace: "changed-by-hand" },
      });
      const read = (await impl.read(id, outs)).props as Props;
      assert.match(String(read.drift), /^changed out of band at \S+Z: workspace$/);
      const diff = await impl.diff(id, read, inputs());
      assert.deepEqual(diff.detailedDiff, { "secretConfig.workspace": { kind: "update", inputDiff: true } });
      const written = (await impl.update(id, read, inputs())).outs as Props;
      assert.match(String(written.digestSalt), /^[0-9a-f]{32}$/);
      assert.equal((written.fieldDigests as Digests).apiKey, PASSWORD_MARK, "the write drops the Password's digest");
      assert.equal(written.drift, "");
      assert.equal((await impl.diff(id, written, inputs())).changes, false);
    });
  });
});
