// `embedded:digestKey`, a stack secret the dynamic
// provider mixes into the key of the field digests, so that the salt `pulumi up --debug` prints
// (`digestSalt`) and the client secret no longer confirm a guess. The outputs say which recipe
// keyed them (`digestRecipe`, never the key): a state written before keeps comparing under its
// recipe, and setting, changing or removing the key never shows drift; the next write re-keys.
import assert from "node:assert/strict";
import { createHmac, randomBytes, scryptSync } from "node:crypto";
import * as impl from "./steps";
import { DIGEST_KEY_RECIPE } from "./digest-salt";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { noDigestKeyWarning, resolveSettings, SET_DIGEST_KEY, SETTINGS, SettingsError } from "../settings/resolve";
import { CONNECTORS, SEGMENT_CONFIG, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;
type Digests = Record<string, string>;

/** The scrypt base key of the client secret, written out independently of the provider. */
function baseKey(clientSecret: string): Buffer {
  return scryptSync(clientSecret, "pulumi-embedded-connectors/field-digest-key/v1", 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
}

describe("ConnectorConfiguration provider: embedded:digestKey (dynamic host)", () => {
  const fx = useProviderFixture();
  const clientSecret = () => fx.config["embedded:clientSecret"] as string;
  const digestKeyA = randomBytes(32).toString("hex");
  const digestKeyB = randomBytes(32).toString("hex");
  const withKey = (digestKey: string | undefined) => useConfig(fx, { "embedded:digestKey": digestKey });

  const program = (secretConfig: Props = SEGMENT_CONFIG): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig,
  });
  /** As the engine: check against the stored inputs, then create; returns the stored inputs too. */
  async function created(): Promise<{ id: string; outs: Props; stored: Props }> {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const stored = (await impl.check({}, program())).inputs as Props;
    const { id, outs } = await impl.create(stored);
    return { id, outs: outs as Props, stored };
  }
  /** As the engine's up: check the program against the stored inputs, then diff. */
  async function diffOf(id: string, outs: Props, stored: Props, desired: Props = program()) {
    const news = (await impl.check(stored, desired)).inputs as Props;
    return impl.diff(id, outs, news);
  }
  const workspaceDigest = (key: Buffer, outs: Props) =>
    createHmac("sha256", key)
      .update(JSON.stringify([fx.accountId, CONNECTORS.segment, "workspace", `string:${SEGMENT_CONFIG.workspace}`]))
      .digest("hex")
      .slice(0, 16) === (outs.fieldDigests as Digests).workspace;

  it("keys the digests under the salt AND the key: the printed salt and the client secret confirm no guess", async () => {
    withKey(digestKeyA);
    const { outs } = await created();
    assert.equal(outs.digestRecipe, DIGEST_KEY_RECIPE, "the outputs say which recipe keyed them");
    assert.ok(!JSON.stringify(outs).includes(digestKeyA), "no output holds the key");
    const base = baseKey(clientSecret());
    const salted = createHmac("sha256", base)
      .update(`pulumi-embedded-connectors/field-digest-key/v2-salted\n${String(outs.digestSalt)}`)
      .digest();
    assert.ok(!workspaceDigest(salted, outs), "the salt and the client secret confirm the right Text");
    // The recipe, written out: with the key, the right Text is confirmed (the test's procedure works).
    const keyed = createHmac("sha256", base)
      .update(
        JSON.stringify(["pulumi-embedded-connectors/field-digest-key/v3-digest-key", digestKeyA, outs.digestSalt]),
      )
      .digest();
    assert.ok(workspaceDigest(keyed, outs), "the documented recipe does not reproduce the digest");
  });

  it("a state written without it keeps comparing under its recipe once it is set; the next write re-keys", async () => {
    withKey(undefined);
    const { id, outs, stored } = await created();
    assert.equal(outs.digestRecipe, undefined);
    withKey(digestKeyA);
    const read = (await impl.read(id, outs, stored)).props as Props;
    assert.equal(read.drift, "");
    assert.deepEqual(read.fieldDigests, outs.fieldDigests);
    assert.equal(read.digestKeyId, outs.digestKeyId);
    assert.equal((await diffOf(id, read, stored)).changes, false, "setting the key shows no change");
    const changed = program({ ...SEGMENT_CONFIG, workspace: "other-workspace" });
    assert.deepEqual((await diffOf(id, read, stored, changed)).detailedDiff, {
      "secretConfig.workspace": { kind: "update", inputDiff: true },
    });
    const written = (await impl.update(id, read, (await impl.check(stored, changed)).inputs as Props)).outs as Props;
    assert.equal(written.digestRecipe, DIGEST_KEY_RECIPE);
    // A new salt: the earlier checkpoints' digests need the one the logs before the key printed.
    assert.match(String(written.digestSalt), /^[0-9a-f]{32}$/);
    assert.notEqual(written.digestSalt, outs.digestSalt, "the first keyed write draws a new salt");
    assert.notEqual(written.digestKeyId, outs.digestKeyId, "re-keyed");
    assert.equal((await diffOf(id, written, stored, changed)).changes, false);
  });

  for (const [change, next] of [
    ["changing", () => digestKeyB],
    ["removing", () => undefined],
  ] as const) {
    it(`${change} the key shows no drift on read or diff, names a changed field, and sees an out-of-band write`, async () => {
      withKey(digestKeyA);
      const { id, outs, stored } = await created();
      withKey(next());
      const read = (await impl.read(id, outs, stored)).props as Props;
      assert.equal(read.drift, "", "no drift read");
      for (const kept of ["fieldDigests", "digestKeyId", "digestSalt", "digestRecipe"])
        assert.deepEqual(read[kept], outs[kept], `${kept} kept until the next write`);
      const same = await diffOf(id, read, stored);
      assert.equal(same.changes, false, `no change planned for the same program: ${JSON.stringify(same)}`);
      const changed = program({ ...SEGMENT_CONFIG, workspace: "other-workspace", batchSize: 250 });
      assert.deepEqual((await diffOf(id, read, stored, changed)).detailedDiff, {
        "secretConfig.batchSize": { kind: "update", inputDiff: true },
        "secretConfig.workspace": { kind: "update", inputDiff: true },
      });
      // Written out of band: lastUpdated tells it, in words, and the up writes the program back.
      await fx.client.configure(fx.accountId, CONNECTORS.segment, {
        configurationId: String(outs.configurationId),
        secretConfig: { ...SEGMENT_CONFIG, workspace: "changed-by-hand" },
      });
      const drifted = (await impl.read(id, read, stored)).props as Props;
      assert.match(String(drifted.drift), /which fields cannot be told: embedded:digestKey/);
      assert.equal((await diffOf(id, drifted, stored)).changes, true, "the out-of-band write is repaired");
      const written = (await impl.update(id, drifted, stored)).outs as Props;
      assert.equal(written.digestRecipe, next() === undefined ? undefined : DIGEST_KEY_RECIPE);
      assert.notEqual(written.digestKeyId, outs.digestKeyId, "the write re-keys");
      const after = (await impl.read(id, written, stored)).props as Props;
      assert.equal(after.drift, "");
      assert.deepEqual(after.fieldDigests, written.fieldDigests);
      assert.equal((await diffOf(id, after, stored)).changes, false);
    });
  }

  it("is a secret setting, refused when too short to be random, never quoted", () => {
    assert.equal(SETTINGS.digestKey.secret, true);
    const settings = { baseUrl: "https://api.example.com", clientId: "id", clientSecret: "s" };
    const short = "guessable-digest-key";
    const config = (name: string) => ({ ...settings, digestKey: short })[name];
    assert.throws(
      () => resolveSettings(config, {}),
      (error: Error) =>
        error instanceof SettingsError &&
        /embedded:digestKey .*at least 32 random characters.*openssl rand -hex 32/.test(error.message) &&
        !error.message.includes(short),
    );
    const long = (name: string) => ({ ...settings, digestKey: digestKeyA })[name];
    assert.equal(resolveSettings(long, {}).digestKey, digestKeyA);
  });

  it("the warning, the setting's description and the docs give the same command", () => {
    assert.equal(SET_DIGEST_KEY, 'pulumi config set --secret embedded:digestKey "$(openssl rand -hex 32)"');
    assert.ok(noDigestKeyWarning().includes(SET_DIGEST_KEY));
    assert.ok(SETTINGS.digestKey.description.includes(SET_DIGEST_KEY));
    const root = path.resolve(__dirname, "..", "..", "..");
    for (const doc of ["docs/secrets.md", "docs/installation-configuration.md"])
      assert.ok(readFileSync(path.join(root, doc), "utf8").includes(SET_DIGEST_KEY), doc);
  });
});
