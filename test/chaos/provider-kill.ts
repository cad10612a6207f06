// The dynamic-provider process killed (SIGKILL) in the middle of an operation, while the CLI
// lives on: the engine sees its provider vanish and fails the run. Whatever that process was
// adding, the service may have added without the state hearing of it; the next run must
// recognise those connectors as the stack's own (the pending-Add journal), not as someone
// else's. The process is found by its command line (the Node SDK's dynamic-provider host)
// and its working directory (the stack's program).
import { promises as fs } from "node:fs";
import { callsTo, type ChaosService } from "./service";

/** The pids of dynamic-provider processes running in `workDir`. */
export async function providerProcesses(workDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const args = await fs.readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (!args.includes("cmd/dynamic-provider")) continue;
    const cwd = await fs.readlink(`/proc/${entry}/cwd`).catch(() => "");
    if (cwd === workDir || cwd.startsWith(`${workDir}/`)) pids.push(Number(entry));
  }
  return pids;
}

export interface ProviderKiller {
  /** Settles once the kill happened (or the watch stopped): a note on what was done. */
  done: Promise<string>;
  stop: () => void;
}

/**
 * Watches the service until `route` has been called `threshold` times, then SIGKILLs the
 * stack's dynamic-provider process(es).
 */
export function killProviderWhenBusy(
  svc: ChaosService,
  workDir: string,
  route: string,
  threshold: number,
): ProviderKiller {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stats = await svc.stats().catch(() => undefined);
      if (!stats || callsTo(stats, route) < threshold) continue;
      const pids = await providerProcesses(workDir);
      if (pids.length === 0) continue;
      // A process can end between the listing and the signal (ESRCH): only a kill that landed counts.
      if (pids.filter(killed).length === 0) continue;
      return `provider process SIGKILLed after ${callsTo(stats, route)} call(s) to ${route}`;
    }
    return "the run ended before the provider process could be killed";
  })();
  return { done, stop: () => void (stopped = true) };
}

function killed(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}
