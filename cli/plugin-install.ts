// `npx pulumi-embedded-connectors plugin install`: puts the plugin `embedded` shipped in this
// package (dist/plugin) into the user's Pulumi plugin cache, offline, with the Pulumi CLI's own
// `pulumi plugin install resource embedded <version> --file <dir>`.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PLUGIN_VERSION } from "../provider/schema/plugin-release";

/** The directory the package ships the plugin in: dist/plugin beside dist/cli. */
export const PLUGIN_DIR = path.resolve(__dirname, "..", "plugin");

/**
 * The files the engine runs (scripts/bundle-plugin.js; release.js archives the same): the plugin
 * cache gets only these, not the folder's PulumiPlugin.yaml and package.json, which would have a
 * CLI install @pulumi/pulumi into the cache before running a plugin it can run as it is.
 */
export const PLUGIN_FILES = ["pulumi-resource-embedded", "embedded-plugin.js", "embedded-start.js"];

export interface InstallResult {
  version: string;
  /** What the Pulumi CLI printed. */
  output: string;
}

export async function installPlugin(pulumi = "pulumi", env: NodeJS.ProcessEnv = process.env): Promise<InstallResult> {
  if (!existsSync(path.join(PLUGIN_DIR, "pulumi-resource-embedded"))) {
    throw new Error(
      `the plugin is missing from ${PLUGIN_DIR}; reinstall pulumi-embedded-connectors (in its repository: npm run build)`,
    );
  }
  const staged = mkdtempSync(path.join(tmpdir(), "embedded-plugin-"));
  for (const name of PLUGIN_FILES) copyFileSync(path.join(PLUGIN_DIR, name), path.join(staged, name));
  try {
    return await runInstall(pulumi, env, staged);
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

async function runInstall(pulumi: string, env: NodeJS.ProcessEnv, dir: string): Promise<InstallResult> {
  const args = [
    "plugin",
    "install",
    "resource",
    "embedded",
    PLUGIN_VERSION,
    "--file",
    dir,
    "--reinstall",
    "--non-interactive",
  ];
  try {
    const { stdout, stderr } = await promisify(execFile)(pulumi, args, { env });
    return { version: PLUGIN_VERSION, output: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & { stderr?: string };
    if (failed.code === "ENOENT") {
      throw new Error(
        `the Pulumi CLI (${pulumi}) is not on PATH: install it, or point your Pulumi.yaml at the plugin instead:\n` +
          `plugins:\n  providers:\n    - name: embedded\n      path: ${path.relative(process.cwd(), PLUGIN_DIR) || PLUGIN_DIR}`,
      );
    }
    throw new Error(`\`${pulumi} ${args.join(" ")}\` failed: ${(failed.stderr ?? failed.message).trim()}`);
  }
}
