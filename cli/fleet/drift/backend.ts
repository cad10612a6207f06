// The backend whose checkpoints the fast path reads: the one the CLI run in the project would
// use (checkpoint.ts, pulumi-project.ts), opened as a store. `file://` and `s3://` are read;
// `azblob://`, `gs://` and the Pulumi Cloud send every stack to the engine, with the reason.
import { currentBackend, fileBackendPath, withoutCredentials } from "../../../provider/runtime/pulumi-project";
import { s3Store } from "./s3-store";
import { fileStore, stackStore, type StackStore } from "./store";

export async function openBackend(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stacks: StackStore } | { reason: string }> {
  const choice = currentBackend(projectDir, env);
  if ("reason" in choice) return choice;
  const dir = fileBackendPath(choice.url, projectDir);
  if (dir !== undefined) return { stacks: stackStore(fileStore(dir)) };
  const shown = withoutCredentials(choice.url).split("?")[0];
  if (choice.url.startsWith("s3://")) {
    const opened = await s3Store(choice.url, env);
    if ("reason" in opened) return { reason: `the backend ${shown}: ${opened.reason}` };
    return { stacks: stackStore(opened.store) };
  }
  return { reason: `the backend ${shown} is not one the fast path reads (file://, s3://)` };
}
