// The AWS SDK's clients, loaded on first use: an optional dependency (the package works without
// it; the stacks of an s3:// backend or an awskms:// provider then go to the engine, saying so).
// This package supports Node.js 20 (package.json engines), which the SDK still supports: its
// notice that later releases will not is the SDK's to give at install time, not in every
// fleet run's output.

type S3Sdk = typeof import("@aws-sdk/client-s3");
type KmsSdk = typeof import("@aws-sdk/client-kms");

async function load<T>(name: string, importer: () => Promise<T>): Promise<T> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  try {
    return await importer();
  } catch {
    throw new Error(`the optional dependency ${name} is not installed (npm install it)`);
  }
}

export const loadS3 = (): Promise<S3Sdk> => load("@aws-sdk/client-s3", () => import("@aws-sdk/client-s3"));
export const loadKms = (): Promise<KmsSdk> => load("@aws-sdk/client-kms", () => import("@aws-sdk/client-kms"));
