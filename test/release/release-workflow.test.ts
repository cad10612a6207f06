// .github/workflows/release.yml passes actionlint (scripts/ensure-actionlint.sh), runs on a v*
// tag, and publishes through the scripts the by-name e2e (test/e2e/by-name-*.test.ts) runs against
// registries on loopback: the same commands, only the registry URL differs. The files published
// are built only from pinned code: the suite runs in its own job; another job
// builds them from a fresh checkout with `npm ci --ignore-scripts` and pip installs by hash; every
// action is pinned by commit; every publishing job sits behind the one environment gate.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";
import { workflowUnderTest, type Step } from "../support/workflows";

const WORKFLOW = ".github/workflows/release.yml";

/** The jobs that publish: they may write to the repository or trade an OIDC token for a registry's. */
const PUBLISHING = ["github-release", "npm", "pypi", "go"];

describe("cli: the release workflow", () => {
  const wf = workflowUnderTest(WORKFLOW);
  const runs = (job: string) => wf.runs(job);

  it("runs on a v* tag: the suite in one job; the files built in another, from a fresh checkout with `npm ci --ignore-scripts`", () => {
    assert.deepEqual(wf.on.push, { tags: ["v*"] });
    assert.match(runs("test"), /^\.ci\/run$/m);
    assert.doesNotMatch(runs("test"), /npm run release/, "the suite's job builds no release file");
    assert.ok(!wf.jobs.test.steps.some((s) => s.uses?.includes("upload-artifact")), "the suite's job hands nothing on");
    const build = runs("build");
    assert.equal(wf.jobs.build.needs, "test");
    assert.ok(wf.jobs.build.steps[0].uses?.startsWith("actions/checkout@"), "a fresh checkout first");
    assert.match(build, /^npm ci --ignore-scripts$/m);
    assert.ok(build.indexOf("npm ci --ignore-scripts") < build.indexOf("npm run release"), build);
    assert.doesNotMatch(
      build,
      /\.ci\/run|npm (install|i|test)\b|npx /,
      "the build job runs nothing but the pinned build",
    );
    assert.equal(wf.jobs["github-release"].needs, "build");
    assert.ok(
      wf.jobs.build.steps.some((s) => s.uses?.includes("upload-artifact")),
      "the build job's files are released",
    );
  });

  it("puts every publishing job, go included, behind the same environment gate; no other job may publish", () => {
    for (const job of PUBLISHING) assert.equal(wf.jobs[job].environment, "release", job);
    for (const [name, job] of Object.entries(wf.jobs)) {
      const mayPublish = job.permissions?.contents === "write" || job.permissions?.["id-token"] === "write";
      if (mayPublish) assert.ok(PUBLISHING.includes(name), `${name} may publish but is not gated`);
      if (!PUBLISHING.includes(name)) assert.equal(job.environment, undefined, name);
    }
    for (const job of ["test", "build"]) assert.deepEqual(wf.jobs[job].permissions, { contents: "read" }, job);
  });

  it("installs Python tools of the release path by hash, from committed requirements files", async () => {
    const installs = Object.entries(wf.jobs)
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
    for (const job of ["npm", "pypi", "go"]) assert.equal(wf.jobs[job].needs, "github-release", job);
  });

  it("npm and PyPI by trusted publishing (an OIDC token, no stored token), through the e2e's scripts", async () => {
    for (const job of ["npm", "pypi"]) assert.equal(wf.jobs[job].permissions?.["id-token"], "write", job);
    assert.match(runs("npm"), /^bash scripts\/publish\/npm\.sh https:\/\/registry\.npmjs\.org\/ dist\/release$/m);
    const npmStep = wf.jobs.npm.steps.find((s) => s.run?.includes("publish/npm.sh")) as Step & {
      env?: Record<string, string>;
    };
    assert.equal(npmStep.env?.NPM_CONFIG_PROVENANCE, "true", "npm publish --provenance");
    assert.match(
      runs("pypi"),
      /bash scripts\/publish\/pypi\.sh --stage-only https:\/\/upload\.pypi\.org\/legacy\/ dist\/release dist\/pypi/,
    );
    const upload = wf.jobs.pypi.steps.find((s) => s.uses?.startsWith("pypa/gh-action-pypi-publish@"));
    assert.equal(upload?.with?.["packages-dir"], "dist/pypi/", "the action uploads exactly what the script staged");
    assert.match(runs("go"), /bash scripts\/publish\/go\.sh origin /);
    assert.equal(wf.jobs.go.permissions?.contents, "write", "the go job pushes a tag");
    // `npm run registries` (the by-name e2e's registries) runs the same scripts (with a loopback URL in place of the registry's).
    const e2e = await fs.readFile(path.join(repoRoot, "harness", "registries.ts"), "utf8");
    for (const script of ["npm.sh", "pypi.sh", "go.sh"])
      assert.match(e2e, new RegExp(`"scripts", "publish", "${script.replace(".", "\\.")}"`), script);
  });
});
