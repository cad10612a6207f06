// One set-up when both run):
// refusals inside a 200 quoting what was sent (the token request, Configure) fail both stacks,
// naming each route and status, and leave no form of a secret in the fleet's output or its
// JSON, Markdown and JUnit reports.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { routeKey } from "../../contract/routes";
import { assertNoSecret } from "./harness";
import { quotedTelltales } from "./canaries";
import { fleetFixture } from "./fleet-fixture";

describe("e2e: fleet: refusals inside a 200", function () {
  this.timeout(20 * 60_000);
  const f = fleetFixture.use();

  it("refusals inside a 200 quoting what was sent (the token request, Configure): both named, no form of a secret in any output or report", async () => {
    // The hosted service's convention (the status in a 200's body), its text
    // quoting the client secret and the Segment key upper-cased, truncated, base64, … (the local
    // service's quoteBack fault). One stack at a time, so that the first token request of the
    // run (whichever stack's) is the one refused, and the other stack reaches Configure.
    const up = await f.ensureUp(); // the stacks as the fleet's first test leaves them (wherever it runs)
    assert.equal(up.code, 0, up.output);
    const stacks = ["acme-001", "globex-001"];
    const files = stacks.map((s) => path.join(f.workDir, `Pulumi.${s}.yaml`));
    const before = await Promise.all(files.map((file) => fs.readFile(file, "utf8")));
    await Promise.all(
      files.map((file, i) => fs.writeFile(file, before[i].replace("batchSize: 500", "batchSize: 600"))),
    );
    await f.service.setFaults({
      rules: [
        { route: routeKey("getToken"), mode: "quoteBack", refusalStatus: 401, inBody: true, count: 1 },
        { route: routeKey("configure"), mode: "quoteBack", inBody: true },
      ],
    });
    try {
      const reports = ["refused.json", "refused.md", "refused.xml"].map(f.out);
      const flags = ["--json", reports[0], "--markdown", reports[1], "--junit", reports[2]];
      const run = await f.fleet(["up", "--stacks", stacks.join(","), "--concurrency", "1", ...flags]);
      assert.equal(run.code, 1, `exit ${run.code}`);
      const refused = await f.report("refused.json");
      const [markdown, junit] = await Promise.all(reports.slice(1).map((file) => fs.readFile(file, "utf8")));
      f.outputs.push(markdown, junit);
      assert.deepEqual(
        refused.stacks.map((s) => [s.stack, s.status]),
        stacks.map((s) => [s, "failed"]),
      );
      const errors = refused.stacks.map((s) => s.error ?? "").join("\n");
      // The routes and statuses only, should it fail: the rest might quote a secret.
      const heads = (errors.match(/[A-Z]+ \/\S+: \d{3}/g) ?? []).join(", ");
      assert.ok(/client-token: 401 Unauthorized: the service's text is left out/.test(errors), heads);
      assert.ok(/configuration: 400 Bad Request: fields [^;]*secretConfig\.apiKey/.test(errors), heads);
      assert.equal((junit.match(/<failure /g) ?? []).length, 2);
      for (const secret of f.secrets) {
        for (const { form, telltale } of quotedTelltales(secret)) {
          for (const [where, text] of [
            ["the fleet's output", run.output],
            ["the JSON report", JSON.stringify(refused)],
            ["the Markdown report", markdown],
            ["the JUnit report", junit],
          ]) {
            assertNoSecret(text, telltale, `${where} (${form})`);
          }
        }
      }
    } finally {
      await f.service.setFaults({ rules: [] });
      await Promise.all(files.map((file, i) => fs.writeFile(file, before[i])));
    }
  });
});
