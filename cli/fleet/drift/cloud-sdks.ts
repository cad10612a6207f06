// The clouds' SDKs, loaded on first use. They are optional peer dependencies: a user of the
// provider alone installs none of them; a fleet whose state is in S3, Azure or GCS installs its
// cloud's beside the package (`npm install @aws-sdk/client-s3`, `@azure/storage-blob` or
// `@google-cloud/storage`), and without it the stacks go to
// the engine, saying which package to install. This package supports Node.js 20 (package.json
// engines), which the AWS SDK still supports: its notice that later releases will not is for
// install time, not for every fleet run's output.
import { createRequire } from "node:module";

type S3Sdk = typeof import("@aws-sdk/client-s3");
type KmsSdk = typeof import("@aws-sdk/client-kms");
type AzureBlobSdk = typeof import("@azure/storage-blob");
type GcsSdk = typeof import("@google-cloud/storage");

async function load<T>(name: string, importer: () => Promise<T>): Promise<T> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  try {
    return await importer();
  } catch {
    throw new Error(`${name} is not installed beside pulumi-embedded-connectors (npm install ${name})`);
  }
}

export const loadS3 = (): Promise<S3Sdk> => load("@aws-sdk/client-s3", () => import("@aws-sdk/client-s3"));
export const loadKms = (): Promise<KmsSdk> => load("@aws-sdk/client-kms", () => import("@aws-sdk/client-kms"));
export const loadAzureBlob = (): Promise<AzureBlobSdk> =>
  load("@azure/storage-blob", () => import("@azure/storage-blob"));
export const loadGcs = (): Promise<GcsSdk> => load("@google-cloud/storage", () => import("@google-cloud/storage"));

/** An auth client of google-auth-library, as @google-cloud/storage takes it. */
type GcsAuthClient = NonNullable<ConstructorParameters<GcsSdk["Storage"]>[0]>["authClient"];

/**
 * google-auth-library, resolved from @google-cloud/storage itself (its dependency, whichever
 * major version it takes), for a bare access token: an OAuth2 client that only sends it.
 */
export async function loadGcsAuth(): Promise<{ staticToken(accessToken: string): GcsAuthClient }> {
  await loadGcs();
  const fromSdk = createRequire(require.resolve("@google-cloud/storage"));
  const { OAuth2Client } = fromSdk("google-auth-library") as {
    OAuth2Client: new () => { setCredentials(credentials: { access_token: string }): void };
  };
  return {
    staticToken(accessToken) {
      const client = new OAuth2Client();
      client.setCredentials({ access_token: accessToken });
      return client as unknown as GcsAuthClient;
    },
  };
}
