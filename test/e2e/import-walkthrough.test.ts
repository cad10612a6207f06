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
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, repoRoot } from "./harness";
import { FACEBOOK, S3, fieldValue, startService, type E2EService } from "./fixtures";
import { routeKey } from "../../contract/routes";

const exampleDir = path.join(repoRoot, "examples", "import-walkthrough");
/** The sub-account the example's files name (the local service's first customer's first). */
const EXAMPLE_ACCOUNT = "239a5bbdbe543163";
const BY_HAND = { bucket: "legacy-exports", accessKeyId: "AKIAHANDEXAMPLE", region: "eu-west-1" };

describe("e2e: examples/import-walkthrough (added by hand, imported, then managed)", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const typedInAConsole = `canary-console-${randomBytes(6).toString("hex")}`;
    const programPassword = `canary-program-${randomBytes(6).toString("hex")}`;
    let svc: E2EService;
    let stack: E2EStack;
    let addsBefore = 0;

    async function adds(): Promise<number> {
        const stats = await svc.service.stats();
        return Object.values(stats.byRoute[routeKey("addConnectors")] ?? {}).reduce((a, b) => a + b, 0);
    }

    before(async function () {
        this.timeout(30 * 60_000); // a cold engine build
        await ensureEngine();
        svc = await startService();
        stack = await E2EStack.create({
            program: "import-walkthrough",
            programDir: exampleDir,
            name: "import-walkthrough",
            service: { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret: svc.clientSecret, accountId: svc.accountId },
            secretConfig: { s3SecretAccessKey: programPassword },
        });
        // Step 1: someone set the sub-account up by hand.
        await svc.outOfBand.add(svc.accountId, [S3, FACEBOOK]);
        await svc.outOfBand.configure(svc.accountId, S3, { ...BY_HAND, secretAccessKey: typedInAConsole });
        addsBefore = await adds();
    });

    after(async function () {
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("the example's files name what the program declares", async () => {
        const program = await fs.readFile(path.join(exampleDir, "Pulumi.yaml"), "utf8");
        const importFile = JSON.parse(await fs.readFile(path.join(exampleDir, "import.json"), "utf8")) as { resources: { name: string; id: string }[] };
        for (const { name, id } of importFile.resources) {
            assert.match(program, new RegExp(`^  ${name}:$`, "m"), `Pulumi.yaml declares ${name}`);
            assert.ok(id.startsWith(`${EXAMPLE_ACCOUNT}/`), id);
            assert.ok(program.includes(id.slice(EXAMPLE_ACCOUNT.length + 1)), `Pulumi.yaml names connector ${id}`);
        }
        assert.deepEqual([S3, FACEBOOK].map((id) => program.includes(id)), [true, true]);
    });

    it("`pulumi import --file import.json` takes the three in, prints them as YAML, and sends no Add", async () => {
        const ids = (await fs.readFile(path.join(exampleDir, "import.json"), "utf8")).split(EXAMPLE_ACCOUNT).join(svc.accountId);
        await fs.writeFile(path.join(stack.workDir, "import.json"), ids);
        const { stdout } = await stack.cli(["import", "--file", "import.json", "--protect=false", "--yes"]);
        assert.match(stdout, /3 imported/);
        assert.match(stdout, /type: embedded:ConnectorConfiguration/, "the YAML language host printed the code");
        assert.match(stdout, /bucket: legacy-exports/, "with the values the service returned");
        const types = (await stack.resources()).map((r) => r.type).sort();
        assert.deepEqual(types, ["embedded:index:AddedConnector", "embedded:index:AddedConnector", "embedded:index:ConnectorConfiguration"]);
        assert.equal(await adds(), addsBefore, "an import only reads");
    });

    it("the program as it reads after the import: one update (the Password), then the drift check is clean", async () => {
        const preview = await stack.preview();
        assert.equal(preview.changeSummary.update, 1, JSON.stringify(preview.changeSummary));
        assert.equal(preview.changeSummary.create ?? 0, 0, JSON.stringify(preview.changeSummary));
        const up = await stack.up();
        assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));
        assert.equal((await stack.outputValues()).s3Configured, true);
        const view = await svc.outOfBand.getConfiguration(svc.accountId, S3);
        assert.equal(fieldValue(view, "bucket"), BY_HAND.bucket);
        await stack.preview({ expectNoChanges: true });
        await stack.preview({ refresh: true, expectNoChanges: true });
        assert.equal(await adds(), addsBefore, "managing what was imported adds nothing");
    });

    it("destroy removes the connectors; no secret shows anywhere", async () => {
        await stack.destroy();
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
        const places = { "the engine output": stack.engineOutput(), "the state": await stack.exportText(), "the backend": await stack.backendText() };
        for (const [where, text] of Object.entries(places)) {
            for (const secret of [typedInAConsole, programPassword, svc.clientSecret]) assertNoSecret(text, secret, where);
        }
        assertNoSecret(svc.logs.join(""), programPassword, "the service log");
    });
});
