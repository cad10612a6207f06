// Where the drift history is kept (history.ts): `--history backend`, beside the checkpoints in
// the fleet's own backend (`.pulumi/embedded-fleet/drift-history/<project>.json` in the
// `file://` directory or the s3://, azblob:// or gs:// bucket the CLI uses); `--history FILE`, a
// file the workflow keeps (a cache or artifact between nightly runs). One document per project, and
// per shard with --shard: shards running at once each read and write their own (a stack's shard is
// a hash of its name, so it stays in its shard; with another shard count, the history starts again).
// Written whole (a file by rename), and only after the run's checks: a checkpoint is never
// touched.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseShard } from "../select";
import { openBackend } from "./backend";
import { emptyHistory, historyOf, type HistoryDoc } from "./history";

export interface HistoryStore {
  /** For the report: the file, or the backend's object. */
  where: string;
  read(): Promise<HistoryDoc>;
  write(doc: HistoryDoc): Promise<void>;
}

export const BACKEND = "backend";

function serialize(doc: HistoryDoc): Buffer {
  return Buffer.from(`${JSON.stringify(doc, null, 2)}\n`);
}

function parsed(bytes: Buffer, where: string): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new Error(`${where} does not parse as JSON; move it away (the next run starts the history again)`);
  }
}

export function fileHistory(file: string, project: string): HistoryStore {
  const where = path.relative(process.cwd(), file) || file;
  return {
    where,
    async read() {
      const bytes = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw new Error(`--history ${where}: cannot be read (${error.code ?? "error"})`);
      });
      return bytes === undefined ? emptyHistory(project) : historyOf(parsed(bytes, where), project, where);
    },
    async write(doc) {
      await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, serialize(doc));
      await fs.rename(tmp, file);
    },
  };
}

/** The history store `--history` names, or why there is none. */
export async function openHistory(
  flag: string,
  projectDir: string,
  project: string,
  env: NodeJS.ProcessEnv = process.env,
  shard?: string,
): Promise<HistoryStore | { because: string }> {
  if (flag !== BACKEND) return fileHistory(path.resolve(flag), project);
  const backend = await openBackend(projectDir, env);
  if ("reason" in backend)
    return { because: `--history backend: ${backend.reason}; give --history FILE (a file the workflow keeps)` };
  const part = shard === undefined ? "" : `.shard-${parseShard(shard).index}-of-${parseShard(shard).count}`;
  const key = `.pulumi/embedded-fleet/drift-history/${project}${part}.json`;
  const where = `${backend.store.name.replace(/\/+$/, "")}/${key}`;
  return {
    where,
    async read() {
      const bytes = await backend.store.read(key);
      return bytes === undefined ? emptyHistory(project) : historyOf(parsed(bytes, where), project, where);
    },
    write: (doc) => backend.store.write(key, serialize(doc)),
  };
}
