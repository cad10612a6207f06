// Azurite's Blob service on loopback (the npm package `azurite`, a devDependency), in memory,
// without its telemetry: azblob:// as the Pulumi CLI and the fleet's fast path reach it. One
// process per test run, shared, ended when the run's process exits.
import * as path from "node:path";
import { repoRoot } from "./engine";
import { startLoopbackServer } from "./loopback-server";

/** Azurite's well-known development account (public, documented: not a secret). */
const ACCOUNT = "devstoreaccount1";
const KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface Azurite {
  endpoint: string;
  /** The storage settings the CLI and the fast path read. */
  env: Record<string, string>;
  /** An azblob:// backend URL of `container` (created). */
  backendUrl(container: string): Promise<string>;
}

let shared: Promise<Azurite> | undefined;

export function sharedAzurite(): Promise<Azurite> {
  shared ??= (async () => {
    const bin = path.join(repoRoot, "node_modules", ".bin", "azurite-blob");
    const args = [
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      "0",
      "--inMemoryPersistence",
      "--disableTelemetry",
      "--skipApiVersionCheck",
    ];
    const { url: endpoint } = await startLoopbackServer(bin, [...args, "--silent"], "npm ci installs azurite");
    const env = { AZURE_STORAGE_ACCOUNT: ACCOUNT, AZURE_STORAGE_KEY: KEY };
    const { ContainerClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
    return {
      endpoint,
      env,
      async backendUrl(container) {
        const client = new ContainerClient(
          `${endpoint}/${ACCOUNT}/${container}`,
          new StorageSharedKeyCredential(ACCOUNT, KEY),
        );
        await client.create();
        const host = endpoint.replace(/^http:\/\//, "");
        return `azblob://${container}?domain=${host}&protocol=http&localemu=true`;
      },
    };
  })();
  return shared;
}
