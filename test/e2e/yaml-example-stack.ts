// The stack of examples/yaml-sub-account that its engine suites share (yaml-example.test.ts,
// yaml-example-secret-lookup.test.ts): one service and one stack per mocha process
// (shared-setup.ts), with the canaries none of their outputs may hold. The first customer's
// client secret, every Password value, a Text value written in the file and a lookup's secret
// name are random; the second customer's client secret is the service's seeded `other-secret`
// (only the first customer's can be chosen): it is scanned for all the same.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { E2EStack } from "./harness";
import { endSuite, makeSuite, OutOfBandClient, type E2ESuite, type E2ESuiteOptions } from "./fixtures";
import { sharedSetUp } from "./shared-setup";
import { exampleDir, yamlExampleConfig } from "./yaml-example-config";
import type { SeededCustomer } from "../../harness/local-service";

/** The line of Pulumi.yaml that the set-up changes in its copy to put the Text canary in the file. */
const ACCESS_KEY_LINE = "accessKeyId: AKIAYAMLEXAMPLE";

function canary(label: string): string {
  return `canary-${label}-${randomBytes(6).toString("hex")}`;
}

/** The values no output, file or log may hold. */
export const yamlCanaries = {
  clientSecret: canary("client"),
  s3Password: canary("s3-password"),
  facebookPassword: canary("facebook-password"),
  segmentPassword: canary("segment-password"),
  textValue: canary("text"),
  /** A lookup's name made secret in the file (`fn::secret`); no connector has it. */
  secretLookupName: canary("lookup-name"),
  /** The second seeded customer's secret: fixed by the service, not random. */
  partnerClientSecret: "other-secret",
};

export interface YamlExample extends E2ESuite {
  /** The second seeded customer: the file's explicit provider `partner`. */
  partner: SeededCustomer;
  partnerOutOfBand: OutOfBandClient;
  /** A connection a test made and has not deleted yet (teardown deletes it). */
  connectionId?: string;
}

const options: E2ESuiteOptions = {
  service: { firstCustomer: { clientSecret: yamlCanaries.clientSecret } },
  tearDown: async (suite) => {
    const connectionId = (suite as Partial<YamlExample>).connectionId;
    if (connectionId) await suite.svc.service.deleteConnection(connectionId).catch(() => undefined);
  },
};

async function make(into: Partial<YamlExample>): Promise<void> {
  await makeSuite(
    {
      ...options,
      stack: async (svc) => {
        assert.equal(svc.clientSecret, yamlCanaries.clientSecret);
        const partner = svc.service.customers[1];
        into.partner = partner;
        assert.equal(partner.clientSecret, yamlCanaries.partnerClientSecret, "the second customer's seeded secret");
        into.partnerOutOfBand = new OutOfBandClient(svc.baseUrl, partner.clientId, partner.clientSecret);
        const { config, secretConfig } = yamlExampleConfig({
          partnerBaseUrl: svc.baseUrl,
          partnerClientId: partner.clientId,
          partnerAccountId: partner.subAccountIds[0],
          s3Password: yamlCanaries.s3Password,
          facebookPassword: yamlCanaries.facebookPassword,
          partnerClientSecret: yamlCanaries.partnerClientSecret,
          segmentPassword: yamlCanaries.segmentPassword,
        });
        return E2EStack.create({
          program: "yaml-sub-account",
          programDir: exampleDir,
          name: "yaml-sub-account",
          service: {
            baseUrl: svc.baseUrl,
            clientId: svc.clientId,
            clientSecret: svc.clientSecret,
            accountId: svc.accountId,
          },
          config,
          secretConfig,
        });
      },
      setUp: async ({ stack }) => {
        // The Text canary is a plain value written in the file (S3's accessKeyId), as the file's
        // values are; not config: the backend records every update's plain config, defaults
        // included, in its history.
        const file = path.join(stack.workDir, "Pulumi.yaml");
        const program = await fs.readFile(file, "utf8");
        assert.equal(program.split(ACCESS_KEY_LINE).length - 1, 1, `Pulumi.yaml has the line ${ACCESS_KEY_LINE}`);
        await fs.writeFile(file, program.replace(ACCESS_KEY_LINE, `accessKeyId: ${yamlCanaries.textValue}`));
      },
    },
    into,
  );
}

/** The shared stack: `yamlExample.use()` in a describe. */
export const yamlExample = sharedSetUp<YamlExample>(make, (made) => endSuite(options, made));
