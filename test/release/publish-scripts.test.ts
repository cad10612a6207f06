// scripts/publish/*.sh refuse what would publish the wrong thing, each naming what to do, and
// PUBLISH_DRY_RUN=1 publishes nothing. (Their publishing itself is run by the by-name e2e.)
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);

/** Runs a publish script; its exit code and stderr. */
async function publish(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  return execFileAsync("bash", [path.join(repoRoot, "scripts", "publish", script), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

describe("cli: the publishing scripts", function () {
  this.timeout(60_000);
  let tmp: string;

  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "publish-scripts-"));
  });
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it("npm.sh refuses a release directory without the npm tarball, naming the command that writes it", async () => {
    const result = await publish("npm.sh", ["http://127.0.0.1:9/", tmp]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /expected one pulumi-embedded-connectors-<version>\.tgz in .*, found 0; run `npm run release/,
    );
  });

  it("npm.sh with PUBLISH_DRY_RUN=1 shows the package and publishes nothing (the registry: a closed port)", async () => {
    const { stdout } = await execFileAsync("npm", ["pack", "--json", "--pack-destination", tmp], { cwd: repoRoot });
    const { name, version } = (JSON.parse(stdout) as { name: string; version: string }[])[0];
    const result = await publish("npm.sh", ["http://127.0.0.1:9/", tmp], {
      PUBLISH_DRY_RUN: "1",
      NPM_CONFIG_FETCH_RETRIES: "0", // its one look at the registry fails at once
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`${name}@${version.replace(/\./g, "\\.")}`));
    assert.match(result.stderr, /\(dry-run\)/);
  });

  it("pypi.sh refuses a staging directory that holds other files (all of them would be uploaded)", async () => {
    for (const name of ["pulumi_embedded-0.1.0-py3-none-any.whl", "pulumi_embedded-0.1.0.tar.gz"])
      await fs.writeFile(path.join(tmp, name), "");
    const staging = path.join(tmp, "staging");
    await fs.mkdir(staging);
    await fs.writeFile(path.join(staging, "stale-0.0.9.tar.gz"), "");
    const result = await publish("pypi.sh", ["http://127.0.0.1:9/", tmp, staging]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /staging is not empty; stage into an empty directory/);
  });

  describe("go.sh", () => {
    let remote: string;
    let head: string;
    let tag: string;

    beforeEach(async () => {
      remote = path.join(tmp, "remote.git");
      await execFileAsync("git", ["init", "--quiet", "--bare", remote]);
      head = (await execFileAsync("git", ["rev-parse", "HEAD"], { cwd: repoRoot })).stdout.trim();
      const mod = (await execFileAsync("git", ["ls-files", "sdk/*go.mod"], { cwd: repoRoot })).stdout.trim();
      tag = `${path.dirname(mod)}/v9.9.9`;
    });

    it("with PUBLISH_DRY_RUN=1 pushes nothing", async () => {
      const result = await publish("go.sh", [remote, "9.9.9"], { PUBLISH_DRY_RUN: "1" });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, new RegExp(`${tag} \\(${head}\\)`));
      const { stdout } = await execFileAsync("git", ["ls-remote", "--tags", remote]);
      assert.equal(stdout, "");
    });

    it("pushes the module's tag <directory>/v<version> on HEAD, again without harm, and refuses to move it", async () => {
      assert.equal((await publish("go.sh", [remote, "v9.9.9"])).code, 0);
      const listed = async () => (await execFileAsync("git", ["ls-remote", "--tags", remote])).stdout;
      assert.equal(await listed(), `${head}\trefs/tags/${tag}\n`);
      assert.equal((await publish("go.sh", [remote, "9.9.9"])).code, 0, "the same tag on the same commit");
      // The remote's tag on another commit (the parent of HEAD) is never moved.
      await execFileAsync("git", ["push", "--quiet", "--force", remote, `${head}~1:refs/tags/${tag}`], {
        cwd: repoRoot,
      });
      const moved = await publish("go.sh", [remote, "9.9.9"]);
      assert.equal(moved.code, 1);
      assert.match(moved.stderr, /a published version never moves/);
      assert.doesNotMatch(await listed(), new RegExp(head), "the tag stays where it was");
    });
  });
});
