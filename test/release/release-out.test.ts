// `scripts/release.js --out <dir>` empties <dir> first: only when it holds nothing but an
// earlier release's files. Built with --plugin-only --launcher-only for one
// platform: no SEA, no npm pack, no Python, a few seconds.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);
const script = path.join(repoRoot, "scripts", "release.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require(path.join(repoRoot, "package.json")) as { version: string };

async function release(out: string): Promise<{ code: number; stderr: string }> {
  const args = [script, "--out", out, "--plugin-only", "--launcher-only", "--platforms", "darwin-arm64"];
  return execFileAsync(process.execPath, args, { cwd: repoRoot })
    .then((r) => ({ code: 0, stderr: r.stderr }))
    .catch((e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));
}

describe("scripts/release.js --out", function () {
  this.timeout(120_000); // a plugin archive, gzip level 9
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "release-out-"));
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("refuses a non-empty directory that is not a release's output, and deletes nothing in it", async () => {
    const home = path.join(dir, "home");
    await fs.mkdir(path.join(home, ".ssh"), { recursive: true });
    await fs.writeFile(path.join(home, ".ssh", "id_ed25519"), "key\n");
    await fs.writeFile(path.join(home, "SHA256SUMS"), "a release's name among the user's files\n");
    await fs.writeFile(path.join(home, "notes.txt"), "mine\n");
    const refused = await release(home);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /--out .* holds what no release writes \(.*"notes\.txt".*\).*left as it is/);
    assert.deepEqual((await fs.readdir(home)).sort(), [".ssh", "SHA256SUMS", "notes.txt"]);
    assert.equal(await fs.readFile(path.join(home, ".ssh", "id_ed25519"), "utf8"), "key\n");

    const file = path.join(dir, "a-file");
    await fs.writeFile(file, "x");
    assert.equal((await release(file)).code, 1, "a file as --out");
    assert.equal(await fs.readFile(file, "utf8"), "x");
  });

  it("writes into a new directory, and again over its own earlier output (an older version's archives too)", async () => {
    const out = path.join(dir, "release");
    const first = await release(out);
    assert.equal(first.code, 0, first.stderr);
    const written = (await fs.readdir(out)).sort();
    assert.deepEqual(written, ["SHA256SUMS", `pulumi-resource-embedded-v${version}-darwin-arm64.tar.gz`].sort());
    await fs.writeFile(path.join(out, "pulumi-resource-embedded-v0.0.9-linux-amd64.tar.gz"), "older");
    const again = await release(out);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((await fs.readdir(out)).sort(), written);
  });
});
