// The keys of `npm run bench:fleet`'s generated stacks (fleet-large.ts), one of its own per stack
// as a real fleet has them: under the passphrase, a new salt (passphrase-writer.ts, as `pulumi
// stack init` draws it: one PBKDF2 for the fleet to derive); under `awskms://` (moto's KMS), a new
// data key from KMS GenerateDataKey (one KMS Decrypt for the fleet, no derivation), as Pulumi's
// cloud secrets manager makes it. Each says what the stack's checkpoint (secrets_providers.state)
// and its stack file (top-level keys) hold of it; the values are AES-256-GCM under the key.
import type { Decrypter } from "../cli/fleet/drift/passphrase";
import { passphraseDecrypter } from "../cli/fleet/drift/passphrase";
import { keySources } from "../cli/fleet/drift/secrets-providers";
import { newPassphraseStack } from "./passphrase-writer";

export const SECRETS_KINDS = ["passphrase", "awskms"] as const;
export type SecretsKind = (typeof SECRETS_KINDS)[number];

export interface StackKey {
  key: Buffer;
  /** The checkpoint's secrets_providers.state. */
  state: Record<string, string>;
  /** The stack file's top-level keys that carry it (`encryptionsalt`, or `encryptedkey`). */
  stackFileKeys: Record<string, string>;
}

export interface StackKeyMaker {
  kind: SecretsKind;
  /** A template stack's decrypter, from its checkpoint's secrets provider. */
  open(provider: { type: string; state: Record<string, string> }): Promise<Decrypter>;
  /** A new stack's own key. */
  fresh(): Promise<StackKey>;
  /** Ends its clients, if it has any. */
  stop?(): void;
}

export function passphraseKeys(passphrase: string): StackKeyMaker {
  return {
    kind: "passphrase",
    open: (provider) => passphraseDecrypter(passphrase, provider.state.salt),
    async fresh() {
      const own = await newPassphraseStack(passphrase);
      return { key: own.key, state: { salt: own.saltState }, stackFileKeys: { encryptionsalt: own.saltState } };
    },
  };
}

/** The key id and the KMS endpoint of an `awskms://<key id>?region=…&endpoint=…` URL. */
export function kmsUrlParts(url: string): { keyId: string; region: string; endpoint?: string } {
  const parsed = new URL(url);
  if (parsed.protocol !== "awskms:") throw new Error(`not an awskms:// URL: ${url}`);
  return {
    keyId: decodeURIComponent(parsed.host + parsed.pathname).replace(/\/$/, ""),
    region: parsed.searchParams.get("region") ?? "us-east-1",
    endpoint: parsed.searchParams.get("endpoint") ?? undefined,
  };
}

/** Keys under `url` (moto's KMS on loopback), with `env`'s credentials. */
export async function awsKmsKeys(url: string, env: NodeJS.ProcessEnv): Promise<StackKeyMaker> {
  const { KMSClient, GenerateDataKeyCommand } = await import("@aws-sdk/client-kms");
  const parts = kmsUrlParts(url);
  const client = new KMSClient({
    region: parts.region,
    ...(parts.endpoint ? { endpoint: parts.endpoint } : {}),
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? "", secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? "" },
  });
  const sources = keySources(undefined, env);
  return {
    kind: "awskms",
    open(provider) {
      const source = sources({ type: "cloud", url: provider.state.url, encryptedKey: provider.state.encryptedkey });
      if ("reason" in source) throw new Error(source.reason);
      return source.open();
    },
    async fresh() {
      const out = await client.send(new GenerateDataKeyCommand({ KeyId: parts.keyId, NumberOfBytes: 32 }));
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error("KMS GenerateDataKey returned no key");
      const encryptedkey = Buffer.from(out.CiphertextBlob).toString("base64");
      return { key: Buffer.from(out.Plaintext), state: { url, encryptedkey }, stackFileKeys: { encryptedkey } };
    },
    stop: () => client.destroy(),
  };
}
