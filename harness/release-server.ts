// The plugin's release host on loopback: an HTTP server serving a release directory (what `npm
// run release` writes: pulumi-resource-embedded-v<version>-<os>-<arch>.tar.gz …) and recording
// every request. The engine is sent there from the release URL configured in package.json
// (`pulumi.server`, the SDKs' pluginDownloadURL) by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, as a
// team's mirror would be, with a regular expression matching that URL and nothing else: the
// engine's default source for a plugin without a URL (github://api.github.com/pulumi/pulumi-embedded)
// does not match it, so a request reaching this server shows the engine took the configured URL.
// Used by `npm run registries` (harness/registries.ts) and the plugin-acquisition e2e tests.
import { appendFileSync, createReadStream, promises as fs, readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "./engine";

/** package.json's `pulumi` field: the plugin a program of the package's SDKs needs, and its release URL. */
export const PULUMI_FIELD = (
  JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    pulumi: { name: string; version: string; server: string };
  }
).pulumi;

/** The engine's names for this machine's OS and architecture, as in the archives' names. */
export const PLATFORM = `${os.platform()}-${os.arch() === "x64" ? "amd64" : os.arch()}`;

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

/** Serves releaseDir on a free loopback port; with requestLog, each request is also appended there as a line. */
export async function startReleaseServer(releaseDir: string, requestLog?: string): Promise<ReleaseServer> {
  const requested: string[] = [];
  const record = (line: string) => {
    requested.push(line);
    if (requestLog) appendFileSync(requestLog, `${line}\n`);
  };
  const state = { serving: true };
  const server = http.createServer((req, res) => {
    const file = path.join(releaseDir, path.basename(decodeURIComponent((req.url ?? "/").split("?")[0])));
    const notFound = () => {
      record(`${req.method} ${req.url} 404`);
      res.writeHead(404).end();
    };
    if (!state.serving) return notFound();
    fs.stat(file).then((stat) => {
      if (!stat.isFile()) return notFound();
      record(`${req.method} ${req.url} 200`);
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
