// The registries of the by-name e2e tests (by-name-*.test.ts), on loopback, each filled by the
// script the release workflow (.github/workflows/release.yml) runs against the real one:
// - `npm run release`'s script writes the release directory (this machine's plugin archive, the
//   npm tarball, the Python wheel and sdist);
// - npm: verdaccio (scripts/ensure-registries.sh), filled by scripts/publish/npm.sh; packages it
//   does not hold it fetches from the machine's npm registry (its uplink), as a team's mirror does;
// - PyPI: pypiserver, filled by scripts/publish/pypi.sh (twine); it redirects to PyPI for the
//   packages it does not hold (pulumi, grpcio);
// - Go: a bare git repository standing in for the GitHub repository, to which scripts/publish/go.sh
//   pushes the module's version tag on this repository's HEAD (by-name-go.test.ts);
// - the plugin: release-server.ts, serving the release directory where the engine's download of
//   the configured release URL is sent (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES).
// Made once per mocha process (a release with the single executable takes about a minute).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promises as fs, rmSync } from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import { PLATFORM, startReleaseServer, type ReleaseServer } from "./release-server";

const execFileAsync = promisify(execFile);

export interface Registries {
  /** The npm registry's URL (verdaccio). */
  npm: string;
  /** The Python package index's simple API (pypiserver), as pip's --index-url takes it. */
  pypi: string;
  /** The plugin's release host. */
  release: ReleaseServer;
  /** What `npm run release` wrote (the files the registries were filled from). */
  releaseFiles: string[];
  /** The directory everything of the registries lives in (removed at exit). */
  tmp: string;
}

/** A bare repository standing in for the GitHub repository, holding the Go SDK's version tag. */
export interface GoRemote {
  /** The bare repository's file:// URL. */
  url: string;
  /** The tag scripts/publish/go.sh pushed. */
  tag: string;
}

let registries: Promise<Registries> | undefined;

/** The registries, filled with this checkout's release (once per process). */
export function publishedRegistries(): Promise<Registries> {
  return (registries ??= startRegistries());
}

/** A script's run, its output kept for the error should it fail. */
async function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return execFileAsync(file, args, { cwd: options.cwd ?? repoRoot, env: options.env, maxBuffer: 64 * 1024 * 1024 });
}

/** A free loopback port (the registries' command lines take a port, not 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a server process, killed when this process exits; resolves once `url` answers 200. */
async function startServer(command: string, args: string[], url: string, log: string): Promise<ChildProcess> {
  const out = await fs.open(log, "w");
  const child = spawn(command, args, { stdio: ["ignore", out.fd, out.fd], env: process.env });
  await out.close(); // the child holds its own descriptor
  process.once("exit", () => child.kill());
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error(`${path.basename(command)} did not answer ${url}:\n${await fs.readFile(log, "utf8")}`);
}

async function startRegistries(): Promise<Registries> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-by-name-"));
  process.once("exit", () => rmSync(tmp, { recursive: true, force: true }));
  const tools = (await run("bash", [path.join(repoRoot, "scripts", "ensure-registries.sh")])).stdout
    .trim()
    .split("\n")
    .pop()!;
  const releaseDir = path.join(tmp, "release");
  await run(process.execPath, [
    path.join(repoRoot, "scripts", "release.js"),
    "--out",
    releaseDir,
    "--platforms",
    PLATFORM,
  ]);
  const releaseFiles = await fs.readdir(releaseDir);
  const [npm, pypi, release] = await Promise.all([
    startNpmRegistry(tmp, tools, releaseDir),
    startPythonIndex(tmp, tools, releaseDir),
    startReleaseServer(releaseDir),
  ]);
  return { npm, pypi, release, releaseFiles, tmp };
}

/** verdaccio, with the npm package of releaseDir published to it by scripts/publish/npm.sh (also bench/package-install.ts). */
export async function startNpmRegistry(
  tmp: string,
  tools: string,
  releaseDir: string,
  /** verdaccio's max_body_size (its default, 10mb, refuses a larger tarball's publish). */
  maxBodySize?: string,
): Promise<string> {
  const dir = path.join(tmp, "verdaccio");
  await fs.mkdir(dir);
  const uplink = (await run("npm", ["config", "get", "registry"])).stdout.trim();
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
  await startServer(
    verdaccio,
    ["--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    `${url}-/ping`,
    path.join(dir, "log"),
  );
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
  });
  return url;
}

/** pypiserver (no authentication: loopback only), with the SDK uploaded by scripts/publish/pypi.sh. */
async function startPythonIndex(tmp: string, tools: string, releaseDir: string): Promise<string> {
  const packages = path.join(tmp, "pypi-packages");
  await fs.mkdir(packages);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = path.join(tools, "venv", "bin");
  await startServer(
    path.join(bin, "pypi-server"),
    ["run", "-i", "127.0.0.1", "-p", String(port), "-a", ".", "-P", ".", packages],
    `${url}simple/`,
    path.join(tmp, "pypi.log"),
  );
  await run(
    "bash",
    [path.join(repoRoot, "scripts", "publish", "pypi.sh"), url, releaseDir, path.join(tmp, "pypi-staging")],
    {
      env: { ...process.env, TWINE: path.join(bin, "twine"), TWINE_USERNAME: "loopback", TWINE_PASSWORD: "loopback" },
    },
  );
  return `${url}simple/`;
}

/**
 * The Go SDK published as the release workflow does: scripts/publish/go.sh pushes the module's
 * version tag on this repository's HEAD (the committed SDK; the checkout gets no tag) to a bare
 * repository. Returns the script's refusal instead when the committed go.mod's module path has no
 * domain (Go cannot fetch it by name).
 */
export async function publishGo(tmp: string, version: string): Promise<GoRemote | { refused: string }> {
  const remote = path.join(tmp, "go-remote.git");
  await run("git", ["init", "--quiet", "--bare", remote]);
  try {
    const { stderr } = await run("bash", [path.join(repoRoot, "scripts", "publish", "go.sh"), remote, version]);
    const tag = /(\S+\/v\d+\.\d+\.\d+\S*) \(/.exec(stderr)?.[1];
    if (!tag) throw new Error(`scripts/publish/go.sh named no tag: ${stderr}`);
    return { url: `file://${remote}`, tag };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    if (/has no domain/.test(stderr)) return { refused: stderr.trim() };
    throw error;
  }
}
