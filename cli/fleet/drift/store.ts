// A self-managed backend's objects, as the Pulumi CLI lays them out (pkg/backend/diy): the stack
// `<stack>` of project `<project>` is `.pulumi/stacks/<project>/<stack>.json` (or `.json.gz`)
// when `.pulumi/meta.yaml` says `version: 1`, `.pulumi/stacks/<stack>.json` in the legacy layout
// (version 0, or no meta.yaml in a bucket that holds legacy stack files). Of a plain and a
// gzipped file both present, the CLI reads the gzipped one unless the plain one is newer. The
// same reader serves `file://` and the object stores (s3-store.ts): only `list` and `read` differ.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { parse } from "yaml";
import { fromDeployment, type CheckpointRead } from "./checkpoint";

export interface StoredObject {
  key: string;
  modified: Date;
}

export interface BlobStore {
  /** The backend, for a reason (its URL without credentials or parameters). */
  name: string;
  /** The objects whose key starts with `prefix` and holds no `/` after it (one "directory" level). */
  list(prefix: string): Promise<StoredObject[]>;
  /** An object's bytes; undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>;
  /** Writes an object whole (the drift history only: a checkpoint is never written). */
  write(key: string, bytes: Buffer): Promise<void>;
}

/** A `file://` backend's directory as a store (keys are `/`-separated paths under it). */
export function fileStore(dir: string): BlobStore {
  return {
    name: `file://${dir}`,
    async list(prefix) {
      const at = path.join(dir, ...prefix.split("/").slice(0, -1));
      const start = prefix.slice(prefix.lastIndexOf("/") + 1);
      const entries = await fs.readdir(at, { withFileTypes: true }).catch(() => []);
      const objects: StoredObject[] = [];
      for (const e of entries) {
        if (!e.isFile() || !e.name.startsWith(start)) continue;
        const stat = await fs.stat(path.join(at, e.name));
        objects.push({ key: `${prefix.slice(0, prefix.length - start.length)}${e.name}`, modified: stat.mtime });
      }
      return objects;
    },
    async write(key, bytes) {
      const file = path.join(dir, ...key.split("/"));
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file); // whole or not at all
    },
    async read(key) {
      return fs.readFile(path.join(dir, ...key.split("/"))).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
    },
  };
}

/**
 * What an object store's keys start with: gocloud's `prefix` parameter, then the URL's path as a
 * directory (the diy backend's PrefixedBucket of `s3://bucket/a/b`, `azblob://container/a/b`).
 */
export function bucketPrefix(u: URL, prefixParam: string): string {
  const dir = decodeURIComponent(u.pathname).replace(/^\/+/, "");
  return `${prefixParam}${dir && !dir.endsWith("/") ? `${dir}/` : dir}`;
}

const STACKS = ".pulumi/stacks/";

/** The layout version, as ensurePulumiMeta reads it, or why it cannot be told. */
async function layoutVersion(store: BlobStore): Promise<number | { reason: string }> {
  const meta = await store.read(".pulumi/meta.yaml");
  if (meta === undefined) {
    const legacy = (await store.list(STACKS)).some((o) => /\.json(\.gz)?$/.test(o.key));
    return legacy ? 0 : 1;
  }
  let version: unknown;
  try {
    version = (parse(meta.toString("utf8")) as { version?: unknown } | null)?.version;
  } catch {
    return { reason: "its .pulumi/meta.yaml does not parse" };
  }
  if (version === 0 || version === 1) return version;
  return { reason: `its .pulumi/meta.yaml version is ${JSON.stringify(version)}; the fast path reads 0 and 1` };
}

/** The stack's checkpoint object, chosen as the CLI's stackPath chooses it. */
function checkpointKey(objects: StoredObject[], base: string): string | undefined {
  const plain = objects.find((o) => o.key === `${base}.json`);
  const gzipped = objects.find((o) => o.key === `${base}.json.gz`);
  if (gzipped && !(plain && plain.modified > gzipped.modified)) return gzipped.key;
  return plain?.key;
}

export interface StackStore {
  readCheckpoint(project: string, stack: string): Promise<CheckpointRead>;
}

/** The checkpoints of a store; its layout read once. */
export function stackStore(store: BlobStore): StackStore {
  let layout: Promise<number | { reason: string }> | undefined;
  return {
    async readCheckpoint(project, stack) {
      try {
        layout ??= layoutVersion(store);
        const version = await layout;
        if (typeof version !== "number") return version;
        const base = version === 1 ? `${STACKS}${project}/${stack}` : `${STACKS}${stack}`;
        const key = checkpointKey(await store.list(`${base}.json`), base);
        const raw = key === undefined ? undefined : await store.read(key);
        if (key === undefined || raw === undefined)
          return { reason: `${store.name} holds no checkpoint of the stack (never applied?)` };
        let parsed: unknown;
        try {
          parsed = JSON.parse((key.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
        } catch {
          return { reason: `its checkpoint ${key} does not parse` };
        }
        return fromDeployment(parsed);
      } catch (error) {
        return { reason: `${store.name} could not be read: ${(error as Error).message}` };
      }
    },
  };
}
