// The GitHub workflows of this repository, read and held to what every one of them keeps: it
// passes actionlint (scripts/ensure-actionlint.sh builds it once per machine from the Go module
// proxy, tools/actionlint pins v1.7.12, as the engine is built), and it pins every action by
// commit and every tool by exact version. The release and CI workflows' tests share them.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);

export interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
export interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: string;
  strategy?: { "fail-fast"?: boolean; matrix: Record<string, unknown[]> };
  steps: Step[];
}
export interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

/** The workflow at `file` (relative to the repository), parsed. */
export async function readWorkflow(file: string): Promise<Workflow> {
  return parse(await fs.readFile(path.join(repoRoot, file), "utf8")) as Workflow;
}

/** Every `run:` of a job's steps, one after the other. */
export function runsOf(workflow: Workflow, job: string): string {
  return workflow.jobs[job].steps.map((s) => s.run ?? "").join("\n");
}

/** actionlint's exit code and output for `file`. */
async function actionlint(file: string): Promise<{ code: number; output: string }> {
  const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
    cwd: repoRoot,
  });
  const bin = stdout.trim().split("\n").pop()!;
  return execFileAsync(bin, ["-no-color", file], { cwd: repoRoot }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
  );
}

/**
 * The workflow at `file`, read before the tests of the `describe` that calls this, with the tests
 * every workflow passes: actionlint, and every action and tool pinned.
 */
export function workflowUnderTest(file: string): Workflow & { runs(job: string): string } {
  let read: Workflow | undefined;
  const workflow = () => read ?? assert.fail(`${file} was not read`);
  before(async () => {
    read = await readWorkflow(file);
  });
  itPassesActionlintAndPins(file, workflow);
  return {
    get on() {
      return workflow().on;
    },
    get jobs() {
      return workflow().jobs;
    },
    runs: (job) => runsOf(workflow(), job),
  };
}

/** The tests every workflow passes: actionlint, and every action and tool pinned. */
function itPassesActionlintAndPins(file: string, workflow: () => Workflow): void {
  it(`${file} passes actionlint`, async function () {
    this.timeout(15 * 60_000); // the first run on a machine builds actionlint
    const result = await actionlint(file);
    assert.equal(result.code, 0, result.output);
  });

  it("pins every action by commit, and every tool by exact version", () => {
    for (const [name, job] of Object.entries(workflow().jobs))
      for (const step of job.steps.filter((s) => s.uses)) {
        assert.match(step.uses!, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, `${name}: ${step.uses}`);
        for (const key of ["node-version", "python-version", "go-version"])
          if (step.with?.[key] !== undefined)
            assert.match(String(step.with[key]), /^\d+\.\d+\.\d+$/, `${name}: ${key} ${step.with[key]}`);
      }
  });
}
