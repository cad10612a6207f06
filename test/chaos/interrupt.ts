// The engine interrupted: `pulumi up` or `pulumi destroy` run by the CLI itself (the
// Automation API cannot SIGKILL), SIGINT after a random delay, SIGKILL 300 ms later if it
// still runs; then the lock a killed run leaves in the file backend is removed, as a user
// of a DIY backend would (there is no `pulumi cancel` for it).
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ensureEngine, type E2EStack } from "../e2e/harness";

/** mulberry32: the same seed gives the same interruption points. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function removeLocks(dir: string, stackName: string): Promise<number> {
  let removed = 0;
  const walk = async (d: string): Promise<void> => {
    for (const entry of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (full.includes(stackName)) {
        await fs.rm(full, { force: true });
        removed++;
      }
    }
  };
  await walk(path.join(dir, ".pulumi", "locks"));
  return removed;
}

/** Runs the operation, interrupts it, cleans the lock; returns a note on what happened and all it printed. */
export async function interruptedRun(
  stack: E2EStack,
  which: "up" | "destroy",
  seed: number,
): Promise<{ note: string; output: string; finished: boolean }> {
  const engine = await ensureEngine();
  // A destroy is quicker than an up: its window is shorter.
  const delayMs = 800 + Math.floor(random(seed * 31 + (which === "up" ? 1 : 2))() * (which === "up" ? 5000 : 2500));
  const child = spawn(
    engine.command.command,
    [which, "--yes", "--skip-preview", "--non-interactive", "--stack", stack.name],
    {
      cwd: stack.workDir,
      env: { ...process.env, ...engine.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let how = "finished before the interrupt";
  const timer = setTimeout(() => {
    how = `SIGINT at ${delayMs} ms`;
    child.kill("SIGINT");
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) {
        how += ", SIGKILL 300 ms later";
        child.kill("SIGKILL");
      }
    }, 300);
  }, delayMs);
  const code = await exited;
  clearTimeout(timer);
  const locks = await removeLocks(engine.backendDir, stack.name);
  const note = `${which}: ${how} (exit ${code ?? "killed"}${locks > 0 ? `, ${locks} lock removed` : ""})`;
  return { note, output: output.join(""), finished: code === 0 && !how.startsWith("SIGINT") };
}
