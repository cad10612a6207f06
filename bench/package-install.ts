// The npm package's install from an empty directory, before and after it was cut to a registry
// package's size (issue 39, item 7). Before: the package as a release packed it once a Node.js
// language host had installed the plugin folder's package.json into dist/plugin (a
// `pulumi package get-schema dist/plugin` in the checkout; `files` then took the whole
// folder): here a copy of the built tree whose dist/plugin gets that `npm install`, packed
// under the earlier `files`. After: `npm pack` of this checkout. Each tarball is published by
// scripts/publish/npm.sh to its own verdaccio on loopback (test/e2e/by-name-registries.ts), whose
// uplink is the machine's npm registry; then, interleaved, `--repeat` times each: a new empty
// directory and an empty npm cache, the commands of docs/installation-configuration.md's
// "## TypeScript" (`npm init --yes`, then `npm install pulumi-embedded-connectors @pulumi/pulumi`,
// which alone is timed). One unrecorded install per registry first, so that verdaccio holds the
// dependencies it fetches from its uplink. Writes bench/package-install.json and
// bench/sections/package-install.md, then re-renders BENCHMARKS.md.
//
//   npm run bench:package-install [-- --repeat 5]
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, promisify } from "node:util";
import { repoRoot } from "../harness/engine";
import { startNpmRegistryAlone } from "../harness/registries";
import { writeMeasuredSection } from "./render";

const execFileAsync = promisify(execFile);

/** package.json's `files` for dist/plugin before issue 39: the whole folder, whatever it held. */
const EARLIER_PLUGIN_FILES = ["dist/plugin", "!dist/plugin/.*.v8cache"];

interface Variant {
  name: string;
  tarball: string;
  registry?: string;
  packedFiles: number;
  unpackedBytes: number;
  tarballBytes: number;
  installMs: number[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `npm pack` of dir into out: the tarball's path and what npm counted. */
async function pack(dir: string, out: string): Promise<Omit<Variant, "name" | "installMs">> {
  await fs.mkdir(out, { recursive: true });
  const { stdout } = await execFileAsync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], {
    cwd: dir,
    maxBuffer: 256 * 1024 * 1024,
  });
  const [info] = JSON.parse(stdout) as { filename: string; entryCount: number; unpackedSize: number; size: number }[];
  return {
    tarball: path.join(out, info.filename),
    packedFiles: info.entryCount,
    unpackedBytes: info.unpackedSize,
    tarballBytes: info.size,
  };
}

/** The built tree as a release packed it before: dist/plugin with its host-installed node_modules, the earlier `files`. */
async function earlierPackage(stage: string): Promise<string> {
  await fs.cp(path.join(repoRoot, "dist"), path.join(stage, "dist"), { recursive: true });
  const manifest = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as { files: string[] };
  manifest.files = [...EARLIER_PLUGIN_FILES, ...manifest.files.filter((f) => !f.startsWith("dist/plugin/"))];
  await fs.writeFile(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // What the Node.js language host runs in a plugin folder (its InstallDependencies).
  await execFileAsync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: path.join(stage, "dist", "plugin"),
    maxBuffer: 64 * 1024 * 1024,
  });
  return stage;
}

/** One install from an empty directory and an empty npm cache; its wall time (ms). */
async function installOnce(registry: string, tmp: string, label: string): Promise<number> {
  const dir = await fs.mkdtemp(path.join(tmp, `${label}-`));
  const userconfig = path.join(dir, ".npmrc-user");
  await fs.writeFile(userconfig, "");
  const env = {
    ...process.env,
    NPM_CONFIG_REGISTRY: registry,
    NPM_CONFIG_USERCONFIG: userconfig,
    NPM_CONFIG_CACHE: path.join(dir, ".npm-cache"),
    NPM_CONFIG_AUDIT: "false",
    NPM_CONFIG_FUND: "false",
  };
  const project = path.join(dir, "project");
  await fs.mkdir(project);
  await execFileAsync("npm", ["init", "--yes"], { cwd: project, env });
  const started = performance.now();
  await execFileAsync("npm", ["install", "pulumi-embedded-connectors", "@pulumi/pulumi"], {
    cwd: project,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  await fs.rm(dir, { recursive: true, force: true });
  return ms;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { repeat: { type: "string", default: "5" } }, strict: true });
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`--repeat ${values.repeat}: give a whole number, 1 or more`);
  const run = new Date().toISOString();
  const loadAtStart = os.loadavg()[0];
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-bench-install-"));
  const stops: (() => Promise<void>)[] = [];
  try {
    const tools = (await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-registries.sh")])).stdout
      .trim()
      .split("\n")
      .pop()!;
    const variants: Variant[] = [
      {
        name: "before",
        ...(await pack(await earlierPackage(path.join(tmp, "stage")), path.join(tmp, "before"))),
        installMs: [],
      },
      { name: "after", ...(await pack(repoRoot, path.join(tmp, "after"))), installMs: [] },
    ];
    for (const v of variants) {
      const registryDir = path.join(tmp, `registry-${v.name}`);
      await fs.mkdir(registryDir);
      const registry = await startNpmRegistryAlone(registryDir, tools, path.dirname(v.tarball), "200mb");
      stops.push(registry.stop);
      v.registry = registry.url;
      await installOnce(v.registry, tmp, `warm-${v.name}`);
    }
    for (let i = 0; i < repeat; i++)
      for (const v of variants) v.installMs.push(await installOnce(v.registry!, tmp, `${v.name}-${i}`));
    const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), Node ${process.version}, npm ${(await execFileAsync("npm", ["--version"])).stdout.trim()}, load average (1 min) ${loadAtStart.toFixed(1)} at the start`;
    const command = `npm run bench:package-install -- --repeat ${repeat}`;
    const measurements = variants.map(({ name, packedFiles, unpackedBytes, tarballBytes, installMs }) => ({
      name,
      packedFiles,
      unpackedBytes,
      tarballBytes,
      installMedianMs: Math.round(median(installMs)),
      installRunsMs: installMs.map(Math.round),
    }));
    await fs.writeFile(
      path.join(repoRoot, "bench", "package-install.json"),
      `${JSON.stringify({ run, machine, command, measurements }, null, 2)}\n`,
    );
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    const section = [
      "## Installing the npm package from an empty directory, before and after its cut to a registry package's size (issue 39)",
      "",
      `Run ${run}, ${machine}. Command: \`${command}\` (bench/package-install.ts; data in bench/package-install.json).`,
      "Before: the package as a release packed it once a Node.js language host had installed `@pulumi/pulumi` into",
      "dist/plugin (package.json's `files` then took the whole folder); after: `npm pack` of this checkout. Each from its own",
      "verdaccio on loopback (scripts/publish/npm.sh), its uplink the machine's npm registry. Timed: `npm install",
      "pulumi-embedded-connectors @pulumi/pulumi` in a new empty directory with an empty npm cache (docs/installation-configuration.md,",
      "TypeScript), interleaved, after one unrecorded install per registry; the median of the runs.",
      "",
      "| package | files | unpacked | tarball | install (median) |",
      "|---|---|---|---|---|",
      ...measurements.map(
        (m) =>
          `| ${m.name} | ${m.packedFiles} | ${mb(m.unpackedBytes)} MB | ${mb(m.tarballBytes)} MB | ${(m.installMedianMs / 1000).toFixed(1)} s |`,
      ),
      "",
      `Install, every run (s): ${measurements.map((m) => `${m.name} ${m.installRunsMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")}`).join("; ")}.`,
      "",
    ].join("\n");
    await writeMeasuredSection(repoRoot, "package-install", section);
  } finally {
    for (const stop of stops) await stop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
