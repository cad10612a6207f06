// The stack's secrets provider, as its checkpoint records it, opened for the few values the fast
// path decrypts (the client secret, the digest salts). The passphrase: PBKDF2 of the passphrase
// and the stack's salt (passphrase.ts). Pulumi's "cloud" providers keep a data key encrypted by
// a KMS (pkg/secrets/cloud: `state.url`, `state.encryptedkey`); `awskms://` is opened here: the
// data key is decrypted by AWS KMS once per stack (@aws-sdk/client-kms, an optional peer dependency),
// with the URL's settings read as gocloud's awskms reads them (the key id is not sent: Decrypt
// finds it in the ciphertext; `context_<k>=<v>` is the encryption context). azurekeyvault://,
// gcpkms:// and hashivault:// go to the engine: no emulator of them runs here to test a reader.
import { awsSettings, sdkErrorName } from "./aws-params";
import { loadKms } from "./cloud-sdks";
import { keyDecrypter, passphraseDecrypter, type Decrypter } from "./passphrase";

/** What a checkpoint says of its secrets provider. */
export type SecretsProviderState =
  { type: "passphrase"; salt: string } | { type: "cloud"; url: string; encryptedKey: string };

/** One stack's key: `id` is the same for stacks that share it (one decryption for them all). */
export interface KeySource {
  id: string;
  open(): Promise<Decrypter>;
}

export type KeySourceOf = (provider: SecretsProviderState | undefined) => KeySource | { reason: string };

type KmsDecrypter = (url: string, encryptedKey: string) => Promise<Decrypter>;
type KmsSdk = Awaited<ReturnType<typeof loadKms>>;

/**
 * The data keys of awskms:// providers, each decrypted by KMS; one client (one connection pool)
 * per distinct setting of the run's URLs, shared by the stacks that name it.
 */
function awsKmsDecrypters(env: NodeJS.ProcessEnv): KmsDecrypter {
  const clients = new Map<string, Promise<{ sdk: KmsSdk; client: InstanceType<KmsSdk["KMSClient"]> }>>();
  return async (url, encryptedKey) => {
    const q = new URL(url).searchParams;
    const context: Record<string, string> = {};
    for (const name of [...new Set(q.keys())].filter((k) => k.startsWith("context_"))) {
      const values = q.getAll(name);
      if (values.length !== 1) throw new Error(`its secrets provider's ${name} must have exactly one value`);
      context[name.slice("context_".length)] = values[0];
      q.delete(name);
    }
    const settings = awsSettings(q, env);
    if ("reason" in settings) throw new Error(`its awskms:// secrets provider: ${settings.reason}`);
    const key = JSON.stringify(settings.ok);
    let made = clients.get(key);
    if (!made) {
      made = loadKms().then((sdk) => ({ sdk, client: new sdk.KMSClient({ ...settings.ok, maxAttempts: 3 }) }));
      clients.set(key, made);
    }
    const { sdk, client } = await made;
    try {
      const out = await client.send(
        new sdk.DecryptCommand({
          CiphertextBlob: Buffer.from(encryptedKey, "base64"),
          ...(Object.keys(context).length > 0 ? { EncryptionContext: context } : {}),
        }),
      );
      if (out.Plaintext?.length !== 32) throw new Error("not a 256-bit data key");
      return keyDecrypter(Buffer.from(out.Plaintext));
    } catch (error) {
      throw new Error(`AWS KMS did not decrypt the stack's data key: ${sdkErrorName(error)}`);
    }
  };
}

/** The key sources of a run: the passphrase it has, and the cloud providers it can open. */
export function keySources(passphrase: string | undefined, env: NodeJS.ProcessEnv = process.env): KeySourceOf {
  const awsKms = awsKmsDecrypters(env);
  return (provider) => {
    if (provider?.type === "passphrase") {
      if (passphrase === undefined)
        return { reason: "its secrets are not under a passphrase this run has (PULUMI_CONFIG_PASSPHRASE)" };
      return { id: `passphrase:${provider.salt}`, open: () => passphraseDecrypter(passphrase, provider.salt) };
    }
    if (provider?.type === "cloud") {
      const scheme = /^([a-z0-9]+):\/\//i.exec(provider.url)?.[1] ?? "";
      if (scheme !== "awskms")
        return {
          reason: `its secrets provider is ${scheme || "a"}:// (the fast path opens the passphrase and awskms:// only)`,
        };
      return {
        id: `cloud:${provider.url}:${provider.encryptedKey}`,
        open: () => awsKms(provider.url, provider.encryptedKey),
      };
    }
    return { reason: "its secrets provider is not one the fast path opens (the passphrase, awskms://)" };
  };
}
