// Issue 4, item 5 and issue 18, item 1: secrets never leak. Canaries: the client secret
// (stack config `embedded:clientSecret`, set as a secret), and a value in every field type of
// secretConfig — Password (from secret program config, and passed in plain text from an
// environment variable, which the resource must make secret itself), Text (passed in plain
// text), Number and Date (random, given as strings), Select and Multi-Select (list and
// comma-separated forms). None may appear in `pulumi stack export`, the backend's files,
// anything the engine printed, or the service's log. Select and Multi-Select values must be
// among the seeded options, so the canaries are options that appear nowhere else in the
// state or the output ("ap-southeast-2", "parquet", "purchase": in no connector's name,
// description or URL, nor in the stack's plain config); their absence is the evidence.
import { strict as assert } from "node:assert";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine } from "./harness";
import { canary, dateCanary, numberCanary, replayCanariesOnFailure } from "./canaries";
import { apiKeyFields, fieldValue, S3, SEGMENT, startService, storageFields, type E2EService } from "./fixtures";

describe("e2e: secrets (stack export, backend files, engine output, service log)", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    replayCanariesOnFailure();
    const clientSecret = canary("client");
    const fromSecretConfig = canary("secret-config");
    const fromSecretConfig2 = canary("secret-config-2");
    const passedPlain = canary("plain");
    const textPlain = canary("text");
    const number = numberCanary("number");
    const date = dateCanary("date");
    const select = "ap-southeast-2";
    const multiList = ["parquet", "avro"];
    const multiString = "purchase, page";
    const canaries = [clientSecret, fromSecretConfig, fromSecretConfig2, passedPlain, textPlain, number, date, select, "parquet", "purchase"];
    let svc: E2EService;
    let stack: E2EStack;

    function configurations(ref: string): object[] {
        return [
            {
                key: "segmentConfig",
                connectorId: SEGMENT,
                after: "segment",
                secretConfig: apiKeyFields(),
                secretRefs: { apiKey: ref, batchSize: "number", backfillFrom: "date", eventTypes: "multiString" },
                envRefs: { workspace: "E2E_PLAIN_TEXT" },
            },
            {
                key: "s3Config",
                connectorId: S3,
                after: "s3",
                secretConfig: storageFields(),
                secretRefs: { region: "select", fileFormats: "multiList" },
                envRefs: { secretAccessKey: "E2E_PLAIN_SECRET" },
            },
        ];
    }

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService({ firstCustomer: { clientSecret } });
        assert.equal(svc.clientSecret, clientSecret);
        stack = await E2EStack.create({
            program: "connectors",
            name: "secrets",
            service: { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret, accountId: svc.accountId },
            config: {
                connectors: [
                    { key: "segment", connectorId: SEGMENT },
                    { key: "s3", connectorId: S3 },
                ],
                configurations: configurations("first"),
            },
            secretConfig: {
                secretValues: { first: fromSecretConfig, second: fromSecretConfig2, number, date, select, multiList, multiString },
            },
            env: { E2E_PLAIN_SECRET: passedPlain, E2E_PLAIN_TEXT: textPlain },
        });
    });

    after(async function () {
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("runs up, preview, refresh, an update and destroy with diffs shown", async () => {
        await stack.up({ diff: true });
        // The service did receive the values (so the canaries were really used).
        const live = await svc.outOfBand.listAdded(svc.accountId);
        assert.deepEqual(live.filter((c) => c.configured).map((c) => c.connectorId).sort(), [SEGMENT, S3].sort());
        // Compared without assert.equal, which would print a canary on failure.
        const segment = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        const s3 = await svc.outOfBand.getConfiguration(svc.accountId, S3);
        const stored: [string, unknown, string][] = [
            ["workspace (Text)", fieldValue(segment, "workspace"), textPlain],
            ["batchSize (Number)", fieldValue(segment, "batchSize"), number],
            ["backfillFrom (Date)", fieldValue(segment, "backfillFrom"), date],
            ["eventTypes (Multi-Select)", fieldValue(segment, "eventTypes"), "purchase,page"],
            ["region (Select)", fieldValue(s3, "region"), select],
            ["fileFormats (Multi-Select)", fieldValue(s3, "fileFormats"), "parquet,avro"],
        ];
        for (const [field, got, wanted] of stored) assert.ok(got === wanted, `the service holds the canary of ${field}`);

        // Number and Multi-Select were given as strings: no perpetual diff for the drift check.
        await stack.preview({ diff: true, refresh: true, expectNoChanges: true });
        await stack.refresh();
        await stack.setConfig({ configurations: configurations("second") });
        const update = await stack.up({ diff: true });
        assert.equal(update.summary.resourceChanges?.update, 1, JSON.stringify(update.summary.resourceChanges));
    });

    it("no canary in `pulumi stack export`, the backend's files or the stack's config file", async () => {
        const exported = await stack.exportText();
        const backend = await stack.backendText();
        const stackConfig = await stack.stackConfigText();
        assert.match(stackConfig, /embedded:clientSecret/);
        assert.match(exported, /segmentConfig/, "the export holds the configuration");
        for (const value of canaries) {
            assertNoSecret(exported, value, "pulumi stack export");
            assertNoSecret(backend, value, "the backend's files");
            assertNoSecret(stackConfig, value, "Pulumi.<stack>.yaml");
        }
        // The resource made the plain value secret: the state holds ciphertext for it.
        const deployment = JSON.parse(exported) as { deployment: { resources: { urn: string; inputs?: Record<string, unknown> }[] } };
        const s3Config = deployment.deployment.resources.find((r) => r.urn.endsWith("::s3Config"));
        assert.ok(s3Config?.inputs, "s3Config is in the state");
        assert.match(JSON.stringify(s3Config.inputs.secretConfig), /ciphertext/);
    });

    it("no canary in anything the engine printed", async () => {
        await stack.destroy({ diff: true });
        const printed = stack.engineOutput();
        assert.match(printed, /segmentConfig/, "the engine output was captured");
        for (const value of canaries) {
            assertNoSecret(printed, value, "the engine's output");
        }
    });

    it("no canary in the service's log", () => {
        const log = svc.logs.join("");
        assert.match(log, /\/es\/v2\/connectors/, "the service log was captured");
        for (const value of canaries) {
            assertNoSecret(log, value, "the service's log");
        }
    });
});
