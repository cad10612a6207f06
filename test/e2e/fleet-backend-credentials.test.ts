// A PULUMI_BACKEND_URL with a password (holding `@`, as passwords do) that cannot be opened,
// under the real engine: the engine's error quotes the URL whole ("unable to open bucket
// postgres://user:p@ss@host/db: …"), and the fleet copies its errors into the JSON, Markdown and
// JUnit reports, its progress lines and its table, and `fleet adopt` into its error. None of them
// shows the password, in any form (provider/client/url-credentials.ts). No service is needed: the
// engine fails on the backend first. About 10 s on this 2-CPU machine (two engine starts).
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ensureEngine, programsDir, type Engine } from "./harness";
import { runCli } from "./fleet-cli";

const SEED = process.env.FLEET_E2E_SEED ?? randomBytes(4).toString("hex");
/**
 * A password with the characters a naive scrub stops at, `@` and `:` (one with `/`, `?` or `#` is
 * no URL to the engine, which then takes it for the Pulumi Cloud's: the unit tests cover those).
 */
const PASSWORD = `p@ss:${SEED}@w0rd`;

function forms(secret: string): string[] {
  const parts = secret.split("@").filter((p) => p.length >= 4); // a scrub stopping at an `@` leaves these
  return [secret, encodeURIComponent(secret), secret.replace(/&/g, "&amp;"), ...parts];
}

describe("e2e: a backend URL's password never reaches a fleet report", function () {
  this.timeout(5 * 60_000);
  let engine: Engine;
  let dir: string;

  before(async () => {
    console.log(`fleet backend credentials e2e: seed ${SEED} (replay with FLEET_E2E_SEED=${SEED})`);
    engine = await ensureEngine();
    // Inside the repository: the fleet loads @pulumi/pulumi from the program's directory.
    dir = path.join(programsDir, ".work", `fleet-backend-credentials-${SEED}-${randomBytes(3).toString("hex")}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: embedded-fleet\nruntime: nodejs\n");
    await fs.writeFile(path.join(dir, "customers.json"), "{}\n");
    await fs.writeFile(
      path.join(dir, "Pulumi.acme-eu.yaml"),
      "config:\n  embedded-fleet:accountId: c000000000000001\n  embedded-fleet:connectors: {}\n",
    );
    await fs.writeFile(path.join(dir, "accounts.csv"), "c000000000000002,,globex\n");
  });
  after(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("fleet drift (fast path and --engine) and fleet adopt: exit 1, the failure said, no password anywhere", async () => {
    const env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      PULUMI_BACKEND_URL: `postgres://fleet:${PASSWORD}@127.0.0.1:1/state`,
    };
    const outputs: string[] = [];
    for (const extra of [[], ["--engine"]]) {
      const run = await runCli(
        ["fleet", "drift", "--json", "drift.json", "--markdown", "drift.md", "--junit", "drift.xml", ...extra],
        { env, cwd: dir, timeoutMs: 120_000 },
      );
      assert.equal(run.code, 1, run.output);
      outputs.push(run.output);
      for (const f of ["drift.json", "drift.md", "drift.xml"])
        outputs.push(await fs.readFile(path.join(dir, f), "utf8"));
      const report = JSON.parse(outputs[outputs.length - 3]) as { stacks: { status: string; error?: string }[] };
      assert.equal(report.stacks[0].status, "failed");
      assert.match(
        report.stacks[0].error ?? "",
        /unable to open bucket postgres:\/\/\[redacted\]@127\.0\.0\.1:1\/state/,
      );
    }
    const adopt = await runCli(["fleet", "adopt", "--accounts", "accounts.csv", "--json", "adopt.json"], {
      env,
      cwd: dir,
      timeoutMs: 120_000,
    });
    assert.equal(adopt.code, 1, adopt.output);
    assert.match(adopt.output, /postgres:\/\/\[redacted\]@/, adopt.output);
    outputs.push(adopt.output);
    const all = outputs.join("\n");
    for (const form of forms(PASSWORD)) assert.ok(!all.includes(form), `${JSON.stringify(form)} shows:\n${all}`);
  });
});
