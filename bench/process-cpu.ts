// CPU time and peak memory of every process this one starts (the engine, the language host,
// the program, the providers and their launchers), by role, while an engine operation runs.
// Each poll reads /proc/<pid>/stat of every process, keeps this process's descendants and
// remembers each one's latest utime+stime (its own CPU, children excluded) and largest VmHWM.
// A process that ends between two polls loses at most one interval of CPU; the reaped total
// (this process's cutime+cstime, which the kernel adds as each descendant is waited for) is
// the exact total to check the attributed sum against. Linux only. The engine's own CPU
// profile is read by engine-profile.ts.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { highWaterKiB, PROVIDER_MARKERS } from "./rss";

export const ROLES = ["engine", "language-host", "program", "provider", "service", "other"] as const;
export type Role = (typeof ROLES)[number];

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The role of a process by its argv (NUL-separated in /proc/<pid>/cmdline). */
export function classify(argv: string[]): Role {
  const executable = (argv[0] ?? "").split("/").pop() ?? "";
  if (executable === "pulumi") return "engine";
  if (executable === "pulumi-language-nodejs") return "language-host";
  const text = argv.join(" ");
  // The dynamic provider's launcher first runs `node -e "require.resolve(...dynamic-provider)"`.
  if (text.includes("require.resolve")) return "other";
  if (PROVIDER_MARKERS.some((marker) => text.includes(marker))) return "provider";
  if (text.includes("@pulumi/pulumi/cmd/run")) return "program";
  if (text.includes("service-child.js")) return "service"; // the local service (harness/service-process.ts)
  return "other";
}

interface Stat {
  ppid: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
  /** cutime + cstime: waited-for children's ticks. */
  childTicks: number;
  /** Start time since boot: with the pid, identifies the process across pid reuse. */
  start: number;
}

function readStat(pid: number | "self"): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; fields after its closing parenthesis do not.
    const fields = text
      .slice(text.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    return { ppid: fields[1], ticks: fields[11] + fields[12], childTicks: fields[13] + fields[14], start: fields[19] };
  } catch {
    return undefined; // ended between readdir and read
  }
}

function readArgv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter((arg) => arg !== "");
  } catch {
    return [];
  }
}

export interface ProcessCpu {
  pid: number;
  role: Role;
  /** The command line, shortened. */
  command: string;
  cpuSeconds: number;
  peakRssMiB: number;
}

export interface RoleCpu {
  cpuSeconds: number;
  processes: number;
  /** The largest VmHWM of one process of the role. */
  peakRssMiB: number;
}

export interface TreeCpu {
  wallSeconds: number;
  roles: Record<Role, RoleCpu>;
  /** The sum over roles (what the polls attributed). */
  attributedCpuSeconds: number;
  /** CPU of all descendants reaped during the operation (exact; includes what polls missed). */
  reapedCpuSeconds: number;
  /** This process (the bench: the Automation API side, the poller itself), process.cpuUsage(). */
  benchCpuSeconds: number;
  /** The part of benchCpuSeconds spent in the polls (each poll is synchronous and timed). */
  pollerCpuSeconds: number;
  polls: number;
  intervalMs: number;
  processes: ProcessCpu[];
}

interface Tracked {
  pid: number;
  argv: string[];
  ticks: number;
  /** Ticks it had already used when the watch started (the local service outlives operations). */
  ticksBefore: number;
  peakKiB: number;
}

/** CPU seconds of every descendant this process has reaped so far (cutime + cstime): a finished child's exact total. */
export function reapedCpuSeconds(): number {
  return (readStat("self")?.childTicks ?? 0) / ticksPerSecond;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** One synchronous pass over /proc: every descendant's ticks, role and high-water mark. */
function poll(tracked: Map<string, Tracked>, first = false): void {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.set(Number(entry), stat);
  }
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const pending = [...(children.get(process.pid) ?? [])];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    pending.push(...(children.get(pid) ?? []));
    const stat = stats.get(pid);
    if (!stat) continue;
    const key = `${pid}@${stat.start}`;
    const known = tracked.get(key);
    // Read at every poll: a forked child shows its parent's command line until it execs, and a
    // launcher that execs node keeps its pid. Empty once the process has ended: keep the last.
    const argv = readArgv(pid);
    // An exec starts a new address space and VmHWM with it: the fork's copy of its parent's does not count.
    const execed = known !== undefined && argv.length > 0 && argv.join("\0") !== known.argv.join("\0");
    tracked.set(key, {
      pid,
      argv: argv.length > 0 ? argv : (known?.argv ?? []),
      ticks: Math.max(stat.ticks, known?.ticks ?? 0),
      ticksBefore: known?.ticksBefore ?? (first ? stat.ticks : 0),
      peakKiB: Math.max(highWaterKiB(pid) ?? 0, execed ? 0 : (known?.peakKiB ?? 0)),
    });
  }
}

export interface TreeCpuWatch {
  /** Stops polling (after one last poll) and sums by role. */
  stop(): TreeCpu;
}

/** Call just before starting the operation's process; stop() once it has exited. */
export function watchTreeCpu(intervalMs = 50): TreeCpuWatch {
  if (process.platform !== "linux") throw new Error("process-cpu: reads /proc, Linux only");
  const tracked = new Map<string, Tracked>();
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  const reapedAtStart = readStat("self")?.childTicks ?? 0;
  let pollerMicros = 0;
  let polls = 0;
  const timedPoll = (first = false) => {
    const before = process.cpuUsage();
    poll(tracked, first);
    const spent = process.cpuUsage(before);
    pollerMicros += spent.user + spent.system;
    polls++;
  };
  timedPoll(true); // what already runs (the local service) counts from now on only
  const timer = setInterval(timedPoll, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      timedPoll();
      const wallSeconds = (performance.now() - startedAt) / 1000;
      const cpu = process.cpuUsage(cpuAtStart);
      const reapedTicks = (readStat("self")?.childTicks ?? 0) - reapedAtStart;
      const roles = Object.fromEntries(
        ROLES.map((role) => [role, { cpuSeconds: 0, processes: 0, peakRssMiB: 0 }]),
      ) as Record<Role, RoleCpu>;
      const processes: ProcessCpu[] = [...tracked.values()].map((p) => ({
        pid: p.pid,
        role: classify(p.argv),
        command: p.argv.join(" ").slice(0, 160),
        cpuSeconds: round((p.ticks - p.ticksBefore) / ticksPerSecond, 2),
        peakRssMiB: round(p.peakKiB / 1024, 1),
      }));
      for (const p of processes) {
        const role = roles[p.role];
        role.cpuSeconds = round(role.cpuSeconds + p.cpuSeconds, 2);
        role.processes++;
        role.peakRssMiB = Math.max(role.peakRssMiB, p.peakRssMiB);
      }
      return {
        wallSeconds: round(wallSeconds, 2),
        roles,
        attributedCpuSeconds: round(
          processes.reduce((sum, p) => sum + p.cpuSeconds, 0),
          2,
        ),
        reapedCpuSeconds: round(reapedTicks / ticksPerSecond, 2),
        benchCpuSeconds: round((cpu.user + cpu.system) / 1e6, 2),
        pollerCpuSeconds: round(pollerMicros / 1e6, 2),
        polls,
        intervalMs,
        processes: processes.sort((a, b) => b.cpuSeconds - a.cpuSeconds),
      };
    },
  };
}
