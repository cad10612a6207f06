// The fast drift check's keys on a real fleet: every stack its own salt, so one
// PBKDF2 per stack, derived across the cores (libuv's pool, DERIVATIONS_AT_ONCE at a time), and
// each stack checked as soon as its own key is open (the feed), not after the whole fleet's.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import type { StateResource } from "./checkpoint";
import { groupByCredentials, type ReadyStack } from "./credentials";
import { stackFeed } from "./fast";
import { DERIVATIONS_AT_ONCE } from "./passphrase";
import type { StackPlan } from "./plan";
import { keySources, type KeySourceOf } from "./secrets-providers";
import { deriveDigestKey } from "../../../provider/connector-configuration/field-digests";
import { encryptWith, newPassphraseStack } from "../../../bench/passphrase-writer";

const SIG = "4dabf18193072939515e22adb298388d";
const PASSPHRASE = "the passphrase";

/** A stack under its own salt, its configuration's digest salt a secret (as the plugin writes it). */
async function saltedStack(stack: string, clientSecret: string, keyId: string) {
  const own = await newPassphraseStack(PASSPHRASE);
  const digestSalt = randomBytes(8).toString("hex");
  const sealed = (value: string) => ({ [SIG]: "1", ciphertext: encryptWith(own.key, JSON.stringify(value)) });
  const configuration: StateResource = {
    urn: `urn:pulumi:${stack}::fleet::embedded:index:ConnectorConfiguration::c01`,
    type: "embedded:index:ConnectorConfiguration",
    id: "a/c",
    inputs: { connectorId: "c", accountId: "a", __digestSalt: sealed(digestSalt) },
    outputs: { fieldDigests: {}, digestKeyId: keyId },
  };
  const plan: StackPlan = {
    stack,
    providerInputs: { clientId: "demo-client", clientSecret: sealed(clientSecret) },
    secretsProvider: { type: "passphrase", salt: own.saltState },
    resources: [configuration],
    digestKeyIds: new Set([keyId]),
    salted: true,
  };
  return { plan, digestSalt };
}

describe("fleet drift: one key per stack, derived across the cores, each stack fed as its key opens", function () {
  this.timeout(120_000);

  it("the feed hands out what was pushed, in order, to readers that came before or after, then ends", async () => {
    const feed = stackFeed();
    const item = (stack: string) => ({ plan: { stack }, settings: {} }) as unknown as ReadyStack;
    const early = feed.next();
    feed.push(item("a"));
    feed.push(item("b"));
    assert.equal((await early)?.plan.stack, "a");
    assert.equal((await feed.next())?.plan.stack, "b");
    const waiting = feed.next();
    feed.end();
    assert.equal(await waiting, undefined);
    assert.equal(await feed.next(), undefined);
  });

  it("each stack's digest salt opens with its own key; the first stacks are ready before the last key is derived", async () => {
    const secret = "customer-secret";
    const keyId = (await deriveDigestKey(secret)).id;
    const count = DERIVATIONS_AT_ONCE + 2; // at least two derivations wait for a slot
    const stacks = await Promise.all(Array.from({ length: count }, (_, i) => saltedStack(`s${i + 1}`, secret, keyId)));
    const events: string[] = [];
    const sources = keySources(PASSPHRASE);
    const watched: KeySourceOf = (provider) => {
      const source = sources(provider);
      if ("reason" in source) return source;
      const stack = stacks.find((s) => s.plan.secretsProvider === provider)?.plan.stack;
      return { id: source.id, open: () => source.open().finally(() => events.push(`key ${stack}`)) };
    };
    const fed: string[] = [];
    const grouping = await groupByCredentials(
      stacks.map((s) => s.plan),
      watched,
      (ready) => {
        fed.push(ready.plan.stack);
        events.push(`ready ${ready.plan.stack}`);
      },
    );
    assert.deepEqual([...grouping.refused], []);
    assert.equal(grouping.decryptions, count, "one key per stack: each has its own salt");
    assert.deepEqual(
      fed,
      grouping.ready.map((r) => r.plan.stack),
      "every ready stack fed, once",
    );
    for (const [i, s] of stacks.entries()) {
      const ready = grouping.ready.find((r) => r.plan.stack === s.plan.stack);
      assert.equal(ready?.plan.resources[0].inputs?.__digestSalt, s.digestSalt, `${s.plan.stack}: its own salt`);
      assert.equal(ready?.settings.clientSecret, secret, `stack ${i + 1}`);
    }
    const lastKey = events.lastIndexOf(events.filter((e) => e.startsWith("key ")).at(-1)!);
    assert.ok(events.indexOf("ready s1") < lastKey, `s1 fed before the last key was derived: ${events.join(", ")}`);
  });
});
