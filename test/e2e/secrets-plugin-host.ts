// The secrets suite's plugin host (secrets.test.ts, secrets-hosts.ts): three providers, the
// default one (stack config `embedded:*`), customer 2 of the same service (a seeded, fixed
// secret) and customer 1 of a second service (a random one), each with a configuration whose
// fields cover every type; the logs of both services are scanned.
import { strict as assert } from "node:assert";
import { resourceName, type StateResource } from "./harness";
import { apiKeyFields, FACEBOOK, fieldValue, S3, SEGMENT, startService, storageFields } from "./fixtures";
import { CONFIGURATION_TYPE, customer, pluginStack, PROVIDER_TYPE } from "./plugin-fixtures";
import { canary, dateCanary, numberCanary } from "./canaries";
import { assertStored, type SecretsHost } from "./secrets-hosts";
import { SECRET_BASE_URL, WHOLE_SECRET_CONFIG } from "./secrets-failures";

const values = {
  // Passwords
  segmentKey: canary("segment-password"),
  segmentKey2: canary("segment-password-2"),
  // Text
  bucket: canary("bucket-text"),
  adAccount: canary("ad-account-text"),
  // Number, Date
  batchSize: numberCanary("batch-size"),
  maxFileSize: numberCanary("max-file-size"),
  dailyLimit: numberCanary("daily-limit"),
  startDate: dateCanary("start-date"),
  tokenIssuedOn: dateCanary("token-issued-on"),
  // Select, Multi-Select (list and comma-separated)
  region: "ap-southeast-2",
  fileFormats: ["parquet", "avro"],
  eventTypes: "purchase, page",
  permissions: ["conversions", "read"],
};
const elsewhereSecret = canary("elsewhere-client");
// A secret string of stack config, a value the program makes secret, and a
// number as an explicit provider's clientSecret (its CheckConfig fails: secrets-failures.ts).
const facebookSecretString = canary("facebook-secret-string");
const programSecret = canary("program-secret");
const badProviderSecret = numberCanary("bad-provider-secret");
const passedPlainPassword = canary("plain-password");
const passedPlainText = canary("plain-text");
// Another resource's secret output (a component's, program-config.ts).
const heldBackfillFrom = dateCanary("held-backfill-from");

function configurations(segmentKeyRef: string): object[] {
  return [
    {
      key: "segmentConfig",
      connectorId: SEGMENT,
      after: "segment",
      secretConfig: apiKeyFields(),
      secretRefs: {
        apiKey: segmentKeyRef,
        batchSize: "batchSize",
        eventTypes: "eventTypes",
      },
      envRefs: { workspace: "E2E_PLAIN_TEXT" },
      componentRefs: { backfillFrom: "E2E_HELD_SECRET" },
    },
    {
      key: "facebookConfig",
      connectorId: FACEBOOK,
      after: "facebook",
      provider: "other",
      secretConfig: { apiVersion: "v19.0" },
      secretStringRefs: { clientSecret: "facebookSecretString" },
      secretRefs: {
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
      secretRefs: {
        bucket: "bucket",
        region: "region",
        fileFormats: "fileFormats",
        maxFileSizeMb: "maxFileSize",
        startDate: "startDate",
      },
      envRefs: { secretAccessKey: "E2E_PLAIN_SECRET" },
      secretEnvRefs: { accessKeyId: "E2E_PROGRAM_SECRET" },
    },
  ];
}

export const pluginHost: SecretsHost = {
  name: "plugin",
  previewDebug: true,
  clientSecret: canary("default-client"),
  async create(svc) {
    const elsewhere = await startService({ firstCustomer: { clientSecret: elsewhereSecret } });
    const other = customer(svc, 1);
    const canaries: [string, string][] = [
      ["the default provider's client secret", svc.clientSecret],
      ["the explicit provider's client secret (second service)", elsewhereSecret],
      ["customer 2's client secret (fixed by the seed)", other.clientSecret],
      ["a Password passed in plain text", passedPlainPassword],
      ["a Text passed in plain text", passedPlainText],
      ["a Password from a secret string of stack config", facebookSecretString],
      ["a Text the program made secret (pulumi.secret)", programSecret],
      ["a Date from another resource's secret output", heldBackfillFrom],
      ["a number as an explicit provider's clientSecret", badProviderSecret],
      ["the Multi-Select canary (list)", "parquet"],
      ["the Multi-Select canary (comma-separated)", "purchase"],
      ["the Multi-Select canary (list, second connector)", "conversions"],
      ...Object.entries(values)
        .filter(([, value]) => typeof value === "string")
        .map(([key, value]): [string, string] => [`secretValues.${key}`, value as string]),
    ];
    const providers = [
      // Secret strings of stack config: the engine hands a provider's arguments back as its
      // outputs, which the SDK prints under --debug, and only such strings are masked by the CLI
      // (docs/secrets.md).
      { key: "other", clientId: other.clientId, clientSecretKey: "otherSecret", accountId: other.accountId },
      {
        key: "elsewhere",
        baseUrl: elsewhere.baseUrl,
        clientId: elsewhere.clientId,
        clientSecretKey: "elsewhereSecret",
        accountId: elsewhere.accountId,
      },
    ];
    const secretValues = { ...values };
    const initial = {
      config: {
        providers,
        connectors: [
          { key: "segment", connectorId: SEGMENT },
          { key: "facebook", connectorId: FACEBOOK, provider: "other" },
          { key: "s3", connectorId: S3, provider: "elsewhere" },
        ],
        configurations: configurations("segmentKey"),
      },
      secretConfig: { secretValues, facebookSecretString, otherSecret: other.clientSecret, elsewhereSecret },
    };
    const stack = await pluginStack(svc, "plugin-secrets", {
      ...initial,
      // One attempt per call: the failure paths inject 503s (secrets-failures.ts).
      env: {
        E2E_PLAIN_SECRET: passedPlainPassword,
        E2E_PLAIN_TEXT: passedPlainText,
        E2E_WHOLE_SECRET_CONFIG: WHOLE_SECRET_CONFIG,
        E2E_PROGRAM_SECRET: programSecret,
        E2E_HELD_SECRET: heldBackfillFrom,
        EMBEDDED_MAX_RETRIES: "0",
      },
    });
    return {
      stack,
      canaries,
      initial,
      importArgs: [CONFIGURATION_TYPE, "importedSegment", `${svc.accountId}/${SEGMENT}`],
      badProvider: {
        config: {
          providers: [
            ...providers,
            {
              key: "bad",
              clientId: other.clientId,
              clientSecretRef: "badNumber",
              // An argument made secret (pulumi.secret) that CheckConfig refuses.
              secretArgRefs: { baseUrl: "badBaseUrl" },
            },
          ],
        },
        secretConfig: {
          secretValues: { ...secretValues, badNumber: Number(badProviderSecret), badBaseUrl: SECRET_BASE_URL },
        },
      },
      services: [
        ["the first service", svc],
        ["the second service", elsewhere],
      ],
      async assertStored() {
        const segment = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        const facebook = await other.outOfBand.getConfiguration(other.accountId, FACEBOOK);
        const s3 = await elsewhere.outOfBand.getConfiguration(elsewhere.accountId, S3);
        assertStored([
          ["segment workspace (Text, plain)", fieldValue(segment, "workspace"), passedPlainText],
          ["segment batchSize (Number)", fieldValue(segment, "batchSize"), values.batchSize],
          ["segment backfillFrom (Date)", fieldValue(segment, "backfillFrom"), heldBackfillFrom],
          ["segment eventTypes (Multi-Select)", fieldValue(segment, "eventTypes"), "purchase,page"],
          ["facebook adAccountId (Text)", fieldValue(facebook, "adAccountId"), values.adAccount],
          ["facebook dailyUploadLimit (Number)", fieldValue(facebook, "dailyUploadLimit"), values.dailyLimit],
          ["facebook tokenIssuedOn (Date)", fieldValue(facebook, "tokenIssuedOn"), values.tokenIssuedOn],
          ["facebook permissions (Multi-Select)", fieldValue(facebook, "permissions"), "conversions,read"],
          ["s3 bucket (Text)", fieldValue(s3, "bucket"), values.bucket],
          ["s3 accessKeyId (Text, pulumi.secret)", fieldValue(s3, "accessKeyId"), programSecret],
          ["s3 region (Select)", fieldValue(s3, "region"), values.region],
          ["s3 fileFormats (Multi-Select)", fieldValue(s3, "fileFormats"), "parquet,avro"],
          ["s3 maxFileSizeMb (Number)", fieldValue(s3, "maxFileSizeMb"), values.maxFileSize],
          ["s3 startDate (Date)", fieldValue(s3, "startDate"), values.startDate],
        ]);
        for (const [who, client, accountId] of [
          ["customer 1", svc.outOfBand, svc.accountId],
          ["customer 2", other.outOfBand, other.accountId],
          ["the second service", elsewhere.outOfBand, elsewhere.accountId],
        ] as const) {
          assert.equal(
            (await client.listAdded(accountId)).filter((c) => c.configured).length,
            1,
            `${who}: one configured connector`,
          );
        }
      },
      update: { configurations: configurations("segmentKey2") },
      marks: { stackConfig: /embedded:clientSecret:\s+secure:/, exported: /s3Config/, printed: /facebookConfig/ },
      assertState(exported) {
        // The values are there, as ciphertext: every configuration's secretConfig (an input
        // only, including s3Config's, whose Password came in plain text) and values, and the
        // explicit providers' clientSecret.
        const resources = (JSON.parse(exported) as { deployment: { resources: StateResource[] } }).deployment.resources;
        const byName = new Map(resources.map((r) => [resourceName(r), r]));
        for (const name of ["segmentConfig", "facebookConfig", "s3Config"]) {
          const resource = byName.get(name);
          assert.ok(resource, `${name} is in the state`);
          assert.match(
            JSON.stringify(resource.inputs?.secretConfig),
            /ciphertext/,
            `${name}: inputs.secretConfig is a secret`,
          );
          assert.ok(
            resource.outputs && !("secretConfig" in resource.outputs),
            `${name}: secretConfig is not an output`,
          );
          assert.ok(
            !("values" in resource.outputs) && typeof resource.outputs.fieldDigests === "object",
            `${name}: digests, no values, among the outputs`,
          );
        }
        for (const name of ["other", "elsewhere"]) {
          const provider = byName.get(name);
          assert.equal(provider?.type, PROVIDER_TYPE);
          assert.match(
            JSON.stringify(provider?.inputs?.clientSecret),
            /ciphertext/,
            `provider ${name}: clientSecret is a secret`,
          );
        }
      },
      async assertDestroyed(printed) {
        for (const service of [svc, elsewhere]) {
          assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "destroy emptied the sub-account");
        }
        assert.deepEqual(await other.outOfBand.addedIds(other.accountId), []);
        // The diffs were shown, with the values hidden (s3Config's Password came in plain text).
        assert.match(printed, /secretConfig\s*:\s*\[secret\]/, "the diffs show secretConfig as [secret]");
        assert.match(
          printed,
          /clientSecret\s*:\s*\[secret\]/,
          "the diffs show the providers' clientSecret as [secret]",
        );
      },
      stop: () => elsewhere.service.stop(),
    };
  },
};
