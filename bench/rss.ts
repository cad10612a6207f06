// Peak memory of the provider process: the dynamic-provider process (node running
// @pulumi/pulumi/cmd/dynamic-provider) or a plugin's (node running embedded-start.js, or the
// bench's embeddedfloor-start.js, exec'd by the plugin's launcher). The engine starts it for
// one operation and kills it at the end, so the watcher polls /proc while the operation runs
// and keeps the largest VmHWM (the kernel's own high-water mark of resident memory) it saw per
// process. Linux only; elsewhere the measurement is reported as null.
import { promises as fs, readFileSync } from "node:fs";

/** What a provider process's command line holds (also bench/process-cpu.ts's "provider" role). */
export const PROVIDER_MARKERS = ["cmd/dynamic-provider", "embedded-start.js", "embeddedfloor-start.js"];

async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Other engine runs may share the machine: only descendants of this process count. */
async function descendsFromUs(pid: number): Promise<boolean> {
  let current: number | undefined = pid;
  for (let depth = 0; depth < 8 && current !== undefined && current > 1; depth++) {
    current = await parentOf(current);
    if (current === process.pid) return true;
  }
  return false;
}

async function providerPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, "utf8");
      // The launcher script first runs `node -e "require.resolve(...dynamic-provider)"`: not it.
      if (!PROVIDER_MARKERS.some((marker) => cmdline.includes(marker)) || cmdline.includes("require.resolve")) continue;
      if (await descendsFromUs(Number(entry))) pids.push(Number(entry));
    } catch {
      // the process ended between readdir and read
    }
  }
  return pids;
}

/** The kernel's high-water mark of the process's resident memory (VmHWM), KiB; undefined once it has ended. */
export function highWaterKiB(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface RssWatch {
  /** Stops polling; the largest peak seen over all provider processes, in MiB (null: none seen). */
  stop(): Promise<number | null>;
}

export function watchProviderRss(intervalMs = 100): RssWatch {
  const peaks = new Map<number, number>();
  let running = true;
  const loop = (async () => {
    if (process.platform !== "linux") return;
    while (running) {
      for (const pid of await providerPids()) {
        const kib = highWaterKiB(pid);
        if (kib !== undefined) peaks.set(pid, Math.max(kib, peaks.get(pid) ?? 0));
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      if (peaks.size === 0) return null;
      return Math.round((Math.max(...peaks.values()) / 1024) * 10) / 10;
    },
  };
}
