// Both ends of the `pulumi` range the Python SDK declares (sdk/python/pyproject.toml, from the
// schema's python.requires;): for the lowest version the range allows and the
// newest the package index serves below its upper bound, a virtualenv of that `pulumi` from the
// index (scripts/ensure-python.sh <version>: once per machine) with the committed SDK installed,
// and a preview of examples/python-sub-account (the program python-example.test.ts runs) under
// the suite's CLI: the program imports pulumi_embedded, looks the catalogue up through the plugin
// and plans its resources. One service for both; a preview each (no up: python-example.test.ts
// runs the program's life at the CLI's version and at the newest).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, repoRoot } from "./harness";
import { startService, type E2EService } from "./fixtures";

const execFileAsync = promisify(execFile);
const exampleDir = path.join(repoRoot, "examples", "python-sub-account");

/** The SDK's declared `pulumi` requirement, e.g. ">=3.231.0,<4.0.0". */
async function declaredRange(): Promise<{ lowest: string; below: string }> {
  const pyproject = await fs.readFile(path.join(repoRoot, "sdk", "python", "pyproject.toml"), "utf8");
  const range = /"pulumi>=(\d+\.\d+\.\d+),<(\d+\.\d+\.\d+)"/.exec(pyproject);
  assert.ok(range, "sdk/python/pyproject.toml declares `pulumi>=X.Y.Z,<A.B.C`");
  return { lowest: range[1], below: range[2] };
}

/** The newest `pulumi` the package index (pip's configured one) serves below `below`. */
async function newestServed(below: string): Promise<string> {
  const { stdout } = await execFileAsync("python3", ["-m", "pip", "index", "versions", "pulumi"], {
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
  });
  const listed = /Available versions: (.*)/.exec(stdout)?.[1];
  assert.ok(listed, `pip index versions pulumi lists versions:\n${stdout}`);
  const [major] = below.split(".").map(Number);
  const releases = listed
    .split(", ")
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && Number(v.split(".")[0]) < major)
    .sort((a, b) => compare(b, a));
  assert.ok(releases.length > 0, `the index serves a pulumi below ${below}`);
  return releases[0];
}

function compare(a: string, b: string): number {
  const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The virtualenv of scripts/ensure-python.sh for `version` (the committed SDK in it), and the pulumi it holds. */
async function venvWith(version: string): Promise<{ venv: string; installed: string }> {
  const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-python.sh"), version], {
    cwd: repoRoot,
    env: { ...process.env, EMBEDDED_PYTHON_SDK: path.join(repoRoot, "sdk", "python") },
    maxBuffer: 16 * 1024 * 1024,
  });
  const venv = stdout.trim().split("\n").pop() ?? "";
  const { stdout: installed } = await execFileAsync(path.join(venv, "bin", "python"), [
    "-c",
    "import importlib.metadata as m; print(m.version('pulumi'))",
  ]);
  return { venv, installed: installed.trim() };
}

describe("e2e: the Python SDK's pulumi range, both ends (a preview of examples/python-sub-account)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let svc: E2EService;
  const stacks: E2EStack[] = [];

  before(async function () {
    this.timeout(10 * 60_000);
    await ensureEngine();
    svc = await startService();
  });

  after(async function () {
    for (const stack of stacks) await stack.dispose();
    await svc?.service.stop();
  });

  for (const end of ["lowest", "highest"] as const)
    it(`the ${end} pulumi the range allows runs the program's preview`, async function () {
      this.timeout(15 * 60_000); // a first run makes the virtualenv from the index
      const range = await declaredRange();
      const version = end === "lowest" ? range.lowest : await newestServed(range.below);
      const { venv, installed } = await venvWith(version);
      console.error(`      pulumi ${installed} (${end} of >=${range.lowest},<${range.below})`);
      assert.equal(installed, version, `the virtualenv holds pulumi ${version}`);
      const engine = await ensureEngine();
      const partner = svc.service.customers[1];
      const stack = await E2EStack.create({
        program: "python-sub-account",
        programDir: exampleDir,
        name: `py-range-${end}`,
        service: {
          baseUrl: svc.baseUrl,
          clientId: svc.clientId,
          clientSecret: svc.clientSecret,
          accountId: svc.accountId,
        },
        config: {
          partnerBaseUrl: svc.baseUrl,
          partnerClientId: partner.clientId,
          partnerAccountId: partner.subAccountIds[0],
        },
        secretConfig: {
          s3SecretAccessKey: "range-s3-key",
          facebookClientSecret: "range-facebook-secret",
          partnerClientSecret: partner.clientSecret,
          partnerSegmentApiKey: "range-segment-key",
        },
        env: { PATH: `${path.join(venv, "bin")}${path.delimiter}${engine.env.PATH}`, VIRTUAL_ENV: venv },
      });
      stacks.push(stack);
      const preview = await stack.preview();
      for (const name of ["s3SourceConfiguration", "facebookDestinationConfiguration", "partnerSegmentSource"])
        assert.match(preview.stdout, new RegExp(`\\+\\s+embedded:index:\\w+ ${name} create`), `plans ${name}`);
      assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [], "a preview adds nothing");
    });
});
