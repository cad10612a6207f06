// .github/workflows/release.yml passes actionlint (scripts/ensure-actionlint.sh), runs on a v*
// tag, and publishes through the scripts the by-name e2e (test/e2e/by-name-*.test.ts) runs against
// registries on loopback: the same commands, only the registry URL differs. The files published
// are built only from pinned code: the suite runs in its own job; another job
// builds them from a fresh checkout with `npm ci --ignore-scripts` and pip installs by hash; every
// action is pinned by commit; every publishing job sits behind the one environment gate.
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
  environment?: string;
  steps: Step[];
}

/** The jobs that publish: they may write to the repository or trade an OIDC token for a registry's. */
const PUBLISHING = ["github-release", "npm", "pypi", "go"];

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

  it("runs on a v* tag: the suite in one job; the files built in another, from a fresh checkout with `npm ci --ignore-scripts`", () => {
    assert.deepEqual(on.push, { tags: ["v*"] });
    assert.match(runs("test"), /^\.ci\/run$/m);
    assert.doesNotMatch(runs("test"), /npm run release/, "the suite's job builds no release file");
    assert.ok(!jobs.test.steps.some((s) => s.uses?.includes("upload-artifact")), "the suite's job hands nothing on");
    const build = runs("build");
    assert.equal(jobs.build.needs, "test");
    assert.ok(jobs.build.steps[0].uses?.startsWith("actions/checkout@"), "a fresh checkout first");
    assert.match(build, /^npm ci --ignore-scripts$/m);
    assert.ok(build.indexOf("npm ci --ignore-scripts") < build.indexOf("npm run release"), build);
    assert.doesNotMatch(
      build,
      /\.ci\/run|npm (install|i|test)\b|npx /,
      "the build job runs nothing but the pinned build",
    );
    assert.equal(jobs["github-release"].needs, "build");
    assert.ok(
      jobs.build.steps.some((s) => s.uses?.includes("upload-artifact")),
      "the build job's files are released",
    );
  });

  it("pins every action by commit, and every tool by exact version", () => {
    for (const [name, job] of Object.entries(jobs))
      for (const step of job.steps.filter((s) => s.uses)) {
        assert.match(step.uses!, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, `${name}: ${step.uses}`);
        for (const key of ["node-version", "python-version", "go-version"])
          if (step.with?.[key] !== undefined)
            assert.match(String(step.with[key]), /^\d+\.\d+\.\d+$/, `${name}: ${key} ${step.with[key]}`);
      }
  });

  it("puts every publishing job, go included, behind the same environment gate; no other job may publish", () => {
    for (const job of PUBLISHING) assert.equal(jobs[job].environment, "release", job);
    for (const [name, job] of Object.entries(jobs)) {
      const mayPublish = job.permissions?.contents === "write" || job.permissions?.["id-token"] === "write";
      if (mayPublish) assert.ok(PUBLISHING.includes(name), `${name} may publish but is not gated`);
      if (!PUBLISHING.includes(name)) assert.equal(job.environment, undefined, name);
    }
    for (const job of ["test", "build"]) assert.deepEqual(jobs[job].permissions, { contents: "read" }, job);
  });

  it("installs Python tools of the release path by hash, from committed requirements files", async () => {
    const installs = Object.entries(jobs)
      .filter(([name]) => name !== "test")
      .flatMap(([name, job]) =>
        job.steps.flatMap((s) =>
          (s.run ?? "")
            .split("\n")
            .filter((line) => /pip install/.test(line))
            .map((line) => ({ name, line })),
        ),
      );
    assert.ok(installs.length >= 2, "the build and pypi jobs install with pip");
    for (const { name, line } of installs) {
      const file = /--require-hashes .*-r (\S+)/.exec(line)?.[1];
      assert.ok(file, `${name}: ${line}`);
      const requirements = await fs.readFile(path.join(repoRoot, file), "utf8");
      const entries = requirements
        .replace(/\\\n/g, " ")
        .split("\n")
        .filter((l) => l.trim() && !l.startsWith("#"));
      assert.ok(entries.length > 0, file);
      for (const entry of entries)
        assert.match(entry, /^[\w.-]+==\S+ +--hash=sha256:[0-9a-f]{64}/, `${file}: ${entry}`);
    }
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
    // `npm run registries` (the by-name e2e's registries) runs the same scripts (with a loopback URL in place of the registry's).
    const e2e = await fs.readFile(path.join(repoRoot, "harness", "registries.ts"), "utf8");
    for (const script of ["npm.sh", "pypi.sh", "go.sh"])
      assert.match(e2e, new RegExp(`"scripts", "publish", "${script.replace(".", "\\.")}"`), script);
  });
});
