// .github/workflows/release.yml passes actionlint (scripts/ensure-actionlint.sh), runs on a v*
// tag, and publishes through the scripts the by-name e2e (test/e2e/by-name-*.test.ts) runs against
// registries on loopback: the same commands, only the registry URL differs.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);
const WORKFLOW = ".github/workflows/release.yml";

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}

describe("cli: the release workflow", function () {
  this.timeout(15 * 60_000); // the first run on a machine builds actionlint
  let jobs: Record<string, Job>;
  let on: Record<string, unknown>;

  before(async () => {
    const text = await fs.readFile(path.join(repoRoot, WORKFLOW), "utf8");
    ({ on, jobs } = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Job> });
  });

  const runs = (job: string) => jobs[job].steps.map((s) => s.run ?? "").join("\n");

  it(`${WORKFLOW} passes actionlint`, async () => {
    const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
      cwd: repoRoot,
    });
    const bin = stdout.trim().split("\n").pop()!;
    const result = await execFileAsync(bin, ["-no-color", WORKFLOW], { cwd: repoRoot }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
    );
    assert.equal(result.code, 0, result.output);
  });

  it("runs on a v* tag: builds and tests, then `npm run release`", () => {
    assert.deepEqual(on.push, { tags: ["v*"] });
    const build = runs("build");
    assert.ok(build.indexOf(".ci/run") < build.indexOf("npm run release"), build);
  });

  it("publishes the archives as a GitHub release first, with SHA256SUMS checked", () => {
    const release = runs("github-release");
    assert.match(release, /sha256sum --check --strict SHA256SUMS/);
    assert.match(release, /gh release create "\$GITHUB_REF_NAME" dist\/release\/\*/);
    for (const job of ["npm", "pypi", "go"]) assert.equal(jobs[job].needs, "github-release", job);
  });

  it("npm and PyPI by trusted publishing (an OIDC token, no stored token), through the e2e's scripts", async () => {
    for (const job of ["npm", "pypi"]) assert.equal(jobs[job].permissions?.["id-token"], "write", job);
    assert.match(runs("npm"), /^bash scripts\/publish\/npm\.sh https:\/\/registry\.npmjs\.org\/ dist\/release$/m);
    const npmStep = jobs.npm.steps.find((s) => s.run?.includes("publish/npm.sh")) as Step & {
      env?: Record<string, string>;
    };
    assert.equal(npmStep.env?.NPM_CONFIG_PROVENANCE, "true", "npm publish --provenance");
    assert.match(
      runs("pypi"),
      /bash scripts\/publish\/pypi\.sh --stage-only https:\/\/upload\.pypi\.org\/legacy\/ dist\/release dist\/pypi/,
    );
    const upload = jobs.pypi.steps.find((s) => s.uses?.startsWith("pypa/gh-action-pypi-publish@"));
    assert.equal(upload?.with?.["packages-dir"], "dist/pypi/", "the action uploads exactly what the script staged");
    assert.match(runs("go"), /bash scripts\/publish\/go\.sh origin /);
    assert.equal(jobs.go.permissions?.contents, "write", "the go job pushes a tag");
    // The e2e runs the same scripts (with a loopback URL in place of the registry's).
    const e2e = await fs.readFile(path.join(repoRoot, "test", "e2e", "by-name-registries.ts"), "utf8");
    for (const script of ["npm.sh", "pypi.sh", "go.sh"])
      assert.match(e2e, new RegExp(`"scripts", "publish", "${script.replace(".", "\\.")}"`), script);
  });
});
