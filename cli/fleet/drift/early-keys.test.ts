// The fast path's keys started from the stack files (early-keys.ts): the salt a stack file holds
// as Pulumi writes it, one derivation per salt however many ask (passphrase.ts), and a stack
// whose stack file's salt differs from its checkpoint's still opens with the checkpoint's.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { deriveStackKeysEarly, encryptionSaltOf, stackFileSalts } from "./early-keys";
import { deriveKey, passphraseDecrypter } from "./passphrase";
import { encryptWith, newPassphraseStack } from "../../../bench/passphrase-writer";
import type { FleetProject } from "../project";

const PASSPHRASE = "early keys, not a real passphrase";

describe("fleet drift: passphrase keys started from the stack files (early-keys.ts)", function () {
  this.timeout(60_000);

  it("reads the top-level encryptionsalt as Pulumi writes it, and nothing else", () => {
    const salt = "v1:AAECAwQFBgc=:v1:AAECAwQFBgcICQoL:Zm9vYmFy";
    assert.equal(encryptionSaltOf(`encryptionsalt: ${salt}\nconfig:\n  fleet:accountId: a\n`), salt);
    assert.equal(encryptionSaltOf(`config:\n  fleet:x: y\nencryptionsalt: "${salt}"\n`), salt);
    assert.equal(encryptionSaltOf(`config:\n  fleet:encryptionsalt: ${salt}\n`), undefined, "a config key");
    assert.equal(encryptionSaltOf(`secretsprovider: awskms://k\nencryptedkey: AQID\n`), undefined);
  });

  it("derives a salt's key once: a second ask (the checkpoint's) gets the same key", async () => {
    const salt = Buffer.from("0102030405060708", "hex");
    const first = deriveKey(PASSPHRASE, salt);
    assert.equal(deriveKey(PASSPHRASE, Buffer.from(salt)), first, "the same derivation, not a second");
    assert.notEqual(deriveKey(`${PASSPHRASE}!`, salt), first, "another passphrase derives its own");
    assert.equal((await first).length, 32);
  });

  it("starts the stacks' keys from their files; each checkpoint's own salt still decides", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "early-keys-"));
    try {
      const [a, b, other] = await Promise.all([1, 2, 3].map(() => newPassphraseStack(PASSPHRASE)));
      await fs.writeFile(path.join(dir, "Pulumi.a.yaml"), `encryptionsalt: ${a.saltState}\n`);
      // b's stack file names another salt than its checkpoint: only wasted work, never a wrong key.
      await fs.writeFile(path.join(dir, "Pulumi.b.yaml"), `encryptionsalt: ${other.saltState}\n`);
      await fs.writeFile(path.join(dir, "Pulumi.c.yaml"), "secretsprovider: awskms://k\n");
      const project: FleetProject = { dir, name: "fleet", runtime: "nodejs", stacks: ["a", "b", "c", "gone"] };
      assert.deepEqual(await stackFileSalts(project, project.stacks), [a.saltState, other.saltState]);
      await deriveStackKeysEarly(project, project.stacks, { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
      const openA = await passphraseDecrypter(PASSPHRASE, a.saltState);
      const openB = await passphraseDecrypter(PASSPHRASE, b.saltState);
      assert.equal(openA.decrypt(encryptWith(a.key, '"for a"')), '"for a"');
      assert.equal(openB.decrypt(encryptWith(b.key, '"for b"')), '"for b"');
      await assert.rejects(passphraseDecrypter("wrong", a.saltState), /incorrect passphrase/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("does nothing without a passphrase in the environment", async () => {
    const project: FleetProject = { dir: "/nonexistent", name: "fleet", runtime: "nodejs", stacks: ["a"] };
    await deriveStackKeysEarly(project, project.stacks, {});
  });
});
