// Two explicit providers of the plugin `embedded` in one TypeScript program, one per customer
// of the seeded service (customer 1 and customer 2, each with its own credentials and default
// sub-account), and no default provider at all: each connector and configuration lands in its
// own customer's sub-account, a lookup runs through its resource's provider, and neither client
// secret is ever in plain text in the state, the backend's files or the engine's output.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { assertNoSecret, ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { apiKeyFields, e2eSuite, FACEBOOK, S3, SEGMENT } from "./fixtures";
import {
  ADDED_CONNECTOR_TYPE,
  CONFIGURATION_TYPE,
  customer,
  type Customer,
  liveValues,
  pluginStack,
  PROVIDER_TYPE,
} from "./plugin-fixtures";

interface DeployedResource {
  urn: string;
  type: string;
  id?: string;
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

function canary(label: string): string {
  return `canary-${label}-${randomBytes(6).toString("hex")}`;
}

describe("e2e: plugin with two explicit providers (two customers in one program)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const firstSecret = canary("customer-1-secret");
  const firstKey = canary("customer-1-apikey");
  const secondKey = canary("customer-2-apikey");
  let first: Customer;
  let second: Customer;
  const e2e = e2eSuite({
    service: { firstCustomer: { clientSecret: firstSecret } },
    stack: (svc) => {
      first = customer(svc, 0);
      second = customer(svc, 1);
      assert.equal(first.clientSecret, firstSecret);
      assert.notEqual(first.clientId, second.clientId);
      assert.notEqual(first.accountId, second.accountId);
      return pluginStack(svc, "plugin-providers", {
        service: null, // no stack config `embedded:*`: every resource must use its explicit provider
        config: {
          providers: [
            {
              key: "first",
              baseUrl: svc.baseUrl,
              clientId: first.clientId,
              clientSecretRef: "firstSecret",
              accountId: first.accountId,
            },
            {
              key: "second",
              baseUrl: svc.baseUrl,
              clientId: second.clientId,
              clientSecretRef: "secondSecret",
              accountId: second.accountId,
            },
          ],
          connectors: [
            { key: "segmentFirst", connectorId: SEGMENT, provider: "first" },
            { key: "s3First", connectorId: S3, provider: "first" },
            // The same catalogue connector in the other customer's sub-account.
            { key: "segmentSecond", connectorId: SEGMENT, provider: "second" },
            {
              key: "facebookSecond",
              find: { name: "Facebook Custom Audiences", supportedType: "Destination" },
              provider: "second",
            },
          ],
          configurations: [
            {
              key: "segmentFirstConfig",
              connectorId: SEGMENT,
              after: "segmentFirst",
              provider: "first",
              secretConfig: apiKeyFields({ workspace: "first-workspace" }),
              secretRefs: { apiKey: "firstKey" },
            },
            {
              key: "segmentSecondConfig",
              connectorId: SEGMENT,
              after: "segmentSecond",
              provider: "second",
              secretConfig: apiKeyFields({ workspace: "second-workspace", dataCenter: "US" }),
              secretRefs: { apiKey: "secondKey" },
            },
          ],
        },
        // The second customer's clientSecret (and the first's) as secret config values.
        secretConfig: {
          secretValues: { firstSecret, secondSecret: second.clientSecret, firstKey, secondKey },
        },
      });
    },
  });

  it("up puts each connector and configuration in its own customer's sub-account", async () => {
    const result = await e2e.stack.up();
    assert.equal(result.summary.result, "succeeded");
    // 2 providers, 4 connectors, 2 configurations and the stack.
    assert.equal(result.summary.resourceChanges?.create, 9, JSON.stringify(result.summary.resourceChanges));

    // Each customer sees only its own, through its own credentials.
    assert.deepEqual(await first.outOfBand.addedIds(first.accountId), [SEGMENT, S3].sort());
    assert.deepEqual(await second.outOfBand.addedIds(second.accountId), [SEGMENT, FACEBOOK].sort());
    for (const c of [first, second]) {
      for (const other of e2e.svc.service.customers[c === first ? 0 : 1].subAccountIds.slice(1)) {
        assert.deepEqual(await c.outOfBand.addedIds(other), [], `${c.clientId}'s sub-account ${other} is untouched`);
      }
    }
    const firstValues = await liveValues(first.outOfBand, first.accountId, SEGMENT);
    const secondValues = await liveValues(second.outOfBand, second.accountId, SEGMENT);
    assert.equal(firstValues.workspace, "first-workspace");
    assert.equal(firstValues.dataCenter, "EU");
    assert.equal(secondValues.workspace, "second-workspace");
    assert.equal(secondValues.dataCenter, "US");
    const secondLive = new Map((await second.outOfBand.listAdded(second.accountId)).map((c) => [c.connectorId, c]));
    assert.equal(secondLive.get(SEGMENT)?.configured, true);
    assert.equal(secondLive.get(FACEBOOK)?.configured, false);

    // The lookup ran through the second customer's provider.
    const outputs = await e2e.stack.outputValues();
    assert.deepEqual(outputs.foundConnectorIds, { facebookSecond: FACEBOOK });
  });

  it("the state ties each resource to its provider, with ids in its customer's sub-account", async () => {
    const deployment = (await e2e.stack.stack.exportStack()).deployment as { resources: DeployedResource[] };
    const byName = new Map(deployment.resources.map((r) => [resourceName(r), r]));
    const providerRef = (name: string): string => {
      const provider = byName.get(name);
      assert.equal(provider?.type, PROVIDER_TYPE, `${name} is a provider of the plugin`);
      return `${provider?.urn}::${provider?.id}`;
    };
    const expected: [string, string, string, string][] = [
      ["segmentFirst", ADDED_CONNECTOR_TYPE, "first", `${first.accountId}/${SEGMENT}`],
      ["s3First", ADDED_CONNECTOR_TYPE, "first", `${first.accountId}/${S3}`],
      ["segmentSecond", ADDED_CONNECTOR_TYPE, "second", `${second.accountId}/${SEGMENT}`],
      ["facebookSecond", ADDED_CONNECTOR_TYPE, "second", `${second.accountId}/${FACEBOOK}`],
      ["segmentFirstConfig", CONFIGURATION_TYPE, "first", `${first.accountId}/${SEGMENT}`],
      ["segmentSecondConfig", CONFIGURATION_TYPE, "second", `${second.accountId}/${SEGMENT}`],
    ];
    for (const [name, type, provider, id] of expected) {
      const resource = byName.get(name);
      assert.equal(resource?.type, type, `${name} type`);
      assert.equal(resource?.id, id, `${name} id`);
      assert.equal(resource?.provider, providerRef(provider), `${name} uses provider ${provider}`);
    }
    // No default provider: nothing used the stack config (there is none).
    assert.ok(
      !deployment.resources.some((r) => r.type === PROVIDER_TYPE && resourceName(r).startsWith("default")),
      "no default provider of the plugin",
    );
  });

  it("a second preview reports no changes, with or without refresh", async () => {
    const preview = await e2e.stack.preview({ expectNoChanges: true });
    assert.equal(preview.changeSummary.same, 9, JSON.stringify(preview.changeSummary));
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("neither client secret is in plain text in the state, the backend's files or the engine's output", async () => {
    const exported = await e2e.stack.exportText();
    const backend = await e2e.stack.backendText();
    // The providers' clientSecret inputs are there, as ciphertext.
    const deployment = JSON.parse(exported) as { deployment: { resources: DeployedResource[] } };
    const providers = deployment.deployment.resources.filter((r) => r.type === PROVIDER_TYPE);
    assert.deepEqual(providers.map((r) => resourceName(r)).sort(), ["first", "second"]);
    for (const provider of providers) {
      assert.match(
        JSON.stringify(provider.inputs?.clientSecret),
        /ciphertext/,
        `${provider.urn}: clientSecret is a secret`,
      );
    }
    const printed = e2e.stack.engineOutput();
    assert.match(printed, /segmentSecondConfig/, "the engine output was captured");
    for (const [label, value] of [
      ["customer 1's client secret", firstSecret],
      ["customer 2's client secret", second.clientSecret],
      ["customer 1's apiKey", firstKey],
      ["customer 2's apiKey", secondKey],
    ]) {
      assertNoSecret(exported, value, `pulumi stack export (${label})`);
      assertNoSecret(backend, value, `the backend's files (${label})`);
      assertNoSecret(printed, value, `the engine's output (${label})`);
    }
  });

  it("destroy empties both customers' sub-accounts", async () => {
    const result = await e2e.stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await first.outOfBand.addedIds(first.accountId), []);
    assert.deepEqual(await second.outOfBand.addedIds(second.accountId), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });
});
