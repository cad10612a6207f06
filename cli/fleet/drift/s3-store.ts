// An `s3://<bucket>[/<dir>]?<parameters>` backend as a store, read with the AWS SDK
// (@aws-sdk/client-s3, an optional peer dependency: cloud-sdks.ts) and the
// settings the CLI would use (aws-params.ts). The parameters s3blob takes itself: use_path_style
// (or s3ForcePathStyle), disable_https (or the SDK v1's disableSSL, as the CLI translates it),
// accelerate, and the write-only ssetype and kmskeyid; gocloud's own `prefix`; the URL's path is
// a directory inside the bucket (the diy backend's PrefixedBucket).
import { awsSettings, goBool, sdkErrorName, type AwsClientSettings, type Parsed } from "./aws-params";
import { loadS3 } from "./cloud-sdks";
import { bucketPrefix, type BlobStore, type StoredObject } from "./store";

export interface S3Location {
  bucket: string;
  /** Prepended to every key: gocloud's `prefix`, then the URL's path as a directory. */
  prefix: string;
  settings: AwsClientSettings & { forcePathStyle?: boolean; useAccelerateEndpoint?: boolean };
}

/** The bucket, key prefix and client settings of an `s3://` URL, or why the fast path cannot read it. */
export function parseS3Url(url: string, env: NodeJS.ProcessEnv): Parsed<S3Location> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: "its s3:// backend URL does not parse" };
  }
  const q = new URLSearchParams(u.search);
  const extra: S3Location["settings"] = {};
  let disableHttps: boolean | undefined;
  try {
    if (q.has("key")) return { reason: "its backend URL names a single key (key=)" };
    for (const name of ["use_path_style", "s3ForcePathStyle"])
      if (q.has(name)) extra.forcePathStyle = goBool(name, q.get(name) ?? "");
    for (const name of ["disable_https", "disableSSL"]) if (q.has(name)) disableHttps = goBool(name, q.get(name) ?? "");
    if (q.has("accelerate")) extra.useAccelerateEndpoint = goBool("accelerate", q.get("accelerate") ?? "");
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const prefixParam = q.get("prefix") ?? "";
  for (const name of ["use_path_style", "s3ForcePathStyle", "disable_https", "disableSSL", "accelerate"])
    q.delete(name);
  for (const name of ["ssetype", "kmskeyid", "prefix"]) q.delete(name); // how objects are written, or taken above
  const parsed = awsSettings(q, env);
  if ("reason" in parsed) return parsed;
  const settings = { ...parsed.ok, ...extra };
  if (disableHttps) settings.tls = false;
  // A bare host:port, as the CLI completes it: https, or http with disableSSL.
  if (settings.endpoint && !/^[a-z][a-z0-9+.-]*:\/\//i.test(settings.endpoint))
    settings.endpoint = `${disableHttps ? "http" : "https"}://${settings.endpoint}`;
  const prefix = bucketPrefix(u, prefixParam);
  if (!u.hostname) return { reason: "its s3:// backend URL names no bucket" };
  return { ok: { bucket: decodeURIComponent(u.hostname), prefix, settings } };
}

/** A store reading the bucket (one client, one connection pool, for every stack of the run). */
export async function s3Store(url: string, env: NodeJS.ProcessEnv): Promise<{ store: BlobStore } | { reason: string }> {
  const location = parseS3Url(url, env);
  if ("reason" in location) return location;
  let sdk: Awaited<ReturnType<typeof loadS3>>;
  try {
    sdk = await loadS3();
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const { bucket, prefix, settings } = location.ok;
  const client = new sdk.S3Client({ ...settings, maxAttempts: 3 });
  const name = `s3://${bucket}/${prefix}`;
  const failed = (what: string, error: unknown) =>
    new Error(`${what} of ${name} failed: ${sdkErrorName(error)} (check the AWS credentials and the URL's region)`);
  const store: BlobStore = {
    name,
    async list(keyPrefix) {
      const objects: StoredObject[] = [];
      let token: string | undefined;
      do {
        const page = await client
          .send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${prefix}${keyPrefix}`,
              Delimiter: "/",
              ContinuationToken: token,
            }),
          )
          .catch((error: unknown) => {
            throw failed("a listing", error);
          });
        for (const o of page.Contents ?? [])
          if (o.Key && o.LastModified) objects.push({ key: o.Key.slice(prefix.length), modified: o.LastModified });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return objects;
    },
    async read(key) {
      try {
        const got = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: `${prefix}${key}` }));
        return got.Body ? Buffer.from(await got.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return undefined;
        throw failed(`a read of ${key}`, error);
      }
    },
    async write(key, bytes) {
      await client
        .send(new sdk.PutObjectCommand({ Bucket: bucket, Key: `${prefix}${key}`, Body: bytes }))
        .catch((error: unknown) => {
          throw failed(`a write of ${key}`, error);
        });
    },
  };
  return { store };
}
