// fake-gcs-server on loopback, in memory: gs:// as the Pulumi CLI and the fleet's fast path reach
// it through STORAGE_EMULATOR_HOST (scripts/ensure-gcs.sh installs it once per machine; .ci/run
// calls it). One process per test run, shared, ended when the run's process exits.
import { execFile } from "node:child_process";
import { createServer } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./engine";
import { startLoopbackServer } from "./loopback-server";

export interface FakeGcs {
  endpoint: string;
  /**
   * What the CLI and the fast path read: the emulator's host, and a service account's JSON the CLI
   * insists on resolving before it opens a bucket (never used with the emulator: no key, no token).
   */
  env: Record<string, string>;
  /** A gs:// backend URL of `bucket` (created). */
  backendUrl(bucket: string): Promise<string>;
  /** Puts an object into `bucket`. */
  put(bucket: string, key: string, body: string | Buffer): Promise<void>;
}

/** A loopback port free now (fake-gcs-server prints port 0 when it is given 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function start(): Promise<string> {
  const script = path.join(repoRoot, "scripts", "ensure-gcs.sh");
  const { stdout } = await promisify(execFile)("bash", [script]);
  const command = stdout.trim().split("\n").pop() ?? "fake-gcs-server";
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const host = `127.0.0.1:${port}`;
    // -public-host: the XML API's downloads (the Go client's reads) are routed by this host.
    const args = ["-backend", "memory", "-scheme", "http", "-host", "127.0.0.1", "-port", `${port}`];
    try {
      return (await startLoopbackServer(command, [...args, "-public-host", host], "run scripts/ensure-gcs.sh")).url;
    } catch (error) {
      if (attempt === 3) throw error; // another process took the port meanwhile
    }
  }
}

let shared: Promise<FakeGcs> | undefined;

/** The run's fake-gcs-server, started on first use. */
export function sharedFakeGcs(): Promise<FakeGcs> {
  shared ??= start().then((endpoint) => {
    const serviceAccount = {
      type: "service_account",
      project_id: "emulator",
      client_email: "fleet@emulator.iam.gserviceaccount.com",
      client_id: "1",
      token_uri: "http://127.0.0.1:9/token",
    };
    const env = {
      STORAGE_EMULATOR_HOST: endpoint.replace(/^http:\/\//, ""),
      GOOGLE_CREDENTIALS: JSON.stringify(serviceAccount),
    };
    const fake: FakeGcs = {
      endpoint,
      env,
      async backendUrl(bucket) {
        const res = await fetch(`${endpoint}/storage/v1/b?project=emulator`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: bucket }),
        });
        if (!res.ok) throw new Error(`fake-gcs-server did not create the bucket ${bucket}: HTTP ${res.status}`);
        return `gs://${bucket}`;
      },
      async put(bucket, key, body) {
        const at = `${endpoint}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${encodeURIComponent(key)}`;
        const res = await fetch(at, { method: "POST", body });
        if (!res.ok) throw new Error(`fake-gcs-server did not store ${key}: HTTP ${res.status}`);
      },
    };
    return fake;
  });
  return shared;
}
