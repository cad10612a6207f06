// What the secrets suite (secrets.test.ts) runs on each host: the stack, its canaries, and the
// checks that differ between the dynamic provider (here: one service, the stack's default
// provider) and the plugin (secrets-plugin-host.ts: three providers).
//
// Canaries: the client secrets (stack config `embedded:clientSecret`, set as a secret; the
// explicit providers' from secret program config), and a value in every field type of
// secretConfig: Password (from secret config, and passed in plain text from an environment
// variable, which the resource must make secret itself), Text (passed in plain text), Number
// and Date (random, given as strings), Select and Multi-Select (list and comma-separated forms).
// Select and Multi-Select values must be among the seeded options, so the canaries are options
// that appear nowhere else in the state or the output ("ap-southeast-2", "parquet", "purchase",
// "conversions": in no connector's name, description or URL, nor in the stack's plain config);
// their absence is the evidence.
import { strict as assert } from "node:assert";
import { canary, dateCanary, numberCanary } from "./canaries";
import { E2EStack, type ProgramConfigValue } from "./harness";
import { WHOLE_SECRET_CONFIG } from "./secrets-failures";
import { apiKeyFields, fieldValue, S3, SEGMENT, serviceSettings, storageFields, type E2EService } from "./fixtures";

/** Compared without assert.equal, which would print a canary on failure. */
export function assertStored(stored: [string, unknown, string][]): void {
  for (const [field, got, wanted] of stored) assert.ok(got === wanted, `the service holds the canary of ${field}`);
}

/** One host's stack, made once the suite's service runs, and what the suite checks that is the host's own. */
export interface SecretsStack {
  stack: E2EStack;
  /** [what it is, its value]: none may appear anywhere. */
  canaries: [string, string][];
  /** The services whose logs are scanned. */
  services: [string, E2EService][];
  /** After the first `up`: the services hold the canaries (so they were really used). */
  assertStored(): Promise<void>;
  /** The program config of the update (another Password). */
  update: Record<string, ProgramConfigValue>;
  /** What the stack's config file, the export and the engine output must show (so the capture is real). */
  marks: { stackConfig: RegExp; exported: RegExp; printed: RegExp };
  /** The values are in the state, as ciphertext. */
  assertState(exported: string): void;
  /** After destroy: the sub-accounts are empty; the diffs were shown with the values hidden. */
  assertDestroyed(printed: string): Promise<void>;
  /** Stops what the host started besides the suite's service. */
  stop(): Promise<void>;
  /** The program config and secret program config the stack was created with (the failure paths add to them). */
  initial: { config: Record<string, ProgramConfigValue>; secretConfig: Record<string, ProgramConfigValue> };
  /** `pulumi import` arguments of a configuration of the first service. */
  importArgs: string[];
  /** How the import fails (the dynamic resources cannot be imported by the CLI); undefined: it succeeds. */
  importFails?: RegExp;
  /** Secret program config that makes an explicit provider's CheckConfig fail (plugin only), and its canary. */
  badProvider?: { config: Record<string, ProgramConfigValue>; secretConfig: Record<string, ProgramConfigValue> };
}

export interface SecretsHost {
  name: string;
  /**
   * Whether a preview with changes may run with --debug. Not the dynamic provider's: Pulumi's
   * dynamic provider does not support preview, so the engine hands the checked inputs (secretConfig
   * too) back to the program, whose SDK prints them under --debug (docs/secrets.md); the plugin
   * supports preview.
   */
  previewDebug: boolean;
  /** The default provider's client secret (the suite's service's first customer). */
  clientSecret: string;
  create(svc: E2EService): Promise<SecretsStack>;
}

const dynamicSecrets = {
  fromSecretConfig: canary("secret-config"),
  fromSecretConfig2: canary("secret-config-2"),
  passedPlain: canary("plain"),
  textPlain: canary("text"),
  number: numberCanary("number"),
  date: dateCanary("date"),
  select: "ap-southeast-2",
  multiList: ["parquet", "avro"],
  multiString: "purchase, page",
  // A secret string of stack config, a value the program makes secret.
  secretString: canary("secret-string"),
  programSecret: canary("program-secret"),
  // Another resource's secret output (a component's, program-config.ts).
  heldDate: dateCanary("held-start-date"),
};

export const dynamicHost: SecretsHost = {
  name: "dynamic provider",
  previewDebug: false,
  clientSecret: canary("client"),
  async create(svc) {
    const v = dynamicSecrets;
    const configurations = (ref: string): object[] => [
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
        secretStringRefs: { bucket: "bucketSecret" },
        secretEnvRefs: { accessKeyId: "E2E_PROGRAM_SECRET" },
        componentRefs: { startDate: "E2E_HELD_SECRET" },
      },
    ];
    const initial = {
      config: {
        connectors: [
          { key: "segment", connectorId: SEGMENT },
          { key: "s3", connectorId: S3 },
        ],
        configurations: configurations("first"),
      },
      secretConfig: {
        secretValues: {
          first: v.fromSecretConfig,
          second: v.fromSecretConfig2,
          number: v.number,
          date: v.date,
          select: v.select,
          multiList: v.multiList,
          multiString: v.multiString,
        },
        bucketSecret: v.secretString,
      },
    };
    const stack = await E2EStack.create({
      program: "connectors",
      name: "secrets",
      service: serviceSettings(svc),
      ...initial,
      // One attempt per call: the failure paths inject 503s (secrets-failures.ts).
      env: {
        E2E_PLAIN_SECRET: v.passedPlain,
        E2E_PLAIN_TEXT: v.textPlain,
        E2E_WHOLE_SECRET_CONFIG: WHOLE_SECRET_CONFIG,
        E2E_PROGRAM_SECRET: v.programSecret,
        E2E_HELD_SECRET: v.heldDate,
        EMBEDDED_MAX_RETRIES: "0",
      },
    });
    return {
      stack,
      importArgs: [
        "pulumi-nodejs:dynamic/embedded-connectors:ConnectorConfiguration",
        "importedSegment",
        `${svc.accountId}/${SEGMENT}`,
      ],
      importFails: /Cannot read properties of undefined \(reading 'toJavaScript'\)/,
      canaries: [
        ["the client secret", svc.clientSecret],
        ["a Password from secret config", v.fromSecretConfig],
        ["the Password of the update", v.fromSecretConfig2],
        ["a Password passed in plain text", v.passedPlain],
        ["a Text passed in plain text", v.textPlain],
        ["the Number canary", v.number],
        ["the Date canary", v.date],
        ["the Select canary", v.select],
        ["the Multi-Select canary (list)", "parquet"],
        ["the Multi-Select canary (comma-separated)", "purchase"],
        ["a Text from a secret string of stack config", v.secretString],
        ["a Text the program made secret (pulumi.secret)", v.programSecret],
        ["a Date from another resource's secret output", v.heldDate],
      ],
      services: [["the service", svc]],
      initial,
      async assertStored() {
        const live = await svc.outOfBand.listAdded(svc.accountId);
        assert.deepEqual(
          live
            .filter((c) => c.configured)
            .map((c) => c.connectorId)
            .sort(),
          [SEGMENT, S3].sort(),
        );
        const segment = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        const s3 = await svc.outOfBand.getConfiguration(svc.accountId, S3);
        assertStored([
          ["workspace (Text)", fieldValue(segment, "workspace"), v.textPlain],
          ["batchSize (Number)", fieldValue(segment, "batchSize"), v.number],
          ["backfillFrom (Date)", fieldValue(segment, "backfillFrom"), v.date],
          ["eventTypes (Multi-Select)", fieldValue(segment, "eventTypes"), "purchase,page"],
          ["region (Select)", fieldValue(s3, "region"), v.select],
          ["bucket (Text, secret string of stack config)", fieldValue(s3, "bucket"), v.secretString],
          ["accessKeyId (Text, pulumi.secret)", fieldValue(s3, "accessKeyId"), v.programSecret],
          ["startDate (Date, a component's secret output)", fieldValue(s3, "startDate"), v.heldDate],
          ["fileFormats (Multi-Select)", fieldValue(s3, "fileFormats"), "parquet,avro"],
        ]);
      },
      update: { configurations: configurations("second") },
      marks: { stackConfig: /embedded:clientSecret/, exported: /segmentConfig/, printed: /segmentConfig/ },
      assertState(exported) {
        // The resource made the plain value secret: the state holds ciphertext for it.
        const deployment = JSON.parse(exported) as {
          deployment: { resources: { urn: string; inputs?: Record<string, unknown> }[] };
        };
        const s3Config = deployment.deployment.resources.find((r) => r.urn.endsWith("::s3Config"));
        assert.ok(s3Config?.inputs, "s3Config is in the state");
        assert.match(JSON.stringify(s3Config.inputs.secretConfig), /ciphertext/);
      },
      async assertDestroyed() {},
      async stop() {},
    };
  },
};
