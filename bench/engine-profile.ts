// The engine's own CPU profile (`pulumi --profiling`, written by bench/profile.ts's runs), read
// with `go tool pprof` and summed by groups of functions: where the Go engine's CPU goes.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { execFileAsync } from "../harness/engine";
import { round } from "./process-cpu";

/**
 * Groups of the engine's CPU samples, by a frame of the sample's stack (function names as
 * `go tool pprof -traces` prints them for Pulumi 3.248). A sample counts in every group it
 * matches (cumSeconds) and in the first one only (exclusiveSeconds): the order puts a sample
 * with the engine's purpose (checkpoint, gRPC handler) before the generic (JSON, allocation).
 */
export const GROUPS: { name: string; frame: RegExp }[] = [
  // --profiling's own execution trace: an artifact of measuring.
  { name: "profiler (runtime trace)", frame: /^runtime\.(\(\*)?trace(?!back)|^runtime\.ReadTrace$|^runtime\/trace\./ },
  // The passphrase secrets manager derives its key once per command (config.NewSymmetricCrypterFromPassphrase).
  { name: "passphrase KDF (pbkdf2)", frame: /pbkdf2\.Key/ },
  {
    name: "checkpoint persistence",
    frame:
      /backend\.\(\*SnapshotManager\)\.|diy\.\(\*diySnapshotPersister\)\.|diy\.\(\*diyBackend\)\.(saveCheckpoint|saveStack)$/,
  },
  {
    name: "secrets encrypt/decrypt",
    frame: /\.(EncryptValue|DecryptValue|BatchEncrypt|BatchDecrypt)$|^crypto\/internal\/fips140\/aes|^crypto\/cipher\./,
  },
  { name: "RegisterResource handler", frame: /deploy\.\(\*resmon\)\.RegisterResource/ },
  { name: "provider client", frame: /resource\/plugin\.\(\*provider\)\./ },
  { name: "step execution", frame: /resource\/deploy\.\(\*(stepExecutor|stepGenerator|deploymentExecutor)\)\./ },
  { name: "events/display", frame: /\/backend\/display\.|\/engine\.\(\*eventEmitter\)\.|\/engine\.NewEvent/ },
  { name: "gRPC/protobuf", frame: /^google\.golang\.org\/(grpc|protobuf)/ },
  { name: "JSON", frame: /^encoding\/json\./ },
  {
    name: "GC/allocation",
    frame: /^runtime\.(gcBgMarkWorker|mallocgc|gcAssistAlloc|bgsweep|bgscavenge|gcStart|markroot|scanobject)/,
  },
];

const seconds = (text: string): number => {
  // pprof's time units (its measurement package): ns, us or μs, ms, s, hrs.
  const match = /^([\d.]+)(ns|us|μs|µs|ms|s|hrs)$/.exec(text);
  if (!match) throw new Error(`pprof: cannot read the duration ${JSON.stringify(text)}`);
  const scale: Record<string, number> = { ns: 1e-9, us: 1e-6, μs: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, hrs: 3600 };
  return Number(match[1]) * scale[match[2]];
};

export interface EngineProfile {
  cpuFile: string;
  durationSeconds: number;
  totalSampleSeconds: number;
  groups: { name: string; cumSeconds: number; exclusiveSeconds: number }[];
  /** Samples in no group. */
  ungroupedSeconds: number;
}

/** pprof of the engine's CPU profile: the raw top (kept in `dir`) and the groups' seconds (from -traces). */
export async function analyseCpuProfile(binary: string, cpuFile: string, dir: string): Promise<EngineProfile> {
  const pprof = async (...args: string[]) =>
    (
      await execFileAsync("go", ["tool", "pprof", ...args, binary, cpuFile], {
        cwd: dir,
        env: { ...process.env, GOTOOLCHAIN: "local" },
        maxBuffer: 1 << 30,
      })
    ).stdout;
  const top = await pprof("-top", "-cum", "-nodecount=40");
  await fs.writeFile(path.join(dir, "pprof-top.txt"), top);
  const header = /Duration: ([\d.]+\w+), Total samples = ([\d.]+\w+)/.exec(top);
  if (!header) throw new Error(`pprof: no "Total samples" in ${path.join(dir, "pprof-top.txt")}`);
  const traces = await pprof("-traces");
  await fs.writeFile(path.join(dir, "pprof-traces.txt"), traces);
  const cum = GROUPS.map(() => 0);
  const exclusive = GROUPS.map(() => 0);
  let ungrouped = 0;
  // Each sample: its value on the first line, then one frame per line, ended by a line of dashes.
  for (const block of traces.split(/^-+\+-+$/m).slice(1)) {
    const lines = block
      .split("\n")
      .map((line) => line.trim().replace(/ \(inline\)$/, ""))
      .filter((line) => line !== "");
    const first = /^(\S+)\s+(.*)$/.exec(lines[0] ?? "");
    if (!first) continue;
    const value = seconds(first[1]);
    const frames = [first[2], ...lines.slice(1)];
    const hits = GROUPS.map((group) => frames.some((frame) => group.frame.test(frame)));
    hits.forEach((hit, i) => (cum[i] += hit ? value : 0));
    const owner = hits.indexOf(true);
    if (owner >= 0) exclusive[owner] += value;
    else ungrouped += value;
  }
  return {
    cpuFile,
    durationSeconds: round(seconds(header[1])),
    totalSampleSeconds: round(seconds(header[2])),
    groups: GROUPS.map((group, i) => ({
      name: group.name,
      cumSeconds: round(cum[i]),
      exclusiveSeconds: round(exclusive[i]),
    })),
    ungroupedSeconds: round(ungrouped),
  };
}
