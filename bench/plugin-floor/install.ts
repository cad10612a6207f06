// Builds the plugin `embeddedfloor` (scripts/bundle-plugin.js, on the compiled
// dist/bench/plugin-floor) and installs it into the bench engine's hermetic PULUMI_HOME as the
// plugin `embedded` is installed there (harness/engine.ts): `pulumi plugin install resource
// <name> <version> --file <dir>`. The program's classes (programs/fleet/plugin-floor.ts) ask
// for the same version, the package's.
import * as path from "node:path";
import { PLUGIN_VERSION } from "../../provider/schema/plugin-release";
import { execFileAsync, type Engine, repoRoot } from "../../harness/engine";
import { FLOOR_PACKAGE } from "./server";

export async function installFloorPlugin(engine: Engine): Promise<string> {
  const script = path.join(repoRoot, "scripts", "bundle-plugin.js");
  const compiled = path.join(repoRoot, "dist", "bench", "plugin-floor");
  const bundle = [
    "--entry",
    path.join(compiled, "main.js"),
    "--out",
    path.join(compiled, "plugin"),
    "--name",
    FLOOR_PACKAGE,
  ];
  const { stdout } = await execFileAsync(process.execPath, [script, ...bundle], { cwd: repoRoot });
  const dir = stdout.trim().split("\n").pop() ?? "";
  const args = [
    "plugin",
    "install",
    "resource",
    FLOOR_PACKAGE,
    PLUGIN_VERSION,
    "--file",
    dir,
    "--reinstall",
    "--non-interactive",
  ];
  await execFileAsync(path.join(engine.binDir, "pulumi"), args, { env: { ...process.env, ...engine.env } });
  return dir;
}
