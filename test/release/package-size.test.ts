// The npm package stays the size of a registry package: under 1,000 files and
// 8 MB unpacked, as `npm pack --dry-run --json` counts them on the built tree. The plugin folder
// dist/plugin has a package.json (its one dependency, @pulumi/pulumi: bundle-plugin.js says why),
// so a `pulumi package get-schema dist/plugin` in the checkout has the Node.js language host
// install @pulumi/pulumi's whole tree into dist/plugin/node_modules; a release packed after that
// was 71.6 MB in 8,652 files. package.json's `files` names the plugin's files one by one, so the
// check plants such a tree (a copy of the checkout's @pulumi/pulumi) before it packs.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);
const MAX_FILES = 1000;
const MAX_UNPACKED_BYTES = 8 * 1000 * 1000;

interface PackInfo {
  entryCount: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** What `npm pack --dry-run --json` says of the built tree (no file written, no script run). */
async function dryRunPack(): Promise<PackInfo> {
  const { stdout } = await execFileAsync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as PackInfo[])[0];
}

/** The three largest directories of a pack, to say where the size went when the check fails. */
function largest(info: PackInfo): string {
  const bytes = new Map<string, number>();
  for (const file of info.files) {
    const dir = file.path.split("/").slice(0, 3).join("/");
    bytes.set(dir, (bytes.get(dir) ?? 0) + file.size);
  }
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([dir, size]) => `${dir} ${(size / 1e6).toFixed(1)} MB`)
    .join(", ");
}

function assertRegistrySized(info: PackInfo): void {
  assert.ok(info.entryCount < MAX_FILES, `${info.entryCount} files packed (at most ${MAX_FILES}): ${largest(info)}`);
  assert.ok(
    info.unpackedSize < MAX_UNPACKED_BYTES,
    `${(info.unpackedSize / 1e6).toFixed(1)} MB unpacked (under ${MAX_UNPACKED_BYTES / 1e6} MB): ${largest(info)}`,
  );
}

describe("npm package size (npm pack --dry-run --json on the built tree)", function () {
  this.timeout(120_000);

  it("packs under 1,000 files and 8 MB unpacked, the plugin's six files included", async () => {
    const info = await dryRunPack();
    console.error(`      packed: ${info.entryCount} files, ${(info.unpackedSize / 1e6).toFixed(2)} MB unpacked`);
    assertRegistrySized(info);
    const plugin = info.files.map((f) => f.path).filter((p) => p.startsWith("dist/plugin/"));
    assert.deepEqual(plugin.sort(), [
      "dist/plugin/PulumiPlugin.yaml",
      "dist/plugin/embedded-folder.js",
      "dist/plugin/embedded-plugin.js",
      "dist/plugin/embedded-start.js",
      "dist/plugin/package.json",
      "dist/plugin/pulumi-resource-embedded",
    ]);
    // The shipped service profiles (docs/service-profile.md), so that `--profile
    // node_modules/pulumi-embedded-connectors/profiles/<file>` works after an npm install.
    const profiles = info.files.map((f) => f.path).filter((p) => p.startsWith("profiles/"));
    assert.deepEqual(profiles.sort(), [
      "profiles/account-in-path.yaml",
      "profiles/documented-conventions.yaml",
      "profiles/example.yaml",
    ]);
  });

  it("stays so with the node_modules a Node.js language host installs into dist/plugin", async () => {
    const planted = path.join(repoRoot, "dist", "plugin", "node_modules");
    assert.ok(!(await exists(planted)), `${planted} exists before the test: remove it (npm run build does not)`);
    await fs.cp(path.join(repoRoot, "node_modules", "@pulumi", "pulumi"), path.join(planted, "@pulumi", "pulumi"), {
      recursive: true,
    });
    try {
      const info = await dryRunPack();
      assertRegistrySized(info);
      const modules = info.files.filter((f) => f.path.includes("node_modules/"));
      assert.equal(modules.length, 0, `no node_modules packed; packed ${modules.length}, such as ${modules[0]?.path}`);
    } finally {
      await fs.rm(planted, { recursive: true, force: true });
    }
  });
});

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
