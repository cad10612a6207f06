// The Python and Go SDKs regenerated, for the examples' e2e, from the schema the built plugin
// serves (scripts/generate-sdks.js: Pulumi's generators, no post-processing) into a temporary
// directory, once per process, with the files no generator writes (sdk/'s HAND_KEPT: go.mod,
// READMEs) copied beside them. So an example runs through exactly what the generators write
// today, whether or not sdk/ was regenerated (test/sdk/generated.test.ts compares the two).
import { execFile } from "node:child_process";
import { promises as fs, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";

let regenerated: Promise<string> | undefined;

async function regenerate(): Promise<string> {
  const out = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-regenerated-sdk-"));
  const start = Date.now();
  await promisify(execFile)(process.execPath, [path.join(repoRoot, "scripts", "generate-sdks.js"), "--out", out], {
    cwd: repoRoot,
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HAND_KEPT } = require(path.join(repoRoot, "scripts", "generate-sdks.js")) as { HAND_KEPT: string[] };
  for (const name of HAND_KEPT) await fs.copyFile(path.join(repoRoot, "sdk", name), path.join(out, name));
  console.error(
    `      the SDKs regenerated from the plugin's schema in ${((Date.now() - start) / 1000).toFixed(1)} s: ${out}`,
  );
  process.on("exit", () => rmSync(out, { recursive: true, force: true }));
  return out;
}

/** The directory holding python/ and go/, regenerated once per process. */
export function regeneratedSdk(): Promise<string> {
  regenerated ??= regenerate();
  return regenerated;
}
