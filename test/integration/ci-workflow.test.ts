// .github/workflows/ci.yml: on every push and pull request, the unit tier and lint; then the rest
// of `npm test` (dist/test/**) in the matrix's shards (scripts/shard-tests.js), every file in one
// shard; each job installs what it needs (Node.js, Go, Python, the engine with its cache, moto,
// fake-gcs-server, Chromium). It passes actionlint (scripts/ensure-actionlint.sh), as the
// release workflow does, and pins every action by commit.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";
import { workflowUnderTest } from "../support/workflows";

const WORKFLOW = ".github/workflows/ci.yml";

describe("integration: the CI workflow of pushes and pull requests", () => {
  const wf = workflowUnderTest(WORKFLOW);
  const runs = (job: string) => wf.runs(job);
  const uses = (job: string) => wf.jobs[job].steps.map((s) => s.uses ?? "");

  it("runs on every push and every pull request, reading the repository only", () => {
    assert.deepEqual(wf.on.push, { branches: ["**"] });
    assert.ok("pull_request" in wf.on, "pull requests");
    for (const [name, job] of Object.entries(wf.jobs)) assert.deepEqual(job.permissions, { contents: "read" }, name);
  });

  it("the unit tier and lint on every push, first", () => {
    assert.match(runs("unit"), /^npm ci$/m);
    assert.match(runs("unit"), /^npm run test:unit$/m);
    assert.match(runs("unit"), /^npm run lint$/m);
    for (const job of ["suite", "compat"]) assert.equal(wf.jobs[job].needs, "unit", job);
  });

  it("the rest of `npm test` in the matrix's shards: every file of dist/test in exactly one", async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8"));
    assert.match(pkg.scripts.test, /node scripts\/run-suite\.js --also "node dist\/test\/consumer\/compat\.js b c"/);
    const shard = wf.jobs.suite.strategy!.matrix.shard as number[];
    assert.equal(wf.jobs.suite.strategy!["fail-fast"], false, "one shard's failure does not cancel the others");
    assert.deepEqual(
      shard,
      Array.from({ length: shard.length }, (_, i) => i + 1),
    );
    const run = runs("suite");
    assert.match(run, /node scripts\/shard-tests\.js --shard "\$\(\(SHARD \+ 1\)\)\/\$SHARDS"/);
    const step = wf.jobs.suite.steps.find((s) => s.run?.includes("shard-tests.js"))!;
    assert.deepEqual(step.env, { SHARD: "${{ strategy.job-index }}", SHARDS: "${{ strategy.job-total }}" });
    // What that command prints for each shard of this build: the suite's files, each once.
    const script = path.join(repoRoot, "scripts/shard-tests.js");
    const root = path.join(repoRoot, "dist/test");
    const printed = shard.flatMap((index) =>
      execFileSync(process.execPath, [script, "--shard", `${index}/${shard.length}`, "--root", root], {
        encoding: "utf8",
      })
        .split("\n")
        .filter(Boolean),
    );
    const all = execFileSync("find", [root, "-name", "*.test.js"], { encoding: "utf8" }).split("\n").filter(Boolean);
    assert.deepEqual([...printed].sort(), [...all].sort());
    assert.match(runs("compat"), /node dist\/test\/consumer\/compat\.js b c/);
  });

  it("installs what the suite needs: Node.js, Go, Python, the engine (cached), moto, fake-gcs-server, Chromium", () => {
    const suite = runs("suite");
    for (const action of ["actions/setup-node@", "actions/setup-go@", "actions/setup-python@", "actions/cache@"])
      assert.ok(
        uses("suite").some((u) => u.startsWith(action)),
        action,
      );
    for (const script of ["ensure-pulumi.sh", "ensure-moto.sh", "ensure-gcs.sh", "ensure-chromium.sh"])
      assert.match(suite, new RegExp(`bash scripts/${script.replace(".", "\\.")}`), script);
    const cache = wf.jobs.suite.steps.find((s) => s.uses?.startsWith("actions/cache@"))!;
    assert.equal(cache.with?.path, "~/.cache/pulumi-embedded-connectors", "the engines' cache of ensure-pulumi.sh");
    assert.match(String(cache.with?.key), /hashFiles\('tools\/\*\/go\.mod', 'tools\/\*\/go\.sum'/);
    assert.match(runs("compat"), /bash scripts\/ensure-pulumi\.sh/);
  });
});
