// The backend whose checkpoints the fast path reads: the one the CLI run in the project would
// use (checkpoint.ts, pulumi-project.ts), opened as a store. `file://`, `s3://`, `azblob://` and
// `gs://` are read; the Pulumi Cloud (and any other backend) sends every stack to the engine,
// with the reason.
import { withoutCredentials } from "../../../provider/client/url-credentials";
import { currentBackend, fileBackendPath } from "../../../provider/project/pulumi-project";
import { azblobStore } from "./azblob-store";
import { gsStore } from "./gs-store";
import { s3Store } from "./s3-store";
import { fileStore, stackStore, type BlobStore, type StackStore } from "./store";

type StoreOpener = (url: string, env: NodeJS.ProcessEnv) => Promise<{ store: BlobStore } | { reason: string }>;
const OBJECT_STORES = new Map<string, StoreOpener>([
  ["s3", s3Store],
  ["azblob", azblobStore],
  ["gs", gsStore],
]);

/**
 * The backend the CLI run in `projectDir` with `env` uses, chosen as the CLI chooses it
 * (pulumi-project.ts): a `file://` directory, an object store's URL, or why the fast path cannot
 * read it. Any doubt is a reason (the engine then checks the stack): reading another backend's
 * checkpoint would report a false "clean".
 */
export function chooseBackend(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): { dir: string } | { url: string; shown: string; open: StoreOpener } | { reason: string } {
  const choice = currentBackend(projectDir, env);
  if ("reason" in choice) return choice;
  const dir = fileBackendPath(choice.url, projectDir);
  if (dir !== undefined) return { dir };
  const shown = withoutCredentials(choice.url).split("?")[0];
  const open = OBJECT_STORES.get(/^([a-z0-9]+):\/\//.exec(choice.url)?.[1] ?? "");
  if (!open)
    return { reason: `the backend ${shown} is not one the fast path reads (file://, s3://, azblob://, gs://)` };
  return { url: choice.url, shown, open };
}

export async function openBackend(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stacks: StackStore; store: BlobStore } | { reason: string }> {
  const choice = chooseBackend(projectDir, env);
  if ("reason" in choice) return choice;
  if ("dir" in choice) {
    const store = fileStore(choice.dir);
    return { stacks: stackStore(store), store };
  }
  const opened = await choice.open(choice.url, env);
  if ("reason" in opened) return { reason: `the backend ${choice.shown}: ${opened.reason}` };
  return { stacks: stackStore(opened.store), store: opened.store };
}
