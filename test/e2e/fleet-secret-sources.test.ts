// `fleet up` on examples/fleet refuses a stack file that
// routes another customer's client secret or the fleet's own credentials into a field (before
// any resource), and one that feeds a secret into a field the service returns in clear
// (before the configuration is written). No canary reaches the output, the report or the service.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { writeStackFile } from "../../cli/fleet/new";
import type { FleetReport } from "../../cli/fleet/report";
import { assertNoSecret, programsDir } from "./harness";
import { runCli } from "./fleet-cli";
import { copyFleetExample, type FleetCopy } from "./fleet-example-copy";
import { OutOfBandClient, SEGMENT } from "./fixtures";

const SEED = process.env.FLEET_SOURCES_SEED ?? randomBytes(4).toString("hex");
const canary = (what: string) => `${what}-${SEED}-${randomBytes(6).toString("hex")}`;

describe("e2e: fleet stack files route only allowed secret sources", function () {
  this.timeout(10 * 60_000);
  let fleet: FleetCopy;
  let workDir: string;
  const acmeSecret = canary("acme-client");
  const apiKey = canary("segment-key");

  before(async function () {
    this.timeout(30 * 60_000);
    console.log(`fleet secret sources e2e: seed ${SEED} (FLEET_SOURCES_SEED=${SEED})`);
    fleet = await copyFleetExample({
      parent: path.join(programsDir, ".work"),
      name: `fleet-sources-${SEED}`,
      acmeClientSecret: acmeSecret,
    });
    ({ workDir } = fleet);
    const { project, service } = fleet;
    const [first, second] = service.customers[0].subAccountIds;
    const segment = (secrets: Record<string, { env: string }>) => ({
      segment: {
        name: "Segment",
        supportedType: "Source" as const,
        values: { dataCenter: "EU", batchSize: 5 },
        secrets,
      },
    });
    // Another customer's client secret and the state passphrase, in acme's reviewed file.
    await writeStackFile(project, "acme-routes", {
      accountId: first,
      customer: "acme",
      connectors: segment({ apiKey: { env: "GLOBEX_CLIENT_SECRET" }, workspace: { env: "PULUMI_CONFIG_PASSPHRASE" } }),
    });
    // An allowed variable, but into a Text field the service returns in clear.
    await writeStackFile(project, "acme-clear", {
      accountId: second,
      customer: "acme",
      connectors: segment({ apiKey: { env: "ACME_SEGMENT_API_KEY" }, workspace: { env: "ACME_SEGMENT_API_KEY" } }),
    });
  });

  after(async () => {
    if (workDir) await fs.rm(`${workDir}-report.json`, { force: true });
    await fleet?.remove();
  });

  it("fleet up refuses both stacks, names the field and the rule, and leaks nothing", async () => {
    const { engine, service } = fleet;
    const globexSecret = service.customers[1].clientSecret;
    const env = fleet.env({ GLOBEX_CLIENT_SECRET: globexSecret, ACME_SEGMENT_API_KEY: apiKey });
    const report = `${workDir}-report.json`;
    const run = await runCli(["fleet", "up", "--dir", workDir, "--json", report], { env });
    assert.equal(run.code, 1, run.output);
    const text = await fs.readFile(report, "utf8");
    const parsed = JSON.parse(text) as FleetReport;
    const errorOf = (stack: string) => parsed.stacks.find((s) => s.stack === stack)?.error ?? "";
    assert.match(
      errorOf("acme-routes"),
      /field apiKey: \{ env: GLOBEX_CLIENT_SECRET \} is customer globex's client secret/,
    );
    assert.match(
      errorOf("acme-routes"),
      /field workspace: \{ env: PULUMI_CONFIG_PASSPHRASE \} is one of the fleet's own credentials/,
    );
    assert.match(
      errorOf("acme-clear"),
      /connector segment, field workspace is a Text field, which the service returns in clear/,
    );

    for (const secret of [acmeSecret, apiKey, globexSecret, engine.env.PULUMI_CONFIG_PASSPHRASE ?? acmeSecret]) {
      assertNoSecret(run.output, secret, "the fleet's output");
      assertNoSecret(text, secret, "the JSON report");
    }
    const acme = new OutOfBandClient(service.baseUrl, service.customers[0].clientId, acmeSecret);
    const [first, second] = service.customers[0].subAccountIds;
    assert.deepEqual(await acme.addedIds(first), [], "refused before any resource");
    // acme-clear's connector was added (the field types come from it); its configuration was never written.
    const configuration = JSON.stringify(await acme.getConfiguration(second, SEGMENT).catch(() => ({})));
    assertNoSecret(configuration, apiKey, "the service's configuration");
  });
});
