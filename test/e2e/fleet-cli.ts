// The project's CLI run as a user runs it (`pulumi-embedded-connectors fleet …`), for the fleet's
// end-to-end tests: its exit code and its whole output, whether it succeeds or fails.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";

const execFileAsync = promisify(execFile);

export const cli = path.join(repoRoot, "dist", "cli", "main.js");

export interface CliRun {
  code: number;
  /** stdout, then stderr. */
  output: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A run that never ends is killed (SIGKILL) after this long: a failure of its own, not the suite's hang. */
  timeoutMs?: number;
}

export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return execFileAsync(process.execPath, [cli, ...args], {
    env: options.env,
    cwd: options.cwd ?? repoRoot,
    maxBuffer: 64 * 1024 * 1024,
    ...(options.timeoutMs ? { timeout: options.timeoutMs, killSignal: "SIGKILL" as const } : {}),
  })
    .then((r) => ({ code: 0, output: `${r.stdout}${r.stderr}` }))
    .catch((e: { code?: unknown; stdout?: string; stderr?: string }) => ({
      code: typeof e.code === "number" ? e.code : -1,
      output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
    }));
}
