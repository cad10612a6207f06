// Pulumi's passphrase secrets provider, the writing side (pkg/secrets/passphrase, as `pulumi
// stack init` runs it): a new 8-byte salt per stack, its key PBKDF2-SHA256 (1 000 000 rounds) of
// the passphrase and the salt, the state `v1:<salt>:<"pulumi" encrypted>`, each value
// `v1:<12-byte nonce>:<AES-256-GCM ciphertext and tag>`, all base64. For the generated stacks of
// `npm run bench:fleet` (fleet-large.ts): each its own salt, as a real fleet has. The reading
// side is the fleet's (cli/fleet/drift/passphrase.ts).
import { createCipheriv, pbkdf2, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";

const pbkdf2Async = promisify(pbkdf2);
export const PASSPHRASE_ROUNDS = 1_000_000;

/** A value encrypted as the passphrase provider stores it. */
export function encryptWith(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

export interface PassphraseStack {
  /** The stack file's encryptionsalt, and the checkpoint's secrets_providers.state.salt. */
  saltState: string;
  key: Buffer;
}

/** What `pulumi stack init` draws for a stack under `passphrase` (its key derived in libuv's pool). */
export async function newPassphraseStack(passphrase: string): Promise<PassphraseStack> {
  const salt = randomBytes(8);
  const key = await pbkdf2Async(passphrase, salt, PASSPHRASE_ROUNDS, 32, "sha256");
  return { saltState: `v1:${salt.toString("base64")}:${encryptWith(key, "pulumi")}`, key };
}

/**
 * The bound the passphrase sets on a fleet's drift check: `count` keys, each of a new salt,
 * derived as Pulumi's passphrase secrets manager derives one (PBKDF2-SHA256, 1 000 000 rounds),
 * `atOnce` at a time (one per core) in libuv's pool. Wall and CPU time of this process.
 */
export async function keyDerivationCost(
  passphrase: string,
  count: number,
  atOnce: number,
): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (; next < count;) {
      next += 1;
      await pbkdf2Async(passphrase, randomBytes(8), PASSPHRASE_ROUNDS, 32, "sha256");
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, count) }, worker));
  const used = process.cpuUsage(cpu);
  return { wallMs: Math.round(performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000) };
}
