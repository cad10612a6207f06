// A stack's last checkpoint, read from a file backend directly (`file://`: what
// PULUMI_BACKEND_URL, Pulumi.yaml's backend.url or the CLI's login names), for the fleet's fast
// drift check. Exporting it through the CLI costs an engine start per stack; the file costs a
// read. Anything this reader does not know for certain (another backend, another state
// version, a checkpoint it cannot find) is a reason, and the stack goes to the engine.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { currentBackend, fileBackendPath, withoutCredentials } from "../../../provider/runtime/pulumi-project";

/** A resource of the checkpoint (deployment version 3), the fields the drift check reads. */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  delete?: boolean;
  pendingReplacement?: boolean;
}

export interface Checkpoint {
  resources: StateResource[];
  /** The passphrase provider's `salt` state, when the stack uses it. */
  passphraseSalt?: string;
}

export type CheckpointRead = { checkpoint: Checkpoint } | { reason: string };

/**
 * The file backend's directory, or why there is none to read: the backend the CLI run in
 * `projectDir` with `env` uses, chosen as the CLI chooses it (pulumi-project.ts). Any doubt is
 * a reason (the engine then checks the stack): reading another backend's checkpoint would
 * report a false "clean".
 */
export async function fileBackendDir(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ dir: string } | { reason: string }> {
  const choice = currentBackend(projectDir, env);
  if ("reason" in choice) return choice;
  const dir = fileBackendPath(choice.url, projectDir);
  if (dir === undefined) return { reason: `the backend ${withoutCredentials(choice.url)} is not a file:// backend` };
  return { dir };
}

/** The checkpoint file of a stack: project-scoped first, then the backend's legacy layout. */
function candidates(backendDir: string, project: string, stack: string): string[] {
  const stacks = path.join(backendDir, ".pulumi", "stacks");
  const files: string[] = [];
  for (const base of [path.join(stacks, project, stack), path.join(stacks, stack)])
    files.push(`${base}.json`, `${base}.json.gz`);
  return files;
}

export async function readCheckpoint(backendDir: string, project: string, stack: string): Promise<CheckpointRead> {
  const file = candidates(backendDir, project, stack).find((f) => existsSync(f));
  if (!file) return { reason: "the backend holds no checkpoint of the stack (never applied?)" };
  let parsed: unknown;
  try {
    const raw = await fs.readFile(file);
    parsed = JSON.parse((file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
  } catch {
    return { reason: `its checkpoint ${path.basename(file)} does not parse` };
  }
  return fromDeployment(parsed);
}

/** The checkpoint of a parsed state file, or why the fast path cannot take it. */
export function fromDeployment(parsed: unknown): CheckpointRead {
  const state = parsed as {
    version?: unknown;
    checkpoint?: {
      latest?: {
        resources?: unknown;
        pending_operations?: unknown[];
        secrets_providers?: { type?: unknown; state?: { salt?: unknown } };
      } | null;
    };
  } | null;
  if (state?.version !== 3)
    return { reason: `its state version is ${JSON.stringify(state?.version)}; the fast path reads version 3` };
  const latest = state.checkpoint?.latest;
  if (!latest) return { reason: "its checkpoint holds no deployment (never applied?)" };
  if (!Array.isArray(latest.resources)) return { reason: "its checkpoint's resources are not a list" };
  if ((latest.pending_operations ?? []).length > 0)
    return { reason: "its checkpoint has pending operations (an interrupted update)" };
  const provider = latest.secrets_providers;
  const passphraseSalt =
    provider?.type === "passphrase" && typeof provider.state?.salt === "string" ? provider.state.salt : undefined;
  return { checkpoint: { resources: latest.resources as StateResource[], passphraseSalt } };
}
