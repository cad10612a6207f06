// Loopback registries holding this checkout's release, for installing by name before a release
// (`npm run registries`, scripts/registries.js) and for the by-name e2e tests, which start them
// through that same command. Each is filled by the script the release workflow
// (.github/workflows/release.yml) runs against the real one:
// - `npm run release`'s script writes the release directory (this machine's plugin archive, the
//   npm tarball, the Python wheel and sdist);
// - npm: verdaccio (scripts/ensure-registries.sh), filled by scripts/publish/npm.sh; packages it
//   does not hold it fetches from the machine's npm registry (its uplink), as a team's mirror does;
// - PyPI: pypiserver, filled by scripts/publish/pypi.sh (twine); it redirects to PyPI for the
//   packages it does not hold (pulumi, grpcio);
// - Go: a bare git repository standing in for the GitHub repository, to which scripts/publish/go.sh
//   pushes the module's version tag on this repository's HEAD; git's url.<bare>.insteadOf sends
//   Go there, GOPRIVATE keeps Go off the module proxy for this module;
// - the plugin: harness/release-server.ts, serving the release directory where the engine's
//   download of the configured release URL is sent (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promises as fs, rmSync } from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./engine";
import { PLATFORM, PULUMI_FIELD, startReleaseServer, type ReleaseServer } from "./release-server";

const execFileAsync = promisify(execFile);

/** The Go SDK as scripts/publish/go.sh published it, or its refusal (a module path Go cannot fetch by name). */
export type GoPublication = { module: string; tag: string; repository: string; remote: string } | { refused: string };

/** What `npm run registries --json` prints: where each registry is, and the environment to use them. */
export interface RegistriesInfo {
  /** The npm registry's URL (verdaccio). */
  npm: string;
  /** The Python package index's simple API (pypiserver), as pip's --index-url takes it. */
  pypi: string;
  go: GoPublication;
  /** The plugin's release host, its PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, and the file each request is appended to. */
  release: { url: string; override: string; requestLog: string };
  /** What `npm run release` wrote (the files the registries were filled from). */
  releaseFiles: string[];
  /** The directory everything of the registries lives in (removed at stop unless kept). */
  dir: string;
  /** The environment pointing each package manager and the engine at the registries. */
  env: Record<string, string>;
}

export interface Registries extends RegistriesInfo {
  releaseServer: ReleaseServer;
  /** Stops every server (children killed and awaited), and removes `dir` unless kept. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Keep `dir` at stop (its logs, the release, the packages). */
  keep?: boolean;
  /** Aborts the start: what started is stopped, and the start rejects. */
  signal?: AbortSignal;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** A script's run, its output kept for the error should it fail. */
async function run(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {}) {
  return execFileAsync(file, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, ...options });
}

/** A free loopback port (the registries' command lines take a port, not 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The server processes of one start, and how to end them. */
class Children {
  readonly all: ChildProcess[] = [];

  /** Starts a server process; resolves once `url` answers 200. */
  async start(command: string, args: string[], url: string, log: string, signal?: AbortSignal): Promise<void> {
    const out = await fs.open(log, "w");
    const child = spawn(command, args, { stdio: ["ignore", out.fd, out.fd], env: process.env });
    this.all.push(child);
    await out.close(); // the child holds its own descriptor
    for (let attempt = 0; attempt < 300 && child.exitCode === null && !signal?.aborted; attempt++) {
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    signal?.throwIfAborted();
    throw new Error(`${path.basename(command)} did not answer ${url}:\n${await fs.readFile(log, "utf8")}`);
  }

  /** SIGTERM to each, awaited (SIGKILL after 5 s). */
  async stop(): Promise<void> {
    await Promise.all(
      this.all.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

/** Starts the registries and fills them with this checkout's release (`npm run build` first). */
export async function startRegistries(options: StartOptions = {}): Promise<Registries> {
  const log = options.log ?? (() => undefined);
  const { signal } = options;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-registries-"));
  const children = new Children();
  let releaseServer: ReleaseServer | undefined;
  // Should this process end without stop() (an uncaught error), nothing is left behind.
  const atExit = () => {
    for (const child of children.all) child.kill("SIGKILL");
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", atExit);
  const stop = async () => {
    await children.stop();
    await releaseServer?.close();
    process.removeListener("exit", atExit);
    if (!options.keep) await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    log("ensuring verdaccio, pypiserver and twine (scripts/ensure-registries.sh)");
    const tools = (await run("bash", [path.join(repoRoot, "scripts", "ensure-registries.sh")], { signal })).stdout
      .trim()
      .split("\n")
      .pop()!;
    const releaseDir = path.join(dir, "release");
    log(`building this checkout's release for ${PLATFORM} (scripts/release.js; about a minute)`);
    const release = path.join(repoRoot, "scripts", "release.js");
    await run(process.execPath, [release, "--out", releaseDir, "--platforms", PLATFORM], { signal });
    const releaseFiles = await fs.readdir(releaseDir);
    const requestLog = path.join(dir, "release-requests.log");
    await fs.writeFile(requestLog, "");
    log("starting verdaccio and pypiserver, publishing to them (scripts/publish/*.sh)");
    const filling = { tmp: dir, tools, releaseDir, children, signal };
    const [npm, pypi, server, go] = await Promise.all([
      startNpmRegistry(filling),
      startPythonIndex(filling),
      startReleaseServer(releaseDir, requestLog),
      publishGo(dir, PULUMI_FIELD.version, signal),
    ]);
    releaseServer = server;
    const info = {
      npm,
      pypi,
      go,
      release: { url: server.url, override: server.override, requestLog },
      releaseFiles,
      dir,
    };
    return { ...info, env: registriesEnv(info), releaseServer: server, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The environment a user exports (each package manager's usual setting). */
export function registriesEnv(info: Omit<RegistriesInfo, "env" | "releaseFiles" | "dir">): Record<string, string> {
  const env: Record<string, string> = {
    NPM_CONFIG_REGISTRY: info.npm,
    PIP_INDEX_URL: info.pypi,
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: info.release.override,
  };
  if ("refused" in info.go) return env;
  // git's configuration by the environment: added to the user's, not in place of it.
  return {
    ...env,
    GOPRIVATE: info.go.repository.replace(/^https:\/\//, ""),
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: `url.${info.go.remote}.insteadOf`,
    GIT_CONFIG_VALUE_0: info.go.repository,
    GIT_CONFIG_KEY_1: "protocol.file.allow",
    GIT_CONFIG_VALUE_1: "always",
  };
}

/** What filling a registry takes: the directories of the start, its servers, its abort. */
interface Filling {
  tmp: string;
  /** scripts/ensure-registries.sh's directory (verdaccio, pypiserver, twine). */
  tools: string;
  releaseDir: string;
  children: Children;
  signal?: AbortSignal;
  /** verdaccio's max_body_size (its default, 10mb, refuses a larger tarball's publish). */
  maxBodySize?: string;
}

/**
 * verdaccio alone, filled with the npm package of `releaseDir` (bench/package-install.ts, which
 * compares two packages); `stop` ends it.
 */
export async function startNpmRegistryAlone(
  tmp: string,
  tools: string,
  releaseDir: string,
  maxBodySize?: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const children = new Children();
  const url = await startNpmRegistry({ tmp, tools, releaseDir, children, maxBodySize }).catch(
    async (error: unknown) => {
      await children.stop();
      throw error;
    },
  );
  return { url, stop: () => children.stop() };
}

/** verdaccio, with the npm package published to it by scripts/publish/npm.sh. */
async function startNpmRegistry({ tmp, tools, releaseDir, children, signal, maxBodySize }: Filling): Promise<string> {
  const dir = path.join(tmp, "verdaccio");
  await fs.mkdir(dir);
  const uplink = (await run("npm", ["config", "get", "registry"], { signal })).stdout.trim();
  const config = [
    `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
    `auth: { htpasswd: { file: ${JSON.stringify(path.join(dir, "htpasswd"))} } }`,
    `uplinks: { upstream: { url: ${JSON.stringify(uplink)}, timeout: 120s } }`,
    "packages:",
    "  'pulumi-embedded-connectors': { access: $all, publish: $authenticated }",
    "  '**': { access: $all, proxy: upstream }",
    "log: { type: stdout, format: pretty, level: warn }",
    ...(maxBodySize ? [`max_body_size: ${maxBodySize}`] : []),
  ].join("\n");
  await fs.writeFile(path.join(dir, "config.yaml"), `${config}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const verdaccio = path.join(tools, "node_modules", ".bin", "verdaccio");
  const args = ["--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`];
  await children.start(verdaccio, args, `${url}-/ping`, path.join(dir, "log"), signal);
  // The publisher's account (`npm adduser`'s request): its token goes into the publisher's npmrc.
  const response = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "loopback-registry-only" }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!token) throw new Error(`verdaccio made no publisher account (HTTP ${response.status})`);
  const npmrc = path.join(dir, "publisher.npmrc");
  await fs.writeFile(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
  await run("bash", [path.join(repoRoot, "scripts", "publish", "npm.sh"), url, releaseDir], {
    env: { ...process.env, NPM_CONFIG_USERCONFIG: npmrc },
    signal,
  });
  return url;
}

/** pypiserver (no authentication: loopback only), with the SDK uploaded by scripts/publish/pypi.sh. */
async function startPythonIndex({ tmp, tools, releaseDir, children, signal }: Filling): Promise<string> {
  const packages = path.join(tmp, "pypi-packages");
  await fs.mkdir(packages);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = path.join(tools, "venv", "bin");
  const args = ["run", "-i", "127.0.0.1", "-p", String(port), "-a", ".", "-P", ".", packages];
  await children.start(path.join(bin, "pypi-server"), args, `${url}simple/`, path.join(tmp, "pypi.log"), signal);
  const staging = path.join(tmp, "pypi-staging");
  await run("bash", [path.join(repoRoot, "scripts", "publish", "pypi.sh"), url, releaseDir, staging], {
    env: { ...process.env, TWINE: path.join(bin, "twine"), TWINE_USERNAME: "loopback", TWINE_PASSWORD: "loopback" },
    signal,
  });
  return `${url}simple/`;
}

/**
 * The Go SDK published as the release workflow does: scripts/publish/go.sh pushes the module's
 * version tag on this repository's HEAD (the committed SDK; the checkout gets no tag) to a bare
 * repository. Returns the script's refusal instead when the committed go.mod's module path has no
 * domain (Go cannot fetch it by name).
 */
async function publishGo(tmp: string, version: string, signal?: AbortSignal): Promise<GoPublication> {
  const remote = path.join(tmp, "go-remote.git");
  await run("git", ["init", "--quiet", "--bare", remote], { signal });
  try {
    const script = path.join(repoRoot, "scripts", "publish", "go.sh");
    const { stderr } = await run("bash", [script, remote, version], { signal });
    // "publish/go: <module> <directory>/v<version> (<commit>) to <remote>"
    const [, module, tag, directory] = /publish\/go: (\S+) ((\S+)\/v\d+\.\d+\.\d+\S*) \(/.exec(stderr) ?? [];
    if (!module?.endsWith(`/${directory}`)) throw new Error(`scripts/publish/go.sh named no tag: ${stderr}`);
    const repository = `https://${module.slice(0, -directory.length - 1)}`;
    return { module, tag, repository, remote: `file://${remote}` };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    if (/has no domain/.test(stderr)) return { refused: stderr.trim() };
    throw error;
  }
}
