// The hermetic Pulumi engine shared by the end-to-end and consumer tests, chaos and the
// benchmarks: the CLI and language host built (or reused) by
// scripts/ensure-pulumi.sh once per process, the hermetic environment every engine run gets,
// and the plugin `embedded` installed into its temporary PULUMI_HOME.
import { execFile, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PulumiCommand } from "@pulumi/pulumi/automation";

export const execFileAsync = promisify(execFile);

/** The repository root (found by walking up from this file, which compiles to dist/harness/engine.js). */
export const repoRoot = findRepoRoot(__dirname);

/** The newest CLI the Go module proxy here serves and builds (tools/pulumi-v3.274.1): compat cell (b), the SDK examples' second run. */
export const NEWEST_CLI = "v3.274.1";

/** Long enough for the slowest engine run on a 2-core CI machine. */
export const ENGINE_TIMEOUT_MS = 180_000;

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require(path.join(dir, "package.json")) as { name?: string };
      if (pkg.name === "pulumi-embedded-connectors") {
        return dir;
      }
    } catch {
      // not here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the repository root above ${start}`);
    }
    dir = parent;
  }
}

export interface Engine {
  /** The directory holding pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs. */
  binDir: string;
  command: PulumiCommand;
  /** The hermetic environment every engine run gets (on top of process.env). */
  env: Record<string, string>;
  /** The temporary directory holding PULUMI_HOME and the file:// backend. */
  tmpDir: string;
  /** The file:// backend's directory. */
  backendDir: string;
}

/** The engines of this process, by CLI version ("" for the suite's). */
const enginePromises = new Map<string, Promise<Engine>>();

/**
 * Builds or reuses the engine (once per process and CLI version: a mocha run, a benchmark) and
 * prepares the hermetic environment: a temporary PULUMI_HOME, a file:// backend
 * in a temporary directory, a passphrase, no update check, no plugin acquisition, and the
 * engine's bin directory first on PATH. `cliVersion` ("vX.Y.Z", a CLI that
 * scripts/ensure-pulumi.sh can build): that CLI, with the same language hosts, in an
 * environment of its own; without it, the suite's (the version of node_modules' @pulumi/pulumi).
 */
export function ensureEngine(cliVersion?: string): Promise<Engine> {
  const key = cliVersion ?? "";
  let engine = enginePromises.get(key);
  if (!engine) enginePromises.set(key, (engine = prepareEngine(cliVersion)));
  return engine;
}

async function prepareEngine(cliVersion: string | undefined): Promise<Engine> {
  // The programs (all inside the repository) import the package by its name, as a user's
  // program does; `npm ci` links it (scripts/link-self.js, the prepare script) and the
  // provider must have been built.
  try {
    require.resolve("pulumi-embedded-connectors", { paths: [repoRoot] });
  } catch {
    throw new Error(
      "the programs cannot load pulumi-embedded-connectors: run `npm ci` (which links the package " +
        "into node_modules via scripts/link-self.js) and `npm run build`",
    );
  }
  const binDir = await runEnsureScript(cliVersion);
  const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-e2e-"));
  const home = path.join(tmpDir, "home");
  const backend = path.join(tmpDir, "backend");
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(backend, { recursive: true });
  const env: Record<string, string> = {
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase-not-a-secret",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // No colour codes in what the tests match against.
    NO_COLOR: "1",
  };
  // PulumiCommand.get runs <root>/bin/pulumi and checks its version against
  // the SDK's; a link gives it that layout wherever the binaries are.
  const root = path.join(tmpDir, "pulumi");
  await fs.mkdir(root);
  await fs.symlink(binDir, path.join(root, "bin"), "dir");
  const command = await PulumiCommand.get({ root });
  await installPluginInto(env);
  return { binDir, command, env, tmpDir, backendDir: backend };
}

/**
 * Puts the plugin `embedded` (dist/plugin) into the hermetic PULUMI_HOME's plugin cache the way
 * a user does: `pulumi-embedded-connectors plugin install`, with the engine's CLI.
 */
async function installPluginInto(env: Record<string, string>): Promise<void> {
  const cli = path.join(repoRoot, "dist", "cli", "main.js");
  await execFileAsync(process.execPath, [cli, "plugin", "install"], { env: { ...process.env, ...env } });
}

// A root hook: after the whole mocha run, drop the temporary PULUMI_HOME and backend. Outside
// mocha (bench, the chaos command) there is no `after`, and the caller calls disposeEngine.
if (typeof after === "function") {
  after(async () => disposeEngine());
}

/**
 * Runs scripts/ensure-pulumi.sh (a cold build takes minutes, a warm one returns
 * at once), its progress on our stderr; returns the bin directory it prints last.
 */
function runEnsureScript(cliVersion: string | undefined): Promise<string> {
  const script = path.join(repoRoot, "scripts", "ensure-pulumi.sh");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [script, ...(cliVersion ? [cliVersion] : [])], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = stdout.trim().split("\n");
      const binDir = lines[lines.length - 1].trim();
      if (code !== 0) {
        reject(new Error(`scripts/ensure-pulumi.sh failed with exit code ${code}`));
      } else if (!binDir || !path.isAbsolute(binDir)) {
        reject(new Error(`scripts/ensure-pulumi.sh printed no bin directory: ${JSON.stringify(stdout)}`));
      } else {
        resolve(binDir);
      }
    });
  });
}

/** Removes every engine's temporary PULUMI_HOME and backend (call once, after every stack is gone). */
export async function disposeEngine(): Promise<void> {
  const engines = [...enginePromises.values()];
  enginePromises.clear();
  for (const promise of engines) {
    const engine = await promise.catch(() => undefined);
    if (engine) {
      await fs.rm(engine.tmpDir, { recursive: true, force: true });
    }
  }
}
