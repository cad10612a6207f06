// The plugin-acquisition tests' releases: what `npm run release --plugin-only` writes, built once
// per kind and process, and served on loopback by harness/release-server.ts (re-exported here).
import { execFile } from "node:child_process";
import { promises as fs, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import {
  CONFIGURED_SERVER,
  PLATFORM,
  PULUMI_FIELD,
  startReleaseServer,
  type ReleaseServer,
} from "../../harness/release-server";

const execFileAsync = promisify(execFile);

export { CONFIGURED_SERVER, PLATFORM, PULUMI_FIELD, startReleaseServer, type ReleaseServer };

/** The archive the engine must ask for on this machine. */
export const ARCHIVE = `pulumi-resource-embedded-v${PULUMI_FIELD.version}-${PLATFORM}.tar.gz`;

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

/** The requests for a plugin archive among `requested`. */
export function archiveRequests(requested: string[]): string[] {
  return requested.filter((r) => r.includes("pulumi-resource-embedded"));
}
