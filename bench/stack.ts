// A stack of a bench program, run by the same hermetic engine as the e2e tests
// (harness/engine.ts: temporary PULUMI_HOME, file:// backend, no plugin downloads). The
// program is copied into bench/programs/.work/<stack>/ so that the dynamic-provider process
// resolves @pulumi/pulumi and this package from the repository's node_modules.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, Stack, type ConfigMap } from "@pulumi/pulumi/automation";
import { ensureEngine, repoRoot } from "../harness/engine";

export const benchProgramsDir = path.join(repoRoot, "bench", "programs");
const workRoot = path.join(benchProgramsDir, ".work");

export interface ServiceSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accountId: string;
}

export interface BenchStack {
  stack: Stack;
  dispose(): Promise<void>;
}

/**
 * Creates a stack of `program` wired to the service twice over: stack config `embedded:*`
 * (what this package's provider and plugin read, as a user sets it) and EMBEDDED_* in the
 * engine's environment (what the naive baseline reads). `env`: more of the engine's
 * environment (`--env`), for every run of the stack. `programDir`: another program to copy
 * (default bench/programs/<program>).
 */
export async function createBenchStack(
  program: string,
  service: ServiceSettings,
  config: Record<string, string>,
  env: Record<string, string> = {},
  programDir: string = path.join(benchProgramsDir, program),
): Promise<BenchStack> {
  const engine = await ensureEngine();
  const name = `${program}-${randomBytes(4).toString("hex")}`;
  const workDir = path.join(workRoot, name);
  await fs.mkdir(workRoot, { recursive: true });
  await fs.cp(programDir, workDir, { recursive: true });
  const workspace = await LocalWorkspace.create({
    workDir,
    pulumiHome: engine.env.PULUMI_HOME,
    pulumiCommand: engine.command,
    envVars: {
      ...engine.env,
      EMBEDDED_BASE_URL: service.baseUrl,
      EMBEDDED_CLIENT_ID: service.clientId,
      EMBEDDED_CLIENT_SECRET: service.clientSecret,
      EMBEDDED_ACCOUNT_ID: service.accountId,
      ...env,
    },
  });
  const removeWorkDir = async () => {
    await fs.rm(workDir, { recursive: true, force: true });
    await fs.rmdir(workRoot).catch(() => undefined);
  };
  let stack: Stack;
  try {
    stack = await Stack.create(name, workspace);
  } catch (error) {
    // No stack to remove, but the copy of the program must not stay behind.
    await removeWorkDir();
    throw error;
  }
  const dispose = async () => {
    try {
      await workspace.removeStack(name, { force: true });
    } finally {
      await removeWorkDir();
    }
  };
  const all: ConfigMap = {
    "embedded:baseUrl": { value: service.baseUrl },
    "embedded:clientId": { value: service.clientId },
    "embedded:clientSecret": { value: service.clientSecret, secret: true },
    "embedded:accountId": { value: service.accountId },
  };
  for (const [key, value] of Object.entries(config)) all[key] = { value };
  try {
    await stack.setAllConfig(all);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { stack, dispose };
}
