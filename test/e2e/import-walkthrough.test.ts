// examples/import-walkthrough under the real engine, step by step as its README says: connectors
// added and configured by hand (through the service's API), `pulumi import --file import.json`
// (with the YAML language host printing the code), the program as it reads after the import
// (the Password added from a secret): one update that writes the configuration, then a clean
// drift check; no Add reaches the service for the imported connectors; destroy empties the
// sub-account; no secret (the client secret, the Password typed by hand, the program's) shows.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, repoRoot } from "./harness";
import { e2eSuite, FACEBOOK, fieldValue, S3, serviceSettings } from "./fixtures";
import { routeKey } from "../../contract/routes";

const exampleDir = path.join(repoRoot, "examples", "import-walkthrough");
/** The sub-account the example's files name (the local service's first customer's first). */
const EXAMPLE_ACCOUNT = "239a5bbdbe543163";
const BY_HAND = { bucket: "legacy-exports", accessKeyId: "AKIAHANDEXAMPLE", region: "eu-west-1" };

describe("e2e: examples/import-walkthrough (added by hand, imported, then managed)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const typedInAConsole = `canary-console-${randomBytes(6).toString("hex")}`;
  const programPassword = `canary-program-${randomBytes(6).toString("hex")}`;
  let addsBefore = 0;

  async function adds(): Promise<number> {
    const stats = await e2e.svc.service.stats();
    return Object.values(stats.byRoute[routeKey("addConnectors")] ?? {}).reduce((a, b) => a + b, 0);
  }

  const e2e = e2eSuite({
    stack: (svc) =>
      E2EStack.create({
        program: "import-walkthrough",
        programDir: exampleDir,
        name: "import-walkthrough",
        service: serviceSettings(svc),
        secretConfig: { s3SecretAccessKey: programPassword },
      }),
    setUp: async ({ svc }) => {
      // Step 1: someone set the sub-account up by hand.
      await svc.outOfBand.add(svc.accountId, [S3, FACEBOOK]);
      await svc.outOfBand.configure(svc.accountId, S3, { ...BY_HAND, secretAccessKey: typedInAConsole });
      addsBefore = await adds();
    },
  });

  it("the example's files name what the program declares", async () => {
    const program = await fs.readFile(path.join(exampleDir, "Pulumi.yaml"), "utf8");
    const importFile = JSON.parse(await fs.readFile(path.join(exampleDir, "import.json"), "utf8")) as {
      resources: { name: string; id: string }[];
    };
    for (const { name, id } of importFile.resources) {
      assert.match(program, new RegExp(`^  ${name}:$`, "m"), `Pulumi.yaml declares ${name}`);
      assert.ok(id.startsWith(`${EXAMPLE_ACCOUNT}/`), id);
      assert.ok(program.includes(id.slice(EXAMPLE_ACCOUNT.length + 1)), `Pulumi.yaml names connector ${id}`);
    }
    assert.deepEqual(
      [S3, FACEBOOK].map((id) => program.includes(id)),
      [true, true],
    );
  });

  it("`pulumi import --file import.json` takes the three in, prints them as YAML without the imported values, and sends no Add", async () => {
    const ids = (await fs.readFile(path.join(exampleDir, "import.json"), "utf8"))
      .split(EXAMPLE_ACCOUNT)
      .join(e2e.svc.accountId);
    await fs.writeFile(path.join(e2e.stack.workDir, "import.json"), ids);
    const { stdout } = await e2e.stack.cli(["import", "--file", "import.json", "--protect=false", "--yes"]);
    assert.match(stdout, /3 imported/);
    assert.match(stdout, /type: embedded:ConnectorConfiguration/, "the YAML language host printed the code");
    // The imported secretConfig is secret: the code printed names no value of it.
    assert.doesNotMatch(stdout, /legacy-exports/i, "no value the service returned is printed");
    // Nor the provider's hidden inputs: the digests' secret salt, the fields to declare.
    assert.doesNotMatch(stdout, /__digestSalt|__importedFields/, "a hidden input is printed in the code");
    const types = (await e2e.stack.resources()).map((r) => r.type).sort();
    assert.deepEqual(types, [
      "embedded:index:AddedConnector",
      "embedded:index:AddedConnector",
      "embedded:index:ConnectorConfiguration",
    ]);
    assert.equal(await adds(), addsBefore, "an import only reads");
  });

  it("the program as it reads after the import: one update (the Password), then the drift check is clean", async () => {
    const preview = await e2e.stack.preview();
    assert.equal(preview.changeSummary.update, 1, JSON.stringify(preview.changeSummary));
    assert.equal(preview.changeSummary.create ?? 0, 0, JSON.stringify(preview.changeSummary));
    const up = await e2e.stack.up();
    assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));
    assert.equal((await e2e.stack.outputValues()).s3Configured, true);
    const view = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, S3);
    assert.equal(fieldValue(view, "bucket"), BY_HAND.bucket);
    await e2e.stack.preview({ expectNoChanges: true });
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
    assert.equal(await adds(), addsBefore, "managing what was imported adds nothing");
  });

  it("destroy removes the connectors; no secret shows anywhere", async () => {
    await e2e.stack.destroy();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    const places = {
      "the engine output": e2e.stack.engineOutput(),
      "the state": await e2e.stack.exportText(),
      "the backend": await e2e.stack.backendText(),
    };
    for (const [where, text] of Object.entries(places)) {
      for (const secret of [typedInAConsole, programPassword, e2e.svc.clientSecret])
        assertNoSecret(text, secret, where);
    }
    assertNoSecret(e2e.svc.logs.join(""), programPassword, "the service log");
  });
});
