// The plugin's release archive for Linux, carrying its own Node.js or not (issue 27, item 4):
// the archive's size (the .tar.gz the engine downloads, and unpacked) and the plugin's start,
// for today's archive (the launcher `pulumi-resource-embedded`, which runs the bundle with the
// `node` on PATH: `scripts/release.js --launcher-only`), the single executable that
// `npm run release` now puts in the Linux archives (Node.js 22 with the bundle and V8's code
// cache of it: scripts/sea-plugin.js), and the same without the code cache (as the linux-arm64
// archive is built, since a code cache is made for the builder's architecture only).
// A start is timed from spawning the unpacked plugin to its port on stdout, and to its first
// GetSchema answer over gRPC (what the engine asks first); peak resident memory is read then.
// Each variant is started once before the timed runs (the launcher writes its code cache
// beside the bundle at its first start, as it does in the plugin cache), then `--repeat` times,
// interleaved; medians kept. Writes bench/plugin-archive.json and bench/sections/plugin-archive.md,
// then re-renders BENCHMARKS.md.
//
//   npm run bench:plugin-archive [-- --repeat 15]
import { execFile, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, promisify } from "node:util";
import { gzipSync } from "node:zlib";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { GetSchemaRequest } from "@pulumi/pulumi/proto/provider_pb";
import { repoRoot } from "../harness/engine";
import { PLUGIN_VERSION as version } from "../provider/schema/plugin-release";
import { writeMeasuredSection } from "./render";

const execFileAsync = promisify(execFile);
const platform = `${os.platform()}-${os.arch() === "x64" ? "amd64" : os.arch()}`;

interface Variant {
  name: string;
  what: string;
  dir: string;
  archiveBytes: number;
  unpackedBytes: number;
}

interface Start {
  portMs: number;
  schemaMs: number;
  peakRssMiB: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function unpackedBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await fs.readdir(dir)) total += (await fs.stat(path.join(dir, name))).size;
  return total;
}

/** Unpacks this platform's archive of a release into dir; returns the archive's size. */
async function unpack(releaseDir: string, dir: string): Promise<number> {
  const archive = path.join(releaseDir, `pulumi-resource-embedded-v${version}-${platform}.tar.gz`);
  await fs.mkdir(dir, { recursive: true });
  await execFileAsync("tar", ["-xzf", archive, "-C", dir]);
  return (await fs.stat(archive)).size;
}

/** The size of a .tar.gz of dir's files, packed as scripts/release.js packs them. */
async function archivedBytes(dir: string): Promise<number> {
  const names = (await fs.readdir(dir)).sort();
  const { stdout } = await execFileAsync(
    "tar",
    ["--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", "-", "-C", dir, ...names],
    {
      encoding: "buffer",
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  return gzipSync(stdout, { level: 9 }).length;
}

/** The process's peak resident memory (VmHWM) in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  const kiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kiB / 1024;
}

/** One start of the plugin in dir: to its port, to its first GetSchema answer; then SIGTERM and its exit. */
function startOnce(dir: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(path.join(dir, "pulumi-resource-embedded"), [], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    let portSeen = false;
    let result: Start | undefined;
    let failure: unknown;
    child.on("error", reject);
    child.on("exit", () =>
      result ? resolve(result) : reject(failure ?? new Error(`the plugin in ${dir} ended before its port: ${stdout}`)),
    );
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (portSeen || !stdout.includes("\n")) return;
      portSeen = true;
      const portMs = performance.now() - started;
      const client = new ResourceProviderClient(
        `127.0.0.1:${stdout.split("\n")[0].trim()}`,
        grpc.credentials.createInsecure(),
      );
      client.getSchema(new GetSchemaRequest(), (error) => {
        const schemaMs = performance.now() - started;
        client.close();
        peakRssMiB(child.pid!).then(
          (rss) => {
            if (error) failure = error;
            else result = { portMs, schemaMs, peakRssMiB: rss };
            child.kill("SIGTERM");
          },
          (readError: unknown) => {
            failure = readError;
            child.kill("SIGTERM");
          },
        );
      });
    });
  });
}

async function main(): Promise<void> {
  // Strict: a misspelled flag fails instead of running the default.
  const { values } = parseArgs({ options: { repeat: { type: "string", default: "15" } }, strict: true });
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat takes a whole number from 1");
  if (platform !== "linux-amd64" && platform !== "linux-arm64")
    throw new Error(`the Linux archives are measured on Linux, not ${platform}`);
  const run = new Date().toISOString();
  const loadAtStart = os.loadavg()[0];
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-archive-bench-"));
  const variants: Variant[] = [];
  try {
    const script = (name: string) => path.join(repoRoot, "scripts", name);
    const launcherRelease = path.join(tmp, "launcher-release");
    const seaRelease = path.join(tmp, "sea-release");
    await execFileAsync(
      process.execPath,
      [script("release.js"), "--out", launcherRelease, "--plugin-only", "--launcher-only"],
      { cwd: repoRoot },
    );
    const releaseStarted = performance.now();
    await execFileAsync(process.execPath, [script("release.js"), "--out", seaRelease, "--plugin-only"], {
      cwd: repoRoot,
    });
    const releaseSeconds = (performance.now() - releaseStarted) / 1000;
    const noCacheDir = path.join(tmp, "sea-no-code-cache");
    await execFileAsync(
      process.execPath,
      [script("sea-plugin.js"), "--platform", platform, "--out", noCacheDir, "--no-code-cache"],
      { cwd: repoRoot },
    );
    for (const [name, what, release] of [
      [
        "launcher",
        `today's: the launcher and the bundle, run by the node on PATH (${process.version})`,
        launcherRelease,
      ],
      ["single executable", "Node.js 22 carrying the bundle and its code cache (npm run release)", seaRelease],
    ] as const) {
      const dir = path.join(tmp, name.replace(/ /g, "-"));
      const archiveBytes = await unpack(release, dir);
      variants.push({ name, what, dir, archiveBytes, unpackedBytes: await unpackedBytes(dir) });
    }
    variants.push({
      name: "single executable, no code cache",
      what: "as the linux-arm64 archive is built",
      dir: noCacheDir,
      archiveBytes: await archivedBytes(noCacheDir),
      unpackedBytes: await unpackedBytes(noCacheDir),
    });
    const firstStarts = new Map<string, Start>();
    for (const variant of variants) firstStarts.set(variant.name, await startOnce(variant.dir));
    const runs = new Map<string, Start[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < repeat; i++) {
      for (const variant of variants) runs.get(variant.name)!.push(await startOnce(variant.dir));
    }
    const measurements = variants.map((v) => {
      const starts = runs.get(v.name)!;
      return {
        name: v.name,
        what: v.what,
        archiveBytes: v.archiveBytes,
        unpackedBytes: v.unpackedBytes,
        firstStart: firstStarts.get(v.name)!,
        portMedianMs: Math.round(median(starts.map((s) => s.portMs))),
        schemaMedianMs: Math.round(median(starts.map((s) => s.schemaMs))),
        peakRssMedianMiB: Math.round(median(starts.map((s) => s.peakRssMiB))),
        portRunsMs: starts.map((s) => Math.round(s.portMs)),
      };
    });
    const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), ${platform}, load average (1 min) ${loadAtStart.toFixed(1)} at the start`;
    const command = `npm run bench:plugin-archive -- --repeat ${repeat}`;
    await fs.writeFile(
      path.join(repoRoot, "bench", "plugin-archive.json"),
      `${JSON.stringify({ run, machine, command, releaseSeconds: Math.round(releaseSeconds), measurements }, null, 2)}\n`,
    );
    const mb = (bytes: number) => (bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1);
    const base = measurements[0];
    const section = [
      "## The plugin's Linux release archive: with its own Node.js or not (issue 27)",
      "",
      `Run ${run}, ${machine}. Command: \`${command}\` (bench/plugin-archive.ts; data in bench/plugin-archive.json).`,
      `This platform's archive of \`scripts/release.js --plugin-only --launcher-only\` (today's) and of \`scripts/release.js --plugin-only\``,
      `(${Math.round(releaseSeconds)} s for all four archives), unpacked and started as the engine starts a plugin. Start: from spawn to the`,
      "port on stdout, and to the first GetSchema answer over gRPC; median of the runs, after one first start (listed apart: the",
      "launcher writes its code cache then). Peak resident memory at the GetSchema answer.",
      "",
      "| plugin | .tar.gz | unpacked | start to port | to GetSchema | vs today (GetSchema) | first start (port) | peak RSS |",
      "|---|---|---|---|---|---|---|---|",
      ...measurements.map(
        (m) =>
          `| ${m.name}: ${m.what} | ${mb(m.archiveBytes)} MB | ${mb(m.unpackedBytes)} MB | ${m.portMedianMs} ms | ${m.schemaMedianMs} ms | ` +
          `${(m.schemaMedianMs / base.schemaMedianMs).toFixed(2)}x | ${Math.round(m.firstStart.portMs)} ms | ${m.peakRssMedianMiB} MiB |`,
      ),
      "",
      `Start to port, every run (ms): ${measurements.map((m) => `${m.name} ${m.portRunsMs.join(", ")}`).join("; ")}.`,
      "",
    ].join("\n");
    await writeMeasuredSection(repoRoot, "plugin-archive", section);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
