// Secrets never leak through the plugin `embedded`. Canaries: the client secrets of three
// providers (the default one from the secret stack config `embedded:clientSecret`; two explicit
// ones from secret program config: customer 2 of the same service, whose seeded secret is
// fixed, and customer 1 of a second service, with a random one), and a value in every field
// type of every secretConfig — Password (from secret config, and passed in plain text from an
// environment variable, which the resource must make secret itself), Text (likewise both
// ways), Number and Date (random, given as strings), Select and Multi-Select (list and
// comma-separated forms). None may appear in `pulumi stack export`, the backend's files, the
// stack's config file, anything the engine printed, or either service's log. Select and
// Multi-Select values must be among the seeded options, so those canaries are options that
// appear nowhere else in the state or the output ("ap-southeast-2", "parquet", "purchase",
// "conversions"); their absence is the evidence.
import { strict as assert } from "node:assert";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, resourceName } from "./harness";
import { canary, dateCanary, numberCanary, replayCanariesOnFailure } from "./canaries";
import { apiKeyFields, FACEBOOK, fieldValue, S3, SEGMENT, startService, storageFields, type E2EService } from "./fixtures";
import { customer, pluginStack, PROVIDER_TYPE, type Customer } from "./plugin-fixtures";

interface StateResource {
    urn: string;
    type: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
}

describe("e2e: plugin secrets (stack export, backend files, engine output, service logs)", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    replayCanariesOnFailure();
    const defaultSecret = canary("default-client");
    const elsewhereSecret = canary("elsewhere-client");
    const values = {
        // Passwords
        segmentKey: canary("segment-password"),
        segmentKey2: canary("segment-password-2"),
        facebookSecret: canary("facebook-password"),
        // Text
        bucket: canary("bucket-text"),
        adAccount: canary("ad-account-text"),
        // Number, Date
        batchSize: numberCanary("batch-size"),
        maxFileSize: numberCanary("max-file-size"),
        dailyLimit: numberCanary("daily-limit"),
        backfillFrom: dateCanary("backfill-from"),
        startDate: dateCanary("start-date"),
        tokenIssuedOn: dateCanary("token-issued-on"),
        // Select, Multi-Select (list and comma-separated)
        region: "ap-southeast-2",
        fileFormats: ["parquet", "avro"],
        eventTypes: "purchase, page",
        permissions: ["conversions", "read"],
    };
    const passedPlainPassword = canary("plain-password");
    const passedPlainText = canary("plain-text");
    let svc: E2EService;
    let elsewhere: E2EService;
    let other: Customer;
    let stack: E2EStack;
    let canaries: [string, string][];

    function configurations(segmentKeyRef: string): object[] {
        return [
            {
                key: "segmentConfig",
                connectorId: SEGMENT,
                after: "segment",
                secretConfig: apiKeyFields(),
                secretRefs: { apiKey: segmentKeyRef, batchSize: "batchSize", backfillFrom: "backfillFrom", eventTypes: "eventTypes" },
                envRefs: { workspace: "E2E_PLAIN_TEXT" },
            },
            {
                key: "facebookConfig",
                connectorId: FACEBOOK,
                after: "facebook",
                provider: "other",
                secretConfig: { apiVersion: "v19.0" },
                secretRefs: {
                    clientSecret: "facebookSecret",
                    adAccountId: "adAccount",
                    dailyUploadLimit: "dailyLimit",
                    tokenIssuedOn: "tokenIssuedOn",
                    permissions: "permissions",
                },
            },
            {
                key: "s3Config",
                connectorId: S3,
                after: "s3",
                provider: "elsewhere",
                secretConfig: storageFields(),
                secretRefs: { bucket: "bucket", region: "region", fileFormats: "fileFormats", maxFileSizeMb: "maxFileSize", startDate: "startDate" },
                envRefs: { secretAccessKey: "E2E_PLAIN_SECRET" },
            },
        ];
    }

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService({ firstCustomer: { clientSecret: defaultSecret } });
        elsewhere = await startService({ firstCustomer: { clientSecret: elsewhereSecret } });
        other = customer(svc, 1);
        canaries = [
            ["the default provider's client secret", defaultSecret],
            ["the explicit provider's client secret (second service)", elsewhereSecret],
            ["customer 2's client secret (fixed by the seed)", other.clientSecret],
            ["a Password passed in plain text", passedPlainPassword],
            ["a Text passed in plain text", passedPlainText],
            ["the Multi-Select canary (list)", "parquet"],
            ["the Multi-Select canary (comma-separated)", "purchase"],
            ["the Multi-Select canary (list, second connector)", "conversions"],
            ...Object.entries(values)
                .filter(([, value]) => typeof value === "string")
                .map(([key, value]): [string, string] => [`secretValues.${key}`, value as string]),
        ];
        stack = await pluginStack(svc, "plugin-secrets", {
            config: {
                providers: [
                    { key: "other", clientId: other.clientId, clientSecretRef: "otherSecret", accountId: other.accountId },
                    { key: "elsewhere", baseUrl: elsewhere.baseUrl, clientId: elsewhere.clientId, clientSecretRef: "elsewhereSecret", accountId: elsewhere.accountId },
                ],
                connectors: [
                    { key: "segment", connectorId: SEGMENT },
                    { key: "facebook", connectorId: FACEBOOK, provider: "other" },
                    { key: "s3", connectorId: S3, provider: "elsewhere" },
                ],
                configurations: configurations("segmentKey"),
            },
            secretConfig: { secretValues: { ...values, otherSecret: other.clientSecret, elsewhereSecret } },
            env: { E2E_PLAIN_SECRET: passedPlainPassword, E2E_PLAIN_TEXT: passedPlainText },
        });
    });

    after(async function () {
        await stack?.dispose();
        await svc?.service.stop();
        await elsewhere?.service.stop();
    });

    it("runs up, preview, refresh and an update with diffs shown; the services hold the canaries", async () => {
        await stack.up({ diff: true });
        // The services did receive the values (so the canaries were really used). Compared
        // without assert.equal, which would print a canary on failure.
        const segment = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        const facebook = await other.outOfBand.getConfiguration(other.accountId, FACEBOOK);
        const s3 = await elsewhere.outOfBand.getConfiguration(elsewhere.accountId, S3);
        const stored: [string, unknown, string][] = [
            ["segment workspace (Text, plain)", fieldValue(segment, "workspace"), passedPlainText],
            ["segment batchSize (Number)", fieldValue(segment, "batchSize"), values.batchSize],
            ["segment backfillFrom (Date)", fieldValue(segment, "backfillFrom"), values.backfillFrom],
            ["segment eventTypes (Multi-Select)", fieldValue(segment, "eventTypes"), "purchase,page"],
            ["facebook adAccountId (Text)", fieldValue(facebook, "adAccountId"), values.adAccount],
            ["facebook dailyUploadLimit (Number)", fieldValue(facebook, "dailyUploadLimit"), values.dailyLimit],
            ["facebook tokenIssuedOn (Date)", fieldValue(facebook, "tokenIssuedOn"), values.tokenIssuedOn],
            ["facebook permissions (Multi-Select)", fieldValue(facebook, "permissions"), "conversions,read"],
            ["s3 bucket (Text)", fieldValue(s3, "bucket"), values.bucket],
            ["s3 region (Select)", fieldValue(s3, "region"), values.region],
            ["s3 fileFormats (Multi-Select)", fieldValue(s3, "fileFormats"), "parquet,avro"],
            ["s3 maxFileSizeMb (Number)", fieldValue(s3, "maxFileSizeMb"), values.maxFileSize],
            ["s3 startDate (Date)", fieldValue(s3, "startDate"), values.startDate],
        ];
        for (const [field, got, wanted] of stored) assert.ok(got === wanted, `the service holds the canary of ${field}`);
        for (const [who, client, accountId] of [
            ["customer 1", svc.outOfBand, svc.accountId],
            ["customer 2", other.outOfBand, other.accountId],
            ["the second service", elsewhere.outOfBand, elsewhere.accountId],
        ] as const) {
            assert.equal((await client.listAdded(accountId)).filter((c) => c.configured).length, 1, `${who}: one configured connector`);
        }

        // Numbers and Multi-Selects given as strings: no perpetual diff for the drift check.
        await stack.preview({ diff: true, refresh: true, expectNoChanges: true });
        await stack.refresh();
        await stack.setConfig({ configurations: configurations("segmentKey2") });
        const update = await stack.up({ diff: true });
        assert.equal(update.summary.resourceChanges?.update, 1, JSON.stringify(update.summary.resourceChanges));
    });

    it("no canary in `pulumi stack export`, the backend's files or the stack's config file", async () => {
        const exported = await stack.exportText();
        const backend = await stack.backendText();
        const stackConfig = await stack.stackConfigText();
        assert.match(stackConfig, /embedded:clientSecret:\s+secure:/);
        assert.match(exported, /s3Config/, "the export holds the configurations");
        for (const [label, value] of canaries) {
            assertNoSecret(exported, value, `pulumi stack export (${label})`);
            assertNoSecret(backend, value, `the backend's files (${label})`);
            assertNoSecret(stackConfig, value, `Pulumi.<stack>.yaml (${label})`);
        }
        // The values are there, as ciphertext: every configuration's secretConfig (an input
        // only, including s3Config's, whose Password came in plain text) and values, and the
        // explicit providers' clientSecret.
        const resources = (JSON.parse(exported) as { deployment: { resources: StateResource[] } }).deployment.resources;
        const byName = new Map(resources.map((r) => [resourceName(r), r]));
        for (const name of ["segmentConfig", "facebookConfig", "s3Config"]) {
            const resource = byName.get(name);
            assert.ok(resource, `${name} is in the state`);
            assert.match(JSON.stringify(resource.inputs?.secretConfig), /ciphertext/, `${name}: inputs.secretConfig is a secret`);
            assert.ok(resource.outputs && !("secretConfig" in resource.outputs), `${name}: secretConfig is not an output`);
            assert.ok(!("values" in resource.outputs) && typeof resource.outputs.fieldDigests === "object", `${name}: digests, no values, among the outputs`);
        }
        for (const name of ["other", "elsewhere"]) {
            const provider = byName.get(name);
            assert.equal(provider?.type, PROVIDER_TYPE);
            assert.match(JSON.stringify(provider?.inputs?.clientSecret), /ciphertext/, `provider ${name}: clientSecret is a secret`);
        }
    });

    it("no canary in anything the engine printed", async () => {
        await stack.destroy({ diff: true });
        for (const service of [svc, elsewhere]) {
            assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "destroy emptied the sub-account");
        }
        assert.deepEqual(await other.outOfBand.addedIds(other.accountId), []);
        const printed = stack.engineOutput();
        assert.match(printed, /facebookConfig/, "the engine output was captured");
        // The diffs were shown, with the values hidden (s3Config's Password came in plain text).
        assert.match(printed, /secretConfig\s*:\s*\[secret\]/, "the diffs show secretConfig as [secret]");
        assert.match(printed, /clientSecret\s*:\s*\[secret\]/, "the diffs show the providers' clientSecret as [secret]");
        for (const [label, value] of canaries) {
            assertNoSecret(printed, value, `the engine's output (${label})`);
        }
    });

    it("no canary in either service's log", () => {
        for (const [which, service] of [["the first service", svc], ["the second service", elsewhere]] as const) {
            const log = service.logs.join("");
            assert.match(log, /\/es\/v2\/connectors/, `${which}'s log was captured`);
            for (const [label, value] of canaries) {
                assertNoSecret(log, value, `${which}'s log (${label})`);
            }
        }
    });
});
