// What the fleet's fast drift check takes from a checkpoint, and what it leaves to the engine
// (with the reason the report shows); the passphrase provider's decryption of the one secret
// it needs; the names a drift report gives a change.
import { strict as assert } from "node:assert";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { fromDeployment, type StateResource } from "./checkpoint";
import { changedOutputs } from "./changed-outputs";
import { groupByCredentials } from "./credentials";
import { deriveDigestKey } from "../../../provider/connector-configuration/field-digests";
import { passphraseDecrypter } from "./passphrase";
import { keySources } from "./secrets-providers";
import { planStack } from "./plan";
import { renderMarkdown } from "../render";
import { buildReport } from "../report";
import { PLUGIN_VERSION } from "../../../provider/schema/plugin-release";
import { encryptWith } from "../../../bench/passphrase-writer";

const SIG = "4dabf18193072939515e22adb298388d";
const PROVIDER_URN = "urn:pulumi:s1::fleet::pulumi:providers:embedded::acme";
const provider = (inputs: Record<string, unknown> = {}): StateResource => ({
  urn: PROVIDER_URN,
  type: "pulumi:providers:embedded",
  custom: true,
  id: "p1",
  inputs: {
    clientId: "demo-client",
    clientSecret: { [SIG]: "1", ciphertext: "v1:x:y" },
    version: PLUGIN_VERSION,
    ...inputs,
  },
});
const configuration = (outputs: Record<string, unknown> = {}): StateResource => ({
  urn: "urn:pulumi:s1::fleet::embedded:index:ConnectorConfiguration::c01",
  type: "embedded:index:ConnectorConfiguration",
  custom: true,
  id: "a/c",
  provider: `${PROVIDER_URN}::p1`,
  inputs: { connectorId: "c", accountId: "a", secretConfig: { [SIG]: "1", ciphertext: "v1:x:y" } },
  outputs: {
    lastUpdated: 5,
    appliedLastUpdated: 5,
    drift: "",
    fieldDigests: { f: "d" },
    digestKeyId: "k1",
    ...outputs,
  },
});
const stack = (resources: StateResource[]) => ({
  resources,
  secretsProvider: { type: "passphrase" as const, salt: "v1:c2FsdA==:v1:x:y" },
});
const reasonOf = (resources: StateResource[]) => {
  const planned = planStack("s1", stack(resources));
  return "reason" in planned ? planned.reason : undefined;
};

/** Encrypts as Pulumi's passphrase provider does (AES-256-GCM, `v1:<nonce>:<sealed>`). */
const seal = encryptWith;

describe("fleet drift: the fast path's plan, from a checkpoint", () => {
  it("takes the plugin's resources of one embedded provider of this version, secretConfig left encrypted", () => {
    const planned = planStack("s1", stack([provider(), configuration()]));
    assert.ok("plan" in planned, JSON.stringify(planned));
    assert.deepEqual([...planned.plan.digestKeyIds], ["k1"]);
    assert.equal(planned.plan.resources.length, 1);
    assert.equal(planned.plan.providerInputs.version, undefined, "the engine's keys are not settings");
  });

  it("takes a stack whose provider holds a secret embedded:digestKey: the plugin's digests never read it", () => {
    const digestKey = { [SIG]: "1", ciphertext: "v1:x:z" };
    const planned = planStack("s1", stack([provider({ digestKey }), configuration()]));
    assert.ok("plan" in planned, JSON.stringify(planned));
    assert.equal(planned.plan.providerInputs.digestKey, undefined, "neither decrypted nor passed on");
  });

  it("leaves to the engine, saying why: another provider, a dynamic resource, another plugin version", () => {
    const other = {
      urn: "urn:pulumi:s1::fleet::random:index/randomId:RandomId::r",
      type: "random:index/randomId:RandomId",
      custom: true,
      id: "r",
    };
    assert.match(reasonOf([provider(), other]) ?? "", /another provider's resource/);
    const dynamic = { ...other, type: "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector" };
    assert.match(reasonOf([provider(), dynamic]) ?? "", /a dynamic resource/);
    assert.match(reasonOf([provider({ version: "0.0.9" }), configuration()]) ?? "", /its provider is embedded 0\.0\.9/);
  });

  it("leaves to the engine a state refreshed after its apply, or from before the digests", () => {
    assert.match(
      reasonOf([provider(), configuration({ drift: "changed out of band at …" })]) ?? "",
      /refreshed after its last apply/,
    );
    assert.match(reasonOf([provider(), configuration({ lastUpdated: 6 })]) ?? "", /refreshed after its last apply/);
    assert.match(reasonOf([provider(), configuration({ fieldDigests: undefined })]) ?? "", /from before field digests/);
  });

  it("reads state version 3 only, and no checkpoint with pending operations", () => {
    const v4 = fromDeployment({ version: 4, checkpoint: { latest: { resources: [] } } });
    assert.match("reason" in v4 ? v4.reason : "", /state version is 4/);
    const pending = fromDeployment({ version: 3, checkpoint: { latest: { resources: [], pending_operations: [{}] } } });
    assert.match("reason" in pending ? pending.reason : "", /pending operations/);
    const ok = fromDeployment({
      version: 3,
      checkpoint: { latest: { resources: [], secrets_providers: { type: "passphrase", state: { salt: "v1:s" } } } },
    });
    assert.ok("checkpoint" in ok);
    assert.deepEqual(ok.checkpoint.secretsProvider, { type: "passphrase", salt: "v1:s" });
  });
});

describe("fleet drift: every reason a stack goes to the engine", () => {
  // Each case changes one thing of a stack the fast path takes; the reason names it. Without the
  // check, the fast path would read the stack with the fleet's own credentials (and, for a
  // second provider or another version, without the plugin's version check).
  const SECOND_PROVIDER_URN = "urn:pulumi:s1::fleet::pulumi:providers:embedded::globex";
  const added = (extra: Partial<StateResource> = {}): StateResource => ({
    urn: "urn:pulumi:s1::fleet::embedded:index:AddedConnector::a01",
    type: "embedded:index:AddedConnector",
    custom: true,
    id: "a/c",
    provider: `${PROVIDER_URN}::p1`,
    inputs: { connectorId: "c", accountId: "a" },
    outputs: { connectorId: "c", accountId: "a" },
    ...extra,
  });
  const secret = { [SIG]: "1", ciphertext: "v1:x:y" };
  const cases: [string, StateResource[], RegExp][] = [
    ["pending deletion", [provider(), { ...configuration(), delete: true }], /is pending deletion or replacement/],
    [
      "pending replacement",
      [provider(), { ...added(), pendingReplacement: true }],
      /is pending deletion or replacement/,
    ],
    [
      "another provider's resource",
      [provider(), added(), { urn: "urn:pulumi:s1::fleet::random:index:Id::r", type: "random:index:Id", custom: true }],
      /another provider's resource/,
    ],
    [
      "a dynamic resource",
      [provider(), { ...added(), type: "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector" }],
      /a dynamic resource \(the fast path reads the plugin's resources\)/,
    ],
    ["no id", [provider(), added({ id: undefined })], /has no id or provider/],
    ["no provider", [provider(), added({ provider: undefined })], /has no id or provider/],
    [
      "a provider the state does not hold",
      [provider(), added({ provider: `${PROVIDER_URN}::p2` })],
      /has no id or provider/,
    ],
    [
      "a secret output",
      [provider(), added({ outputs: { connectorId: "c", name: secret } })],
      /holds a secret the fast path would have to decrypt/,
    ],
    [
      "a secret input other than secretConfig",
      [provider(), { ...configuration(), inputs: { connectorId: secret } }],
      /holds a secret/,
    ],
    [
      "a configuration from before digests",
      [provider(), configuration({ digestKeyId: undefined })],
      /from before field digests/,
    ],
    [
      "refreshed since its apply",
      [provider(), configuration({ appliedLastUpdated: 4 })],
      /refreshed after its last apply/,
    ],
    [
      "more than one embedded provider",
      [
        provider(),
        { ...provider(), urn: SECOND_PROVIDER_URN },
        added(),
        added({
          urn: "urn:pulumi:s1::fleet::embedded:index:AddedConnector::a02",
          provider: `${SECOND_PROVIDER_URN}::p1`,
        }),
      ],
      /its resources use more than one embedded provider/,
    ],
    [
      "another plugin version",
      [provider({ version: "0.0.1" }), added()],
      new RegExp(`its provider is embedded 0\\.0\\.1, this fleet command runs ${PLUGIN_VERSION.replace(/\./g, "\\.")}`),
    ],
    ["no plugin version", [provider({ version: undefined }), added()], /its provider is embedded undefined/],
    [
      "a secret provider setting",
      [provider({ baseUrl: secret }), added()],
      /its provider holds a secret setting other than clientSecret/,
    ],
  ];
  for (const [what, resources, expected] of cases) {
    it(`${what}: the engine checks it`, () => {
      assert.match(reasonOf(resources) ?? "(taken by the fast path)", expected);
    });
  }

  it("the same stacks without that one change are taken by the fast path", () => {
    for (const resources of [
      [provider(), added(), configuration()],
      [provider(), { ...provider(), urn: SECOND_PROVIDER_URN }, added()], // a second provider no resource uses
      [provider()],
      [],
    ])
      assert.equal(reasonOf(resources), undefined, JSON.stringify(resources.map((r) => r.urn)));
  });
});

describe("fleet drift: the passphrase provider's decryption", () => {
  it("decrypts a value under the stack's salt, and refuses a wrong passphrase", async function () {
    this.timeout(60_000);
    const salt = randomBytes(8);
    const key = pbkdf2Sync("the passphrase", salt, 1_000_000, 32, "sha256");
    const saltState = `v1:${salt.toString("base64")}:${seal(key, "pulumi")}`;
    const decrypter = await passphraseDecrypter("the passphrase", saltState);
    assert.equal(decrypter.decrypt(seal(key, JSON.stringify("client-secret"))), JSON.stringify("client-secret"));
    await assert.rejects(passphraseDecrypter("another one", saltState), /incorrect passphrase/);
  });
});

describe("fleet drift: the names of a change", () => {
  it("names the outputs that differ, an object's keys one level down, never a value", () => {
    const names = changedOutputs(
      { lastUpdated: 1, drift: "", fieldDigests: { a: "1", b: "2" }, name: "x" },
      { lastUpdated: 2, drift: "changed", fieldDigests: { a: "1", b: "3", c: "4" }, name: "x" },
    );
    assert.deepEqual(names, ["drift", "fieldDigests.b", "fieldDigests.c", "lastUpdated"]);
  });
});

describe("fleet drift: the report of stacks left to the engine", () => {
  it("says which stacks the engine checked and why, and what the command answers", () => {
    const report = buildReport("drift", "fleet", "every stack", new Date(), [
      { stack: "s1", status: "clean", durationMs: 1, resources: [], checkedBy: "checkpoint" },
      {
        stack: "s2",
        status: "clean",
        durationMs: 1,
        resources: [],
        checkedBy: "engine",
        engineBecause: "its state version is 4",
      },
    ]);
    assert.match(report.semantics, /pulumi refresh --preview-only --expect-no-changes/);
    const markdown = renderMarkdown(report);
    assert.match(markdown, /- s2: its state version is 4/);
    assert.doesNotMatch(markdown, /- s1:/);
  });
});

describe("fleet drift: one client secret decrypted per customer", () => {
  it("derives one key for a customer's stacks (each its own salt and sub-account), matched by digest key id", async function () {
    this.timeout(120_000);
    const secret = "customer-secret";
    const keyId = (await deriveDigestKey(secret)).id;
    const plans = await Promise.all(
      ["s1", "s2", "s3"].map(async (stack, i) => {
        const salt = randomBytes(8);
        const key = pbkdf2Sync("the passphrase", salt, 1_000_000, 32, "sha256");
        return {
          stack,
          providerInputs: {
            clientId: "demo-client",
            accountId: `a${i}`,
            clientSecret: { [SIG]: "1", ciphertext: seal(key, JSON.stringify(secret)) },
          },
          secretsProvider: {
            type: "passphrase" as const,
            salt: `v1:${salt.toString("base64")}:${seal(key, "pulumi")}`,
          },
          resources: [configuration()],
          digestKeyIds: new Set([keyId]),
        };
      }),
    );
    const grouping = await groupByCredentials(plans, keySources("the passphrase"));
    assert.equal(grouping.decryptions, 1, "one key derivation for the customer");
    assert.deepEqual(
      grouping.ready.map((r) => [r.plan.stack, r.settings.clientSecret, r.settings.accountId]),
      [
        ["s1", secret, "a0"],
        ["s2", secret, "a1"],
        ["s3", secret, "a2"],
      ],
    );
    const wrong = await groupByCredentials(plans.slice(0, 1), keySources("another passphrase"));
    assert.match(wrong.refused.get("s1") ?? "", /incorrect passphrase/);
    assert.ok(!(wrong.refused.get("s1") ?? "").includes(secret));
  });
});

describe("fleet drift: the plugin's digest salt, a secret input", () => {
  it("the plan takes a configuration whose one other secret is its __digestSalt input; the stack's key decrypts it in place", async function () {
    this.timeout(120_000);
    const salt = randomBytes(8);
    const key = pbkdf2Sync("the passphrase", salt, 1_000_000, 32, "sha256");
    const digestSalt = randomBytes(16).toString("hex");
    const salted = configuration();
    salted.inputs = {
      ...salted.inputs,
      __digestSalt: { [SIG]: "1", ciphertext: seal(key, JSON.stringify(digestSalt)) },
    };
    const planned = planStack("s1", {
      resources: [provider({ clientSecret: "plain" }), salted],
      secretsProvider: { type: "passphrase", salt: `v1:${salt.toString("base64")}:${seal(key, "pulumi")}` },
    });
    assert.ok("plan" in planned, JSON.stringify(planned));
    assert.equal(planned.plan.salted, true, "the salt is a secret to decrypt");
    const grouping = await groupByCredentials([planned.plan], keySources("the passphrase"));
    assert.deepEqual([...grouping.refused], []);
    assert.equal(grouping.ready[0].plan.resources[0].inputs?.__digestSalt, digestSalt, "decrypted for the key");
    // Any other secret input still sends the stack to the engine.
    const other = configuration();
    other.inputs = { ...other.inputs, name: { [SIG]: "1", ciphertext: "v1:x:y" } };
    assert.match(reasonOf([provider(), other]) ?? "", /holds a secret the fast path would have to decrypt/);
  });
});
