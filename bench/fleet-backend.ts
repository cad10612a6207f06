// The backend of `npm run bench:fleet`'s stacks (--backend): `s3` (the default: moto's server on
// loopback, harness/moto.ts, as a fleet in CI keeps its state in object storage; the CLI and the
// fast path both use it) or `file` (the engine harness's file:// directory). The generated stacks
// (fleet-large.ts) write their checkpoints through `states`, as the diy backend lays them out.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { Engine } from "../harness/engine";

export type BackendKind = "s3" | "file";
export const BACKEND_KINDS: readonly BackendKind[] = ["s3", "file"];

/** The objects of a diy backend, by key (`.pulumi/stacks/<project>/<stack>.json`). */
export interface StateObjects {
  read(key: string): Promise<string>;
  write(key: string, text: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export interface BenchBackend {
  kind: BackendKind;
  /** What the engine and the fleet need to use it (PULUMI_BACKEND_URL, the emulator's credentials). */
  env: Record<string, string>;
  states: StateObjects;
  stop(): Promise<void>;
}

export const checkpointKey = (project: string, stack: string) => `.pulumi/stacks/${project}/${stack}.json`;

function fileStates(dir: string): StateObjects {
  const at = (key: string) => path.join(dir, ...key.split("/"));
  return {
    read: (key) => fs.readFile(at(key), "utf8"),
    write: (key, text) => fs.writeFile(at(key), text),
    remove: (key) => fs.rm(at(key), { force: true }),
  };
}

export async function openBenchBackend(kind: BackendKind, engine: Engine): Promise<BenchBackend> {
  if (kind === "file")
    return {
      kind,
      env: { PULUMI_BACKEND_URL: `file://${engine.backendDir}` },
      states: fileStates(engine.backendDir),
      stop: async () => {},
    };
  // Loaded here: a file:// run needs neither moto nor the SDK.
  const { sharedMoto, stopSharedMoto } = await import("../harness/moto");
  const { S3Client, GetObjectCommand, PutObjectCommand, DeleteObjectCommand } = await import("@aws-sdk/client-s3");
  const moto = await sharedMoto();
  const bucket = `fleet-bench-${randomBytes(4).toString("hex")}`;
  const url = await moto.backendUrl(bucket);
  const s3 = new S3Client(moto.sdkConfig);
  return {
    kind,
    env: { ...moto.env, PULUMI_BACKEND_URL: url },
    states: {
      async read(key) {
        const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await got.Body?.transformToString("utf8")) ?? "";
      },
      async write(key, text) {
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text, ContentType: "application/json" }));
      },
      async remove(key) {
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      },
    },
    async stop() {
      s3.destroy();
      stopSharedMoto();
    },
  };
}
