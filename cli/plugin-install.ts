// `npx pulumi-embedded-connectors plugin install`: puts the plugin `embedded` shipped in this
// package (dist/plugin) into the user's Pulumi plugin cache, offline, with the Pulumi CLI's own
// `pulumi plugin install resource embedded <version> --file <dir>`.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { PLUGIN_VERSION } from "../provider/plugin/version";

/** The directory the package ships the plugin in: dist/plugin beside dist/cli. */
export const PLUGIN_DIR = path.resolve(__dirname, "..", "plugin");

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
  const args = [
    "plugin",
    "install",
    "resource",
    "embedded",
    PLUGIN_VERSION,
    "--file",
    PLUGIN_DIR,
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
