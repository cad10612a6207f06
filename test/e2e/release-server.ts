// The release host of the plugin-acquisition tests, on loopback: an HTTP server serving what `npm
// run release --plugin-only` writes (pulumi-resource-embedded-v<version>-<os>-<arch>.tar.gz) and
// recording every request. The engine is sent there from the release URL configured in
// package.json (`pulumi.server`, the SDKs' pluginDownloadURL) by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES,
// as a team's mirror would be, with a regular expression matching that URL and nothing else: the
// engine's default source for a plugin without a URL (github://api.github.com/pulumi/pulumi-embedded)
// does not match it, so a request reaching this server shows the engine took the configured URL.
import { execFile } from "node:child_process";
import { createReadStream, promises as fs, readFileSync, rmSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";

const execFileAsync = promisify(execFile);

/** package.json's `pulumi` field: the plugin a program of the package's SDKs needs, and its release URL. */
export const PULUMI_FIELD = (
  JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    pulumi: { name: string; version: string; server: string };
  }
).pulumi;

/** The engine's names for this machine's OS and architecture, as in the archives' names. */
export const PLATFORM = `${os.platform()}-${os.arch() === "x64" ? "amd64" : os.arch()}`;

/** The archive the engine must ask for on this machine. */
export const ARCHIVE = `pulumi-resource-embedded-v${PULUMI_FIELD.version}-${PLATFORM}.tar.gz`;

/** Matches exactly the configured release URL (the engine matches overrides against its source's URL). */
export const CONFIGURED_SERVER = new RegExp(`^${PULUMI_FIELD.server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

export interface ReleaseServer {
  url: string;
  /** Every request, as `<method> <path> <status>`. */
  requested: string[];
  /** When false, every request is answered 404 (a release host without this version). */
  serving: boolean;
  /** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sending the configured release URL here. */
  override: string;
  close(): Promise<void>;
}

/** Each kind of release this process built, by its script arguments: built once, then copied. */
const built = new Map<string, Promise<string>>();

/**
 * Puts into dir what `npm run release`'s script writes: by default the plugin archives of this
 * machine (the engine asks for no other) and of darwin-arm64 (the launcher's archive, cheap, for
 * comparing with it); building the arm64 executable too would cost a Node.js download. With
 * launcherOnly, every platform's launcher archive. The script runs once per kind and process (a
 * single executable takes 30–60 s to build). Returns the file names.
 */
export async function writeRelease(dir: string, options: { launcherOnly?: boolean } = {}): Promise<string[]> {
  const args = options.launcherOnly
    ? ["--plugin-only", "--launcher-only"]
    : ["--plugin-only", "--platforms", `${PLATFORM},darwin-arm64`];
  const key = args.join(" ");
  let source = built.get(key);
  if (!source) {
    source = (async () => {
      const out = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-release-"));
      process.once("exit", () => rmSync(out, { recursive: true, force: true }));
      const script = path.join(repoRoot, "scripts", "release.js");
      await execFileAsync(process.execPath, [script, "--out", out, ...args], { cwd: repoRoot });
      return out;
    })();
    built.set(key, source);
  }
  const from = await source;
  await fs.mkdir(dir, { recursive: true });
  const names = await fs.readdir(from);
  for (const name of names) await fs.copyFile(path.join(from, name), path.join(dir, name));
  return names;
}

export async function startReleaseServer(releaseDir: string): Promise<ReleaseServer> {
  const requested: string[] = [];
  const state = { serving: true };
  const server = http.createServer((req, res) => {
    const file = path.join(releaseDir, path.basename(decodeURIComponent((req.url ?? "/").split("?")[0])));
    const notFound = () => {
      requested.push(`${req.method} ${req.url} 404`);
      res.writeHead(404).end();
    };
    if (!state.serving) return notFound();
    fs.stat(file).then((stat) => {
      requested.push(`${req.method} ${req.url} 200`);
      res.writeHead(200, { "content-type": "application/gzip", "content-length": stat.size });
      createReadStream(file).pipe(res);
    }, notFound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requested,
    get serving() {
      return state.serving;
    },
    set serving(on: boolean) {
      state.serving = on;
    },
    override: `${CONFIGURED_SERVER.source}=${url}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The requests for a plugin archive among `requested`. */
export function archiveRequests(requested: string[]): string[] {
  return requested.filter((r) => r.includes("pulumi-resource-embedded"));
}
