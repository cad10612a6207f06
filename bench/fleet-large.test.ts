// The generated stacks of `npm run bench:fleet --large` (bench/fleet-large.ts): each its own
// encryption salt, written as `pulumi stack init` and the engine write them, and read back by the
// fleet's own reader (cli/fleet/drift/passphrase.ts), as `fleet drift` reads a real fleet.
import { strict as assert } from "node:assert";
import { pbkdf2Sync } from "node:crypto";
import { passphraseDecrypter } from "../cli/fleet/drift/passphrase";
import { reencryptSecrets, restampStackFile } from "./fleet-large";
import { encryptWith, newPassphraseStack, PASSPHRASE_ROUNDS } from "./passphrase-writer";

const SIG = "4dabf18193072939515e22adb298388d";
const secret = (key: Buffer, value: unknown) => ({
  [SIG]: "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: encryptWith(key, JSON.stringify(value)),
});

describe("bench: generated stacks with their own salt (fleet-large.ts, passphrase-writer.ts)", function () {
  this.timeout(60_000);
  const passphrase = "bench-passphrase-not-a-secret";

  it("a new stack's salt state opens with the fleet's reader, and a wrong passphrase is refused", async () => {
    const stack = await newPassphraseStack(passphrase);
    assert.match(stack.saltState, /^v1:[A-Za-z0-9+/]{11}=:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    const decrypter = await passphraseDecrypter(passphrase, stack.saltState);
    assert.equal(decrypter.decrypt(encryptWith(stack.key, '"client-secret"')), '"client-secret"');
    await assert.rejects(passphraseDecrypter("another", stack.saltState), /incorrect passphrase/);
  });

  it("keys derived side by side (libuv's pool) are each stack's own and the same as one derived alone", async () => {
    const stacks = await Promise.all(Array.from({ length: 3 }, () => newPassphraseStack(passphrase)));
    assert.equal(new Set(stacks.map((s) => s.saltState.split(":")[1])).size, 3, "each stack its own salt");
    const decrypters = await Promise.all(stacks.map((s) => passphraseDecrypter(passphrase, s.saltState)));
    stacks.forEach((s, i) => {
      const salt = Buffer.from(s.saltState.split(":")[1], "base64");
      const alone = pbkdf2Sync(passphrase, salt, PASSPHRASE_ROUNDS, 32, "sha256");
      assert.deepEqual(s.key, alone);
      const value = `"value of stack ${i}"`;
      assert.equal(decrypters[i].decrypt(encryptWith(alone, value)), value);
      // Another stack's key does not open it.
      assert.throws(() => decrypters[(i + 1) % 3].decrypt(encryptWith(alone, value)));
    });
  });

  it("re-encrypts every secret of a checkpoint and the stack file's secure values under the new stack's key", async () => {
    const [template, mine] = await Promise.all([newPassphraseStack(passphrase), newPassphraseStack(passphrase)]);
    const from = await passphraseDecrypter(passphrase, template.saltState);
    const resources = [
      { urn: "p", inputs: { clientSecret: secret(template.key, "cs"), baseUrl: "http://x" } },
      {
        urn: "c",
        inputs: { secretConfig: secret(template.key, { password: "pw" }) },
        outputs: { list: [secret(template.key, "salt")] },
      },
    ];
    const copied = reencryptSecrets(resources, from, mine.key) as typeof resources;
    const opened = await passphraseDecrypter(passphrase, mine.saltState);
    assert.equal(opened.decrypt(copied[0].inputs.clientSecret!.ciphertext), '"cs"');
    assert.equal(opened.decrypt(copied[1].inputs.secretConfig!.ciphertext), '{"password":"pw"}');
    assert.equal(opened.decrypt(copied[1].outputs!.list[0].ciphertext), '"salt"');
    assert.equal(copied[0].inputs.baseUrl, "http://x");
    assert.throws(() => from.decrypt(copied[0].inputs.clientSecret!.ciphertext), "no longer under the template's key");
    const file = `encryptionsalt: ${template.saltState}\nconfig:\n  fleet:k:\n    secure: ${encryptWith(template.key, "v")}\n  fleet:plain: x\n`;
    const stamped = restampStackFile(file, from, { encryptionsalt: mine.saltState }, mine.key);
    assert.ok(stamped.startsWith(`encryptionsalt: ${mine.saltState}\n`));
    assert.equal(opened.decrypt(/secure: (\S+)/.exec(stamped)![1]), "v");
    assert.match(stamped, /fleet:plain: x/);
    assert.throws(
      () => restampStackFile("config: {}\n", from, { encryptionsalt: mine.saltState }, mine.key),
      /no encryptionsalt/,
    );
  });
});
