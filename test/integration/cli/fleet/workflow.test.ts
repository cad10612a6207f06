// The example workflows pass actionlint (built once per machine by scripts/ensure-actionlint.sh
// from the module tools/actionlint pins), and examples/fleet/workflow.yml runs the fleet the
// way the README says: a matrix from `fleet matrix`, a concurrency group per shard,
// --changed-since on pull requests with the Markdown report as the job summary, nightly drift.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { repoRoot } from "../../../../harness/engine";
import { gitHubStandIn, TOKEN } from "../../../support/github-stand-in";

const execFileAsync = promisify(execFile);
const WORKFLOWS = ["examples/fleet/workflow.yml", "examples/gitops/workflow.yml"];

async function actionlint(bin: string, file: string): Promise<{ code: number; output: string }> {
  return execFileAsync(bin, ["-no-color", file], { cwd: repoRoot })
    .then((r) => ({ code: 0, output: r.stdout + r.stderr }))
    .catch((e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }));
}

describe("cli: the example workflows", function () {
  this.timeout(15 * 60_000); // the first run on a machine builds actionlint
  let bin: string;

  before(async () => {
    const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
      cwd: repoRoot,
    });
    bin = stdout.trim().split("\n").pop()!;
  });

  for (const file of WORKFLOWS) {
    it(`${file} passes actionlint`, async () => {
      const result = await actionlint(bin, file);
      assert.equal(result.code, 0, result.output);
    });
  }

  it("actionlint catches a broken copy (so a pass means something)", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-workflow-"));
    try {
      const broken = path.join(dir, "broken.yml");
      const text = await fs.readFile(path.join(repoRoot, WORKFLOWS[0]), "utf8");
      await fs.writeFile(
        broken,
        text.replace("needs.plan.outputs.matrix).include[0]", "needs.plann.outputs.matrix).include[0]"),
      );
      const result = await actionlint(bin, broken);
      assert.equal(result.code, 1, result.output);
      assert.match(result.output, /plann/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("examples/fleet/workflow.yml: a job per shard of `fleet matrix`, a concurrency group per shard, PR summaries, nightly drift", async () => {
    const text = await fs.readFile(path.join(repoRoot, WORKFLOWS[0]), "utf8");
    const wf = parse(text) as {
      on: { schedule?: { cron: string }[]; pull_request?: unknown };
      jobs: Record<
        string,
        {
          strategy?: { matrix: string };
          concurrency?: { group: string; "cancel-in-progress": boolean };
          steps: { run?: string }[];
        }
      >;
    };
    assert.ok(wf.on.schedule?.length && wf.on.pull_request);
    const plan = wf.jobs.plan.steps.map((s) => s.run ?? "").join("\n");
    assert.match(plan, /fleet matrix --dir "\$FLEET_DIR" --shards "\$SHARDS"/);
    assert.match(plan, /--changed-since "origin\/\$BASE_REF"/);
    const fleet = wf.jobs.fleet;
    assert.equal(fleet.strategy?.matrix, "${{ fromJSON(needs.plan.outputs.matrix) }}");
    // Per shard, and the applies apart: GitHub replaces a pending run of a group with a newer one,
    // so a preview or the nightly drift sharing the apply's group could drop a merged change.
    assert.deepEqual(fleet.concurrency, {
      group: "connectors-fleet-${{ github.event_name == 'push' && 'apply' || github.event_name }}-${{ matrix.name }}",
      "cancel-in-progress": false,
    });
    const run = fleet.steps.map((s) => s.run ?? "").join("\n");
    assert.match(run, /pull_request\) args=\(preview --changed-since "origin\/\$BASE_REF"\)/);
    assert.match(run, /\*\) args=\(drift\)/);
    assert.match(run, /--shard "\$SHARD"/);
    assert.match(run, /--markdown fleet-report\.md/);
    assert.match(run, /cat fleet-report\.md >> "\$GITHUB_STEP_SUMMARY"/);
  });

  it("examples/fleet/workflow.yml: nightly, `fleet issues` over every shard's report, run as written against a loopback GitHub", async () => {
    const text = await fs.readFile(path.join(repoRoot, WORKFLOWS[0]), "utf8");
    const wf = parse(text) as {
      permissions: Record<string, string>;
      jobs: Record<
        string,
        {
          needs?: string;
          if?: string;
          permissions?: Record<string, string>;
          steps: {
            name?: string;
            run?: string;
            uses?: string;
            with?: Record<string, string>;
            env?: Record<string, string>;
          }[];
        }
      >;
    };
    assert.deepEqual(wf.permissions, { contents: "read" }, "issues: write in the issues job alone");
    const job = wf.jobs["drift-issues"];
    assert.equal(job.needs, "fleet");
    assert.match(
      job.if ?? "",
      /always\(\) && \(github\.event_name == 'schedule' \|\| github\.event_name == 'workflow_dispatch'\)/,
    );
    assert.deepEqual(job.permissions, { contents: "read", issues: "write" });
    assert.equal(
      job.steps.find((st) => st.uses?.startsWith("actions/download-artifact"))?.with?.pattern,
      "fleet-report-*",
    );
    const step = job.steps.find((st) => /fleet issues/.test(st.run ?? ""))!;
    assert.deepEqual(step.env, { GITHUB_TOKEN: "${{ github.token }}" }, "no secret but the job's own token");
    // The step's script as written, in a job's directory holding two shards' reports: `npx` is the package's CLI.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-issues-step-"));
    const gh = await gitHubStandIn();
    try {
      const drifted = {
        stack: "acme-eu",
        status: "drifted",
        durationMs: 1,
        resources: [
          { urn: "u", type: "embedded:index:AddedConnector", name: "s3", operation: "delete", properties: [] },
        ],
        repair: "pulumi-embedded-connectors fleet up --stacks acme-eu",
      };
      for (const [shard, stacks] of [
        ["1", [drifted]],
        ["2", [{ ...drifted, stack: "globex", status: "clean", resources: [] }]],
      ] as const) {
        await fs.mkdir(path.join(dir, "reports", `fleet-report-shard-${shard}`), { recursive: true });
        const report = { schemaVersion: 1, command: "drift", project: "embedded-fleet", stacks };
        await fs.writeFile(
          path.join(dir, "reports", `fleet-report-shard-${shard}`, "fleet-report.json"),
          JSON.stringify(report),
        );
      }
      await fs.mkdir(path.join(dir, "bin"));
      const cliMain = path.join(repoRoot, "dist", "cli", "main.js");
      await fs.writeFile(
        path.join(dir, "bin", "npx"),
        `#!/bin/sh\nshift\nexec "${process.execPath}" "${cliMain}" "$@"\n`,
        { mode: 0o755 },
      );
      const { stdout } = await execFileAsync("bash", ["-e", "-c", step.run!], {
        cwd: dir,
        env: {
          PATH: `${path.join(dir, "bin")}:${process.env.PATH}`,
          GITHUB_TOKEN: TOKEN,
          GITHUB_API_URL: gh.url,
          GITHUB_REPOSITORY: "acme/fleet",
        },
      });
      assert.match(stdout, /acme-eu: drifted, opened #1/);
      assert.deepEqual(
        gh.issues.map((i) => [i.title, i.labels, i.state]),
        [["Drift: stack acme-eu", ["fleet-drift"], "open"]],
      );
    } finally {
      await gh.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("no secret at workflow level; secrets only in jobs behind an environment, pull requests in their own", async () => {
    interface Step {
      run?: string;
      uses?: string;
      env?: Record<string, string>;
    }
    interface Job {
      if?: string;
      environment?: string;
      env?: Record<string, string>;
      steps: Step[];
    }
    for (const file of WORKFLOWS) {
      const text = await fs.readFile(path.join(repoRoot, file), "utf8");
      const wf = parse(text) as { env?: Record<string, string>; jobs: Record<string, Job> };
      const secretsIn = (value: unknown) => JSON.stringify(value ?? {}).match(/secrets\.[A-Z_]+/g) ?? [];
      assert.deepEqual(secretsIn(wf.env), [], `${file}: workflow-level env holds no secret`);
      let sawPullRequestEnvironment = false;
      for (const [name, job] of Object.entries(wf.jobs)) {
        const used = secretsIn(job);
        if (used.length === 0) continue;
        assert.ok(job.environment, `${file}: job ${name} reads ${used.join(", ")} without an environment`);
        // Secrets reach only the steps that run Pulumi: never `npm ci` (install scripts) or an action.
        for (const step of job.steps) {
          if (secretsIn(step).length > 0)
            assert.match(step.run ?? "", /pulumi(-embedded-connectors fleet)? /, `${file}: ${name}`);
        }
        const forPullRequests =
          job.environment.includes("'pull_request' && 'preview'") ||
          (job.environment === "preview" && /pull_request/.test(job.if ?? ""));
        if (forPullRequests) sawPullRequestEnvironment = true;
        assert.ok(
          !/pull_request/.test(job.if ?? "") || forPullRequests,
          `${file}: job ${name} runs pull requests in production`,
        );
      }
      assert.ok(sawPullRequestEnvironment, `${file}: pull requests run in the environment preview`);
      assert.match(text, /A pull request runs ITS OWN program and workflow/, `${file} says why`);
      assert.match(text, /preview .*[\s\S]*required reviewers[\s\S]*read-only credentials/);
    }
  });
});
