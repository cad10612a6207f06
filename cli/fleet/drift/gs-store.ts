// A `gs://<bucket>[/<dir>]?<parameters>` backend as a store, read with Google's SDK
// (@google-cloud/storage, an optional peer dependency: cloud-sdks.ts) as the CLI reads it: the
// diy backend opens gs:// through authhelpers.GoogleCredentialsMux and gocloud.dev v0.46's
// gcsblob. The CLI's credentials, in its order: GOOGLE_CREDENTIALS (a credentials file's JSON),
// GOOGLE_OAUTH_ACCESS_TOKEN (sent as it is), then Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
// gcloud's application_default_credentials.json, the metadata server). STORAGE_EMULATOR_HOST
// (a bare host:port) overrides them all: gcsblob then talks plain http to
// `http://<host>/storage/v1/`, unauthenticated. gcsblob's parameters: `access_id` and
// `private_key_path` only sign URLs (the CLI reads the key file all the same), `universe_domain`
// has no effect through the CLI's opener, `anonymous` (or `access_id=-`) drops the credentials;
// gocloud's own `prefix`; any other parameter the CLI refuses.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { goBool, type Parsed } from "./aws-params";
import { loadGcs, loadGcsAuth } from "./cloud-sdks";
import { bucketPrefix, type BlobStore, type StoredObject } from "./store";

export interface GsLocation {
  bucket: string;
  /** Prepended to every key: gocloud's `prefix`, then the URL's path as a directory. */
  prefix: string;
  /** The SDK's options: the emulator's endpoint (unauthenticated), or the credentials' source. */
  options:
    | { apiEndpoint: string }
    | { credentials: Record<string, unknown> }
    | { accessToken: string }
    | { keyFilename?: string };
}

const GCS_PARAMETERS = new Set(["access_id", "private_key_path", "anonymous", "universe_domain", "prefix"]);

/**
 * The file of Application Default Credentials the CLI would read (golang.org/x/oauth2's
 * FindDefaultCredentials): GOOGLE_APPLICATION_CREDENTIALS, else gcloud's well-known file. The
 * metadata server, its last resort, is not asked here.
 */
function defaultCredentialsFile(env: NodeJS.ProcessEnv): string | undefined {
  const file =
    env.GOOGLE_APPLICATION_CREDENTIALS ||
    path.join(env.HOME || homedir(), ".config", "gcloud", "application_default_credentials.json");
  return existsSync(file) ? file : undefined;
}

/** The bucket, key prefix and SDK options of a `gs://` URL, or why the fast path cannot read it. */
export function parseGsUrl(url: string, env: NodeJS.ProcessEnv): Parsed<GsLocation> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: "its gs:// backend URL does not parse" };
  }
  const q = new URLSearchParams(u.search);
  if (q.has("key")) return { reason: "its backend URL names a single key (key=)" };
  for (const name of q.keys())
    if (!GCS_PARAMETERS.has(name))
      return { reason: `its URL has the unknown parameter ${name} (the CLI refuses it too)` };
  let anonymous: boolean;
  try {
    anonymous = q.get("anonymous") ? goBool("anonymous", q.get("anonymous") ?? "") : false;
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const keyPath = q.get("private_key_path");
  if (keyPath && !existsSync(keyPath)) return { reason: "its private_key_path names no file (the CLI refuses it too)" };
  if (!u.hostname) return { reason: "its gs:// backend URL names no bucket" };
  const location = { bucket: decodeURIComponent(u.hostname), prefix: bucketPrefix(u, q.get("prefix") ?? "") };
  // The CLI resolves the credentials before it opens the bucket, even for the emulator.
  let credentials: Record<string, unknown> | undefined;
  if (env.GOOGLE_CREDENTIALS) {
    try {
      credentials = JSON.parse(env.GOOGLE_CREDENTIALS) as Record<string, unknown>;
    } catch {
      return { reason: "its GOOGLE_CREDENTIALS does not parse as JSON (the CLI refuses it too)" };
    }
  }
  const emulator = env.STORAGE_EMULATOR_HOST;
  if (emulator) {
    // gocloud prepends http:// itself: a host with a scheme is a URL the CLI cannot reach.
    if (emulator.includes("://")) return { reason: "its STORAGE_EMULATOR_HOST is not a bare host:port" };
    // Never used with the emulator, but the CLI refuses the backend without them.
    if (!credentials && !env.GOOGLE_OAUTH_ACCESS_TOKEN && !defaultCredentialsFile(env))
      return {
        reason: "the CLI would find no Google credentials (GOOGLE_CREDENTIALS, GOOGLE_APPLICATION_CREDENTIALS)",
      };
    return { ok: { ...location, options: { apiEndpoint: `http://${emulator}` } } };
  }
  if (anonymous || q.get("access_id") === "-")
    return {
      reason: "its URL asks for anonymous access (anonymous=, access_id=-), which the fast path does not reproduce",
    };
  if (credentials) return { ok: { ...location, options: { credentials } } };
  if (env.GOOGLE_OAUTH_ACCESS_TOKEN)
    return { ok: { ...location, options: { accessToken: env.GOOGLE_OAUTH_ACCESS_TOKEN } } };
  const keyFilename = env.GOOGLE_APPLICATION_CREDENTIALS;
  return { ok: { ...location, options: keyFilename ? { keyFilename } : {} } };
}

/** The error's HTTP status, never its message (which may quote the request). */
function gcsErrorName(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "number" ? `HTTP ${code}` : typeof code === "string" ? code : "an error";
}

/**
 * The SDK's constructor reads STORAGE_EMULATOR_HOST from process.env (which may not be the run's
 * environment) and takes it without a scheme as https; the options carry the run's own reading.
 */
function withoutEmulatorVariable<T>(make: () => T): T {
  const saved = process.env.STORAGE_EMULATOR_HOST;
  delete process.env.STORAGE_EMULATOR_HOST;
  try {
    return make();
  } finally {
    if (saved !== undefined) process.env.STORAGE_EMULATOR_HOST = saved;
  }
}

type Bucket = ReturnType<InstanceType<Awaited<ReturnType<typeof loadGcs>>["Storage"]>["bucket"]>;

/** The SDK's client of the location's bucket (one connection pool, for every stack of the run). */
export async function gcsBucket(location: GsLocation): Promise<Bucket> {
  const sdk = await loadGcs();
  const { options } = location;
  // A bare access token, as the CLI's oauth2.StaticTokenSource sends it.
  const auth =
    "accessToken" in options
      ? { authClient: (await loadGcsAuth()).staticToken(options.accessToken) }
      : (options as Exclude<GsLocation["options"], { accessToken: string }>);
  const storage = withoutEmulatorVariable(() => new sdk.Storage({ ...auth, retryOptions: { maxRetries: 2 } }));
  return storage.bucket(location.bucket);
}

/** A store reading the bucket. */
export async function gsStore(url: string, env: NodeJS.ProcessEnv): Promise<{ store: BlobStore } | { reason: string }> {
  const location = parseGsUrl(url, env);
  if ("reason" in location) return location;
  let bucket: Bucket;
  try {
    bucket = await gcsBucket(location.ok);
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const { bucket: bucketName, prefix } = location.ok;
  const name = `gs://${bucketName}/${prefix}`;
  const failed = (what: string, error: unknown) =>
    new Error(`${what} of ${name} failed: ${gcsErrorName(error)} (check the Google credentials and the bucket)`);
  const store: BlobStore = {
    name,
    async list(keyPrefix) {
      const objects: StoredObject[] = [];
      try {
        const [files] = await bucket.getFiles({ prefix: `${prefix}${keyPrefix}`, delimiter: "/", autoPaginate: true });
        for (const file of files)
          if (file.metadata.updated)
            objects.push({ key: file.name.slice(prefix.length), modified: new Date(file.metadata.updated) });
      } catch (error) {
        throw failed("a listing", error);
      }
      return objects;
    },
    async read(key) {
      try {
        return (await bucket.file(`${prefix}${key}`).download())[0];
      } catch (error) {
        if ((error as { code?: unknown }).code === 404) return undefined;
        throw failed(`a read of ${key}`, error);
      }
    },
    async write(key, bytes) {
      await bucket
        .file(`${prefix}${key}`)
        .save(bytes, { resumable: false })
        .catch((error: unknown) => {
          throw failed(`a write of ${key}`, error);
        });
    },
  };
  return { store };
}
