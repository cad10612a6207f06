// One client per customer: the stacks whose providers hold the same settings (but their default
// sub-account) share one client (one token, one connection pool, the customer's `concurrency`). Their client secret is
// decrypted from ONE stack of the group; the other stacks are checked against it by the key
// id their configurations were written under (`digestKeyId`, derived from the client secret):
// a stack whose id differs, or that has no configuration to compare, decrypts its own. A stack
// written since digest salts decrypts its salts,
// so its own key is derived in any case.
import { DIGEST_SALT_INPUT, prepareDigestKey } from "../../../provider/hosts/in-process/refresh";
import type { Decrypter } from "./passphrase";
import { isSecretValue, type StackPlan } from "./plan";
import type { KeySourceOf } from "./secrets-providers";

/** A stack ready to check: its provider's settings, clientSecret in plaintext (when the state holds one). */
export interface ReadyStack {
  plan: StackPlan;
  settings: Record<string, unknown>;
}

export interface Grouping {
  ready: ReadyStack[];
  /** Stacks whose client secret could not be had, with why. */
  refused: Map<string, string>;
  /** How many keys were opened (a passphrase key derived, ~0.5 s of CPU; a data key decrypted by a KMS). */
  decryptions: number;
}

/** The customer: the settings other than clientSecret and the default sub-account, as a key. */
function publicKey(inputs: Record<string, unknown>): string {
  const { clientSecret: _secret, accountId: _account, ...rest } = inputs;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `onReady` is called with each stack as soon as it is ready: its check need not wait for the other stacks' keys. */
export async function groupByCredentials(
  plans: StackPlan[],
  keySourceOf: KeySourceOf,
  onReady?: (stack: ReadyStack) => void,
): Promise<Grouping> {
  const refused = new Map<string, string>();
  const ready: ReadyStack[] = [];
  let decryptions = 0;
  // One key per stack's secrets provider state (a salt, an encrypted data key), opened once.
  const decrypters = new Map<string, Promise<Decrypter>>();
  const decrypterOf = (plan: StackPlan): Promise<Decrypter> => {
    const source = keySourceOf(plan.secretsProvider);
    if ("reason" in source) return Promise.reject(new Error(source.reason));
    let decrypter = decrypters.get(source.id);
    if (!decrypter) {
      decryptions += 1;
      decrypter = source.open();
      decrypter.catch(() => undefined); // reported when a stack awaits it
      decrypters.set(source.id, decrypter);
    }
    return decrypter;
  };
  const decryptJson = async (plan: StackPlan, ciphertext: string): Promise<unknown> => {
    const plaintext = (await decrypterOf(plan)).decrypt(ciphertext);
    try {
      return JSON.parse(plaintext);
    } catch {
      return undefined; // JSON.parse's message would quote the plaintext
    }
  };
  const decrypt = async (plan: StackPlan, ciphertext: string): Promise<string> => {
    const secret = await decryptJson(plan, ciphertext);
    if (typeof secret !== "string") throw new Error("its provider's clientSecret does not decrypt to a string");
    return secret;
  };
  // Each configuration's digest salt, in place: the key of its digests needs it (digest-salt.ts:
  // the input's, or an older state's output). Salts are per resource, so such a stack derives its
  // own key: one PBKDF2 per stack.
  const decrypted = async (plan: StackPlan, urn: string, salt: unknown): Promise<unknown> => {
    if (!isSecretValue(salt)) return salt;
    const value = await decryptJson(plan, salt.ciphertext);
    if (typeof value !== "string") throw new Error(`${urn}: its digest salt does not decrypt to a string`);
    return value;
  };
  const decryptSalts = async (plan: StackPlan): Promise<void> => {
    for (const r of plan.resources) {
      if (isSecretValue(r.outputs?.digestSalt))
        r.outputs = { ...r.outputs, digestSalt: await decrypted(plan, r.urn, r.outputs.digestSalt) };
      if (isSecretValue(r.inputs?.[DIGEST_SALT_INPUT]))
        r.inputs = { ...r.inputs, [DIGEST_SALT_INPUT]: await decrypted(plan, r.urn, r.inputs[DIGEST_SALT_INPUT]) };
    }
  };
  const add = (secret: unknown, plan: StackPlan) => {
    const stack = { plan, settings: { ...plan.providerInputs, clientSecret: secret } };
    ready.push(stack);
    onReady?.(stack);
  };
  // Per public settings: the first stack's secret, then each stack checked against it.
  const byPublic = new Map<string, StackPlan[]>();
  for (const plan of plans) {
    if (plan.resources.length === 0) continue; // nothing to read: clean without a client
    const key = publicKey(plan.providerInputs);
    byPublic.set(key, [...(byPublic.get(key) ?? []), plan]);
  }
  // The customers at once (each key derivation runs in the libuv pool); a customer's stacks in turn.
  const customer = async (members: StackPlan[]) => {
    const known = new Map<string, string>(); // digest key id → secret
    for (const plan of members) {
      if (plan.salted) {
        try {
          await decryptSalts(plan);
        } catch (error) {
          refused.set(plan.stack, error instanceof Error ? error.message : String(error));
          continue;
        }
      }
      const stored = plan.providerInputs.clientSecret;
      if (!isSecretValue(stored)) {
        add(stored, plan); // plain text or absent (the environment's): nothing to decrypt
        continue;
      }
      const ids = [...plan.digestKeyIds];
      const shared = ids.length === 1 ? known.get(ids[0]) : undefined;
      if (shared !== undefined) {
        add(shared, plan);
        continue;
      }
      try {
        const secret = await decrypt(plan, stored.ciphertext);
        known.set(await prepareDigestKey(secret), secret);
        add(secret, plan);
      } catch (error) {
        refused.set(plan.stack, error instanceof Error ? error.message : String(error));
      }
    }
  };
  // The salted stacks' keys, opened side by side (libuv's pool, the KMS) before the customers need them.
  for (const plan of plans) if (plan.salted) decrypterOf(plan).catch(() => undefined);
  await Promise.all([...byPublic.values()].map(customer));
  return { ready, refused, decryptions };
}
