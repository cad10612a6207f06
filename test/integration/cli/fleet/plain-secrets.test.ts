// A stack whose client secret is in plain text in its stack file (set without
// --secret) is refused by every fleet command before any engine runs, with the command that
// encrypts it and never the value, in any output (stdout, stderr, the JSON report).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../../../harness/engine";
import { plainSecretKeys } from "../../../../cli/fleet/plain-secrets";
import { assertNoCanary, canary, replayCanariesOnFailure } from "../../../e2e/canaries";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");

describe("cli: fleet refuses a stack whose client secret is in plain text", function () {
  this.timeout(60_000); // each case starts the CLI
  replayCanariesOnFailure();
  const value = canary("plain-stack-secret");
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-plain-"));
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: fleet-plain\nruntime: nodejs\n");
    await fs.writeFile(
      path.join(dir, "Pulumi.acme.yaml"),
      `config:\n  embedded:accountId: 239a5bbdbe543163\n  embedded:clientSecret: ${value}\n`,
    );
    // The JSON form of a stack file, with a comment line before: parsed, not matched by pattern.
    await fs.writeFile(
      path.join(dir, "Pulumi.globex.yaml"),
      `# globex\n${JSON.stringify({ config: { "embedded:clientSecret": value } })}\n`,
    );
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it("reads the stack file: a plain value is refused, a secure: one is not, a missing one is not", () => {
    assert.deepEqual(plainSecretKeys(`config:\n  embedded:clientSecret: x\n`, dir), ["embedded:clientSecret"]);
    assert.deepEqual(plainSecretKeys(`config:\n  embedded:clientSecret: 42\n`, dir), ["embedded:clientSecret"]);
    assert.deepEqual(plainSecretKeys(`config:\n  embedded:clientSecret:\n    secure: AAABAx==\n`, dir), []);
    assert.deepEqual(plainSecretKeys(`config:\n  embedded:clientId: x\n`, dir), []);
    assert.deepEqual(plainSecretKeys("", dir), []);
  });

  for (const command of ["drift", "up"]) {
    it(`fleet ${command}: each such stack failed, naming the command that encrypts it; no engine ran; no value printed`, async () => {
      const report = path.join(dir, `report-${command}.json`);
      const run = await execFileAsync(process.execPath, [cli, "fleet", command, "--dir", dir, "--json", report], {
        cwd: dir,
        env: { ...process.env, PULUMI_HOME: path.join(dir, ".no-pulumi-home") },
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      assert.equal(run.code, 1, run.stderr);
      const written = await fs.readFile(report, "utf8");
      const parsed = JSON.parse(written) as { stacks: { stack: string; status: string; error?: string }[] };
      assert.deepEqual(parsed.stacks.map((s) => [s.stack, s.status]).sort(), [
        ["acme", "failed"],
        ["globex", "failed"],
      ]);
      for (const stack of parsed.stacks) {
        assert.ok(
          stack.error?.includes(`\`pulumi config set --secret embedded:clientSecret --stack ${stack.stack}\``),
          stack.error,
        );
      }
      for (const [where, text] of [
        ["stdout", run.stdout],
        ["stderr", run.stderr],
        ["the JSON report", written],
      ])
        assertNoCanary(text, value, where);
      await assert.rejects(fs.stat(path.join(dir, ".no-pulumi-home")), "an engine ran");
    });
  }
});
