// The scripts read their command line with node:util's parseArgs in strict mode: a misspelled flag stops the script with its usage instead of passing silently, and
// `release.js --out --launcher-only` no longer writes a release into a directory named
// `--launcher-only`. Each run stops at its command line: nothing is built.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);

async function run(script: string, args: string[], cwd = repoRoot): Promise<{ code: number; stderr: string }> {
  return execFileAsync(process.execPath, [path.join(repoRoot, "scripts", script), ...args], { cwd })
    .then((r) => ({ code: 0, stderr: r.stderr }))
    .catch((e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));
}

const SCRIPTS = [
  "release.js",
  "bundle-plugin.js",
  "generate-sdks.js",
  "reference-docs.js",
  "plugin-schema.js",
  "sea-plugin.js",
  "doc-examples.js",
  "registries.js",
];

describe("scripts: strict command lines", function () {
  this.timeout(60_000);

  it("release.js --out --launcher-only fails with the usage and writes no directory named --launcher-only", async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), "script-args-"));
    try {
      const result = await run("release.js", ["--out", "--launcher-only"], cwd);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /'--out' argument is ambiguous/);
      assert.match(result.stderr, /usage: node scripts\/release\.js \[--out <dir>\]/);
      assert.deepEqual(await fs.readdir(cwd), [], "nothing written");
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
  });

  for (const script of SCRIPTS) {
    it(`${script} refuses a misspelled flag, naming it, with its usage`, async () => {
      const result = await run(script, ["--launcher-onyl"]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /Unknown option '--launcher-onyl'/);
      assert.match(result.stderr, new RegExp(`usage: node scripts/${script.replace(".", "\\.")}`));
    });
  }
});
