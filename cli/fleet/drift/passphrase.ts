// The passphrase secrets provider of Pulumi, for the one secret the fast drift check needs
// (a customer's client secret, in its provider's inputs): the key is PBKDF2-SHA256 (1 000 000
// rounds) of the passphrase and the stack's salt, the cipher AES-256-GCM. The key derivation
// costs about 0.2–0.8 s of CPU here, and each stack has its own salt (and its digest salts to
// decrypt): so one derivation per stack, run across the cores in libuv's pool, a few at a time
// (`DERIVATIONS_AT_ONCE`) so that the pool keeps threads for the run's other work (file reads,
// DNS lookups) while a large fleet's keys are derived.
import { createDecipheriv, pbkdf2 } from "node:crypto";
import { availableParallelism } from "node:os";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

const pbkdf2Async = promisify(pbkdf2);
const ROUNDS = 1_000_000;

/** One per core, and at least one of libuv's threads (UV_THREADPOOL_SIZE, 4 by default) left free. */
export const DERIVATIONS_AT_ONCE = Math.max(
  1,
  Math.min(availableParallelism(), (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1),
);
let running = 0;
const waiting: (() => void)[] = [];
/** Passphrase → salt (base64) → its key: a salt's key is derived once a process, however many ask. */
const derived = new Map<string, Map<string, Promise<Buffer>>>();

/**
 * PBKDF2 of Pulumi's passphrase provider, at most DERIVATIONS_AT_ONCE at a time, in arrival
 * order; once per passphrase and salt (in memory only: a derived key is never written anywhere).
 */
export function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  const bySalt = derived.get(passphrase) ?? new Map<string, Promise<Buffer>>();
  derived.set(passphrase, bySalt);
  const id = salt.toString("base64");
  let key = bySalt.get(id);
  if (!key) {
    key = deriveOnce(passphrase, salt);
    bySalt.set(id, key);
    key.catch(() => bySalt.delete(id)); // a failure is not kept: the next ask derives again
  }
  return key;
}

async function deriveOnce(passphrase: string, salt: Buffer): Promise<Buffer> {
  if (running >= DERIVATIONS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await pbkdf2Async(passphrase, salt, ROUNDS, 32, "sha256");
  } finally {
    const next = waiting.shift();
    if (next)
      next(); // the slot passes on as it is
    else running -= 1;
  }
}

/**
 * Go's unicode.IsSpace, which strings.TrimSpace trims: JavaScript's trim() differs (it keeps
 * NEL U+0085 and takes the byte-order mark U+FEFF, which Go keeps).
 */
const GO_SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const GO_TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, "g");

/** strings.TrimSpace of Go. */
export function goTrimSpace(text: string): string {
  return text.replace(GO_TRIM, "");
}

/**
 * The passphrase the engine would use, read as Pulumi reads it (pkg/secrets/passphrase,
 * readPassphrase): PULUMI_CONFIG_PASSPHRASE as it is, else the file PULUMI_CONFIG_PASSPHRASE_FILE
 * names, trimmed with strings.TrimSpace (so `pw \n` and `pw\n\n` are the passphrase `pw`).
 */
export function passphraseFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
  const file = env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (file) return goTrimSpace(readFileSync(file, "utf8"));
  return undefined;
}

/** `v1:<nonce>:<ciphertext and tag>`, each base64. */
function decryptWith(key: Buffer, ciphertext: string): string {
  const parts = ciphertext.split(":");
  if (parts.length !== 3 || parts[0] !== "v1") throw new Error("not a v1 ciphertext of the passphrase provider");
  const nonce = Buffer.from(parts[1], "base64");
  const sealed = Buffer.from(parts[2], "base64");
  if (sealed.length < 16) throw new Error("a ciphertext too short to hold its tag");
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString("utf8");
}

export interface Decrypter {
  /** The plaintext of one ciphertext of the stack (the JSON form of the value, as the engine stores it). */
  decrypt(ciphertext: string): string;
}

/**
 * The decrypter of a stack whose secrets provider state is `v1:<salt>:<ciphertext of "pulumi">`
 * (the `salt` of the checkpoint's passphrase provider, the stack file's encryptionsalt).
 * Refuses a wrong passphrase by the check value, as the engine does.
 */
export async function passphraseDecrypter(passphrase: string, saltState: string): Promise<Decrypter> {
  const parts = saltParts(saltState);
  if (!parts) throw new Error("the stack's passphrase salt is not in the v1 form (v1:<salt>:v1:<nonce>:<ciphertext>)");
  const key = await deriveKey(passphrase, Buffer.from(parts[1], "base64"));
  let check: string;
  try {
    check = decryptWith(key, parts.slice(2).join(":"));
  } catch {
    check = "";
  }
  if (check !== "pulumi") throw new Error("incorrect passphrase for the stack's secrets (PULUMI_CONFIG_PASSPHRASE)");
  return keyDecrypter(key);
}

function saltParts(saltState: string): string[] | undefined {
  const parts = saltState.split(":");
  return parts.length === 5 && parts[0] === "v1" ? parts : undefined;
}

/**
 * Starts deriving the keys of these salt states (stack files' `encryptionsalt`) before their
 * checkpoints are read: the derivations run in libuv's pool while this process loads and reads,
 * and the checkpoint's decrypter (the same salt) finds its key derived or under way. A state
 * not in the v1 form is left to the decrypter, which says why.
 */
export function deriveKeysEarly(passphrase: string, saltStates: string[]): void {
  for (const state of saltStates) {
    const parts = saltParts(state);
    if (parts) deriveKey(passphrase, Buffer.from(parts[1], "base64")).catch(() => undefined);
  }
}

/** The decrypter of a 256-bit key: the passphrase's derived key, or a cloud provider's data key (awskms.ts). */
export function keyDecrypter(key: Buffer): Decrypter {
  return { decrypt: (ciphertext) => decryptWith(key, ciphertext) };
}
