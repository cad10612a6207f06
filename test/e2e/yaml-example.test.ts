// examples/yaml-sub-account under the real engine, as its README says to run it: a Pulumi YAML
// program (language host pulumi-language-yaml) using the plugin `embedded`, installed into the
// hermetic PULUMI_HOME by ensureEngine() the way a user does (`pulumi-embedded-connectors plugin
// install`). One stack goes through the life of a sub-account's file: up (the service holds
// exactly the file's connectors and configurations, the explicit provider's in the other
// customer's sub-account), the drift check clean, an out-of-band Configure caught by the drift
// check and repaired, the delete guard's refusal, destroy. Canaries (the first customer's client
// secret, every Password value, a Text value written in the file) never appear in `pulumi stack
// export`, the backend's files, anything the engine printed or the service's log. The second
// customer's client secret is the service's seeded `other-secret` (only the first customer's can
// be chosen): it is scanned for all the same.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { assertNoValue, assertSecretConfigKept, fieldsMarkedChanged, withoutStackOutputs } from "./drift-display";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, repoRoot, resourceName, type StateResource } from "./harness";
import {
    connectorId,
    FACEBOOK,
    fieldValue,
    OutOfBandClient,
    S3,
    startService,
    type E2EService,
} from "./fixtures";
import type { SeededCustomer } from "../../harness/local-service";

const exampleDir = path.join(repoRoot, "examples", "yaml-sub-account");
const SEGMENT = connectorId("Segment");
/** The line of Pulumi.yaml that the test changes in its copy to put the Text canary in the file. */
const ACCESS_KEY_LINE = "accessKeyId: AKIAYAMLEXAMPLE";

function canary(label: string): string {
    return `canary-${label}-${randomBytes(6).toString("hex")}`;
}

/** Every resource of the stack's state, providers included (secrets decrypted). */
async function allResources(stack: E2EStack): Promise<(StateResource & { provider?: string })[]> {
    const deployment = await stack.stack.exportStack();
    return (deployment.deployment as { resources?: (StateResource & { provider?: string })[] }).resources ?? [];
}

/** The engine's summary of a run's errors: from its first "Diagnostics:" to the "Resources:" after it. */
function diagnosticsOf(text: string): string {
    const start = text.indexOf("Diagnostics:");
    assert.ok(start >= 0, `the engine printed its Diagnostics:\n${text.slice(-3000)}`);
    const end = text.indexOf("Resources:", start);
    return text.slice(start, end > start ? end : undefined);
}

/** The top-level keys of Pulumi.yaml's `config:` section: whether each has a default, is a secret. */
function declaredConfig(pulumiYaml: string): Map<string, { hasDefault: boolean; secret: boolean }> {
    const keys = new Map<string, { hasDefault: boolean; secret: boolean }>();
    const lines = pulumiYaml.split("\n");
    const start = lines.indexOf("config:");
    assert.ok(start >= 0, "Pulumi.yaml has a config: section");
    let current: { hasDefault: boolean; secret: boolean } | undefined;
    for (const line of lines.slice(start + 1)) {
        if (/^\S/.test(line)) break; // the next top-level section
        const key = /^ {2}(\w+):\s*$/.exec(line);
        if (key) {
            current = { hasDefault: false, secret: false };
            keys.set(key[1], current);
        } else if (current && /^ {4}default:/.test(line)) {
            current.hasDefault = true;
        } else if (current && /^ {4}secret:\s*true\s*$/.test(line)) {
            current.secret = true;
        }
    }
    return keys;
}

describe("e2e: examples/yaml-sub-account (Pulumi YAML, the plugin embedded)", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const clientSecret = canary("client");
    const s3Password = canary("s3-password");
    const facebookPassword = canary("facebook-password");
    const segmentPassword = canary("segment-password");
    const textValue = canary("text");
    /** The second seeded customer's secret: fixed by the service, not random. */
    const partnerClientSecret = "other-secret";
    const canaries = [clientSecret, s3Password, facebookPassword, segmentPassword, textValue, partnerClientSecret];
    let svc: E2EService;
    let partner: SeededCustomer;
    let partnerOutOfBand: OutOfBandClient;
    let stack: E2EStack;
    let connectionId: string | undefined;
    /** The program config keys the stack sets. */
    let keysSet = new Set<string>();

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService({ firstCustomer: { clientSecret } });
        assert.equal(svc.clientSecret, clientSecret);
        partner = svc.service.customers[1];
        assert.equal(partner.clientSecret, partnerClientSecret, "the second customer's seeded secret");
        partnerOutOfBand = new OutOfBandClient(svc.baseUrl, partner.clientId, partner.clientSecret);
        const config = {
            partnerBaseUrl: svc.baseUrl,
            partnerClientId: partner.clientId,
            partnerAccountId: partner.subAccountIds[0],
        };
        const secretConfig = {
            s3SecretAccessKey: s3Password,
            facebookClientSecret: facebookPassword,
            partnerClientSecret,
            partnerSegmentApiKey: segmentPassword,
        };
        keysSet = new Set([...Object.keys(config), ...Object.keys(secretConfig)]);
        stack = await E2EStack.create({
            program: "yaml-sub-account",
            programDir: exampleDir,
            name: "yaml-sub-account",
            service: { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret, accountId: svc.accountId },
            config,
            secretConfig,
        });
        // The Text canary is a plain value written in the file (S3's accessKeyId), as the file's
        // values are; not config: the backend records every update's plain config, defaults
        // included, in its history.
        const file = path.join(stack.workDir, "Pulumi.yaml");
        const program = await fs.readFile(file, "utf8");
        assert.equal(program.split(ACCESS_KEY_LINE).length - 1, 1, `Pulumi.yaml has the line ${ACCESS_KEY_LINE}`);
        await fs.writeFile(file, program.replace(ACCESS_KEY_LINE, `accessKeyId: ${textValue}`));
    });

    after(async function () {
        if (connectionId) await svc.service.deleteConnection(connectionId).catch(() => undefined);
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("the README gives every command and sets every config key the file requires", async () => {
        const readme = await fs.readFile(path.join(exampleDir, "README.md"), "utf8");
        const pulumiYaml = await fs.readFile(path.join(exampleDir, "Pulumi.yaml"), "utf8");
        assert.match(pulumiYaml, /^runtime: yaml$/m);
        assert.match(pulumiYaml, /type: pulumi:providers:embedded/);
        assert.match(readme, /npx pulumi-embedded-connectors plugin install/);
        assert.match(readme, /- name: embedded\n\s+path: node_modules\/pulumi-embedded-connectors\/dist\/plugin/);
        for (const key of ["baseUrl", "clientId", "accountId"]) assert.match(readme, new RegExp(`pulumi config set embedded:${key} `));
        assert.match(readme, /pulumi config set --secret embedded:clientSecret /);
        assert.match(readme, /^pulumi up$/m);
        assert.match(readme, /^pulumi preview --refresh --expect-no-changes/m);
        assert.match(readme, /^pulumi up --refresh/m);
        const declared = declaredConfig(pulumiYaml);
        assert.ok(declared.size >= 4, `config keys found in Pulumi.yaml: ${[...declared.keys()].join(", ")}`);
        for (const [key, { hasDefault, secret }] of declared) {
            if (hasDefault) {
                assert.ok(readme.includes(`\`${key}\``), `the README names the optional config key ${key}`);
                continue;
            }
            const command = secret ? `pulumi config set --secret ${key}` : `pulumi config set ${key} `;
            assert.ok(readme.includes(command), `the README sets ${key}: \`${command}\``);
        }
        // This test sets every key the README has to set.
        for (const [key, { hasDefault }] of declared) if (!hasDefault) assert.ok(keysSet.has(key), `the test sets ${key}`);
    });

    it("up adds and configures exactly the file's connectors, each in its customer's sub-account", async () => {
        await stack.up();

        const outputs = await stack.outputValues();
        assert.deepEqual(
            {
                accountId: outputs.accountId,
                sourceConnectorId: outputs.sourceConnectorId,
                sourceName: outputs.sourceName,
                sourceConnections: outputs.sourceConnections,
                destinationConnectorId: outputs.destinationConnectorId,
                destinationName: outputs.destinationName,
                destinationConnections: outputs.destinationConnections,
                sourceConfigured: outputs.sourceConfigured,
                destinationConfigured: outputs.destinationConfigured,
                partnerAccountId: outputs.partnerAccountId,
                partnerConnectorName: outputs.partnerConnectorName,
                partnerConfigured: outputs.partnerConfigured,
            },
            {
                accountId: svc.accountId,
                sourceConnectorId: S3,
                sourceName: "Amazon S3",
                sourceConnections: 0,
                destinationConnectorId: FACEBOOK,
                destinationName: "Facebook Custom Audiences",
                destinationConnections: 0,
                sourceConfigured: true,
                destinationConfigured: true,
                partnerAccountId: partner.subAccountIds[0],
                partnerConnectorName: "Segment",
                partnerConfigured: true,
            },
        );

        // The stack config's sub-account holds exactly the two, configured as the file says.
        const added = await svc.outOfBand.listAdded(svc.accountId);
        assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
        assert.ok(added.every((c) => c.configured), "both connectors are configured");
        const s3 = await svc.outOfBand.getConfiguration(svc.accountId, S3);
        assert.equal(fieldValue(s3, "bucket"), "acme-exports");
        assert.ok(fieldValue(s3, "accessKeyId") === textValue, "the access key id is the file's Text value");
        assert.equal(fieldValue(s3, "region"), "eu-west-1");
        assert.equal(fieldValue(s3, "fileFormats"), "csv,parquet");
        assert.equal(fieldValue(s3, "maxFileSizeMb"), "512");
        const facebook = await svc.outOfBand.getConfiguration(svc.accountId, FACEBOOK);
        assert.equal(fieldValue(facebook, "adAccountId"), "act_1001");
        assert.equal(fieldValue(facebook, "apiVersion"), "v20.0");
        assert.equal(fieldValue(facebook, "permissions"), "read,audiences");
        // Nothing elsewhere in the first customer's sub-accounts.
        for (const other of svc.service.customers[0].subAccountIds.slice(1)) {
            assert.deepEqual(await svc.outOfBand.addedIds(other), [], `sub-account ${other} of the first customer is untouched`);
        }

        // The explicit provider: Segment in the second customer's sub-account, and only there.
        const partnerAdded = await partnerOutOfBand.listAdded(partner.subAccountIds[0]);
        assert.deepEqual(partnerAdded.map((c) => [c.connectorId, c.configured]), [[SEGMENT, true]]);
        const segment = await partnerOutOfBand.getConfiguration(partner.subAccountIds[0], SEGMENT);
        assert.equal(fieldValue(segment, "workspace"), "partner");
        assert.equal(fieldValue(segment, "eventTypes"), "track,identify");
        for (const other of partner.subAccountIds.slice(1)) {
            assert.deepEqual(await partnerOutOfBand.addedIds(other), [], `sub-account ${other} of the second customer is untouched`);
        }

        // The plugin's resources (not dynamic ones); the partner's under the explicit provider.
        const resources = await allResources(stack);
        const byName = new Map(resources.map((r) => [resourceName(r), r]));
        const explicit = resources.find((r) => r.type === "pulumi:providers:embedded" && resourceName(r) === "partner");
        assert.ok(explicit, `the explicit provider is in the state: ${[...byName.keys()].join(", ")}`);
        for (const [name, type, explicitProvider] of [
            ["s3Source", "embedded:index:AddedConnector", false],
            ["facebookDestination", "embedded:index:AddedConnector", false],
            ["s3SourceConfiguration", "embedded:index:ConnectorConfiguration", false],
            ["facebookDestinationConfiguration", "embedded:index:ConnectorConfiguration", false],
            ["partnerSegmentSource", "embedded:index:AddedConnector", true],
            ["partnerSegmentSourceConfiguration", "embedded:index:ConnectorConfiguration", true],
        ] as const) {
            const r = byName.get(name);
            assert.equal(r?.type, type, `${name}'s type`);
            const provider = r?.provider ?? "";
            if (explicitProvider) assert.ok(provider.startsWith(`${explicit.urn}::`), `${name} uses the explicit provider: ${provider}`);
            else assert.match(provider, /::pulumi:providers:embedded::default/, `${name} uses the default provider`);
        }
    });

    it("no canary in `pulumi stack export`, the backend's files or the stack's config file", async () => {
        const exported = await stack.exportText();
        const backend = await stack.backendText();
        const stackConfig = await stack.stackConfigText();
        assert.match(exported, /s3SourceConfiguration/, "the export holds the configurations");
        assert.match(stackConfig, /partnerClientSecret/);
        for (const value of canaries) {
            assertNoSecret(exported, value, "pulumi stack export");
            assertNoSecret(backend, value, "the backend's files");
            assertNoSecret(stackConfig, value, "Pulumi.<stack>.yaml");
        }
        // Kept as ciphertext: the explicit provider's clientSecret and every secretConfig.
        const deployment = JSON.parse(exported) as { deployment: { resources: { urn: string; type: string; inputs?: Record<string, unknown> }[] } };
        const explicit = deployment.deployment.resources.find((r) => r.type === "pulumi:providers:embedded" && r.urn.endsWith("::partner"));
        assert.match(JSON.stringify(explicit?.inputs?.clientSecret), /ciphertext/, "the explicit provider's clientSecret");
        for (const name of ["s3SourceConfiguration", "facebookDestinationConfiguration", "partnerSegmentSourceConfiguration"]) {
            const r = deployment.deployment.resources.find((x) => x.urn.endsWith(`::${name}`));
            assert.match(JSON.stringify(r?.inputs?.secretConfig), /ciphertext/, `${name}'s secretConfig`);
        }
    });

    it("the drift check passes after up", async () => {
        await stack.preview({ expectNoChanges: true });
        await stack.preview({ refresh: true, expectNoChanges: true });
    });

    it("an out-of-band Configure fails the drift check; up --refresh puts the file's values back", async () => {
        await svc.outOfBand.configure(svc.accountId, S3, {
            bucket: "changed-by-hand",
            accessKeyId: "AKIAOUTOFBAND",
            region: "us-east-1",
            secretAccessKey: "typed-in-a-console",
        });
        const preview = await stack.preview({ refresh: true, diff: true });
        assert.equal(preview.changeSummary.update, 1, `only the S3 configuration changes: ${JSON.stringify(preview.changeSummary)}`);
        // The drift display names the changed fields (Text, Select; Multi-Select and Number cleared)
        // and shows no value, old or new (issue 25).
        const display = withoutStackOutputs(preview.stdout);
        const s3Fields = ["bucket", "accessKeyId", "secretAccessKey", "region", "fileFormats", "maxFileSizeMb", "startDate"];
        assert.deepEqual(fieldsMarkedChanged(display, s3Fields), ["bucket", "accessKeyId", "region", "fileFormats", "maxFileSizeMb"], display);
        assert.match(display, /changed out of band at \S+: accessKeyId, bucket, fileFormats, maxFileSizeMb, region/);
        assertNoValue(display, ["changed-by-hand", "AKIAOUTOFBAND", "us-east-1", "typed-in-a-console", "acme-exports", "eu-west-1", "csv", "parquet", "512", textValue], "preview --refresh --diff");
        const text = await stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true }));
        assert.match(text, /no changes were expected/i);
        assert.match(text, /~\s+embedded:index:ConnectorConfiguration s3SourceConfiguration update/);
        assert.doesNotMatch(text, /~\s+embedded:index:ConnectorConfiguration facebookDestinationConfiguration update/);

        // Without a refresh, up compares the file with the state only: the drift stays (README).
        const plain = await stack.up();
        assert.equal(plain.summary.resourceChanges?.update, undefined, JSON.stringify(plain.summary.resourceChanges));
        assert.equal(fieldValue(await svc.outOfBand.getConfiguration(svc.accountId, S3), "bucket"), "changed-by-hand");

        // `pulumi refresh --diff` names the same fields (by their digests and `drift`), with no value.
        const refreshed = withoutStackOutputs((await stack.cli(["refresh", "--diff", "--yes"])).stdout);
        assert.deepEqual(fieldsMarkedChanged(refreshed, s3Fields), ["bucket", "accessKeyId", "region", "fileFormats", "maxFileSizeMb"], refreshed);
        assertSecretConfigKept(refreshed, "refresh --diff");
        assertNoValue(refreshed, ["changed-by-hand", "AKIAOUTOFBAND", "us-east-1", "typed-in-a-console", "acme-exports", "eu-west-1", "csv", "parquet", "512", textValue], "refresh --diff");

        const repaired = await stack.up({ refresh: true });
        assert.equal(repaired.summary.resourceChanges?.update, 1, JSON.stringify(repaired.summary.resourceChanges));
        const s3 = await svc.outOfBand.getConfiguration(svc.accountId, S3);
        assert.equal(fieldValue(s3, "bucket"), "acme-exports", "the bucket is the file's again");
        assert.ok(fieldValue(s3, "accessKeyId") === textValue, "the access key id is the file's again");
        assert.equal(fieldValue(s3, "region"), "eu-west-1");
        await stack.preview({ refresh: true, expectNoChanges: true });
    });

    it("destroy refuses while a connection uses the connectors, once per connector, without a stack trace", async () => {
        connectionId = await svc.service.createConnection(svc.accountId, S3, FACEBOOK);
        const text = await stack.expectFailure((s) => s.destroy());
        const diagnostics = diagnosticsOf(text);
        for (const [id, name, counts] of [
            [S3, "Amazon S3", /srcConnections\D{0,3}1\b/],
            [FACEBOOK, "Facebook Custom Audiences", /destConnections\D{0,3}1\b/],
        ] as const) {
            const times = diagnostics.split(`(${id}) from sub-account ${svc.accountId}`).length - 1;
            assert.equal(times, 1, `the refusal for ${name} is printed once in the Diagnostics, not ${times} times:\n${diagnostics}`);
            const line = diagnostics.split("\n").find((l) => l.includes(`(${id}) from sub-account`)) ?? "";
            assert.ok(line.includes(`"${name}"`), `names the connector: ${line}`);
            assert.match(line, counts, `gives the connection counts: ${line}`);
            assert.match(line, /delete (those|the) connections/i, `says what to do: ${line}`);
        }
        assert.doesNotMatch(diagnostics, /^\s+at /m, `no stack trace:\n${diagnostics}`);
        assert.doesNotMatch(text, /embedded-plugin\.js/, "no frame of the plugin anywhere");
        // Nothing used was removed: both still added (and configured) in the sub-account.
        const added = await svc.outOfBand.listAdded(svc.accountId);
        assert.deepEqual(added.map((c) => c.connectorId).sort(), [S3, FACEBOOK].sort());
        assert.ok(added.every((c) => c.configured), "both still configured");
        const left = (await stack.resources()).map(resourceName);
        assert.ok(left.includes("s3Source") && left.includes("facebookDestination"), `still in the state: ${left.join(", ")}`);
    });

    it("once the connection is deleted, destroy empties both customers' sub-accounts", async () => {
        assert.ok(connectionId, "the connection of the previous test");
        await svc.service.deleteConnection(connectionId);
        connectionId = undefined;
        const result = await stack.destroy();
        assert.equal(result.summary.result, "succeeded");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
        assert.deepEqual(await partnerOutOfBand.addedIds(partner.subAccountIds[0]), []);
        assert.deepEqual(await stack.resources(), []);
    });

    it("no canary in anything the engine printed, the backend's files (every checkpoint) or the service's log", async () => {
        const printed = stack.engineOutput();
        assert.match(printed, /s3SourceConfiguration/, "the engine output was captured");
        const backend = await stack.backendText();
        const log = svc.logs.join("");
        assert.match(log, /\/es\/v2\/connectors/, "the service log was captured");
        for (const value of canaries) {
            assertNoSecret(printed, value, "the engine's output");
            assertNoSecret(backend, value, "the backend's files");
            assertNoSecret(log, value, "the service's log");
        }
    });
});
