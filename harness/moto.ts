// moto's server on loopback: S3 and KMS as the Pulumi CLI and the fleet's fast path reach them
// (scripts/ensure-moto.sh installs it once per machine; .ci/run calls it). One process per test
// run, shared by every test that asks for it, ended when the run's process exits.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./engine";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server";

export interface Moto {
  endpoint: string;
  /** AWS settings any client of it takes (moto accepts any credentials). */
  env: Record<string, string>;
  /** The settings of an AWS SDK client of it (S3 path-style). */
  sdkConfig: {
    endpoint: string;
    region: string;
    forcePathStyle: boolean;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  /** An s3:// backend URL of `bucket` (created), with the parameters the CLI needs for moto. */
  backendUrl(bucket: string): Promise<string>;
  /** A new symmetric KMS key's awskms:// secrets provider URL. */
  kmsKeyUrl(): Promise<string>;
}

// The SDK clients the tests make: this package supports Node.js 20 (cli/fleet/drift/aws-sdk.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

let shared: Promise<Moto> | undefined;
let server: LoopbackServer | undefined;

async function start(): Promise<string> {
  const script = path.join(repoRoot, "scripts", "ensure-moto.sh");
  const { stdout } = await promisify(execFile)("bash", [script]);
  const command = stdout.trim().split("\n").pop() ?? "moto_server";
  server = await startLoopbackServer(command, ["-H", "127.0.0.1", "-p", "0"], "run scripts/ensure-moto.sh");
  return server.url;
}

/** Ends the run's moto server now (a bench, which must exit by itself: its pipes keep node running). */
export function stopSharedMoto(): void {
  server?.stop();
  server = undefined;
  shared = undefined;
}

/** The run's moto server, started on first use. */
export function sharedMoto(): Promise<Moto> {
  shared ??= start().then((endpoint) => {
    const env = { AWS_ACCESS_KEY_ID: "testing", AWS_SECRET_ACCESS_KEY: "testing", AWS_REGION: "us-east-1" };
    const moto: Moto = {
      endpoint,
      env,
      sdkConfig: {
        endpoint,
        region: env.AWS_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
      },
      async backendUrl(bucket) {
        const res = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
        if (!res.ok) throw new Error(`moto did not create the bucket ${bucket}: HTTP ${res.status}`);
        return `s3://${bucket}?endpoint=${endpoint}&s3ForcePathStyle=true&region=us-east-1`;
      },
      async kmsKeyUrl() {
        const res = await fetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/x-amz-json-1.1",
            "x-amz-target": "TrentService.CreateKey",
            authorization:
              "AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/kms/aws4_request, SignedHeaders=host, Signature=x",
          },
          body: "{}",
        });
        const keyId = ((await res.json()) as { KeyMetadata?: { KeyId?: string } }).KeyMetadata?.KeyId;
        if (!keyId) throw new Error(`moto did not create a KMS key: HTTP ${res.status}`);
        return `awskms://${keyId}?region=us-east-1&endpoint=${encodeURIComponent(endpoint)}`;
      },
    };
    return moto;
  });
  return shared;
}
