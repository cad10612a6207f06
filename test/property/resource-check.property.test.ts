// Property-based tests of both resources' check (issue 7, "Bad input"): for any input,
// check never throws, an invalid property always gives a failure naming it, and no
// mutating call reaches the service. For ConnectorConfiguration the oracle is the
// service itself: whatever check accepts, Configure accepts.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { CheckResult } from "@pulumi/pulumi/dynamic";
import * as added from "../../provider/resources/added-connector-impl";
import * as configuration from "../../provider/resources/connector-configuration-impl";
import { CATALOGUE } from "../../service/seed/catalogue";
import { CONNECTORS, SEGMENT_CONFIG, mutatingCalls, startFixture, useConfig, type ProviderFixture } from "../provider/fixtures";
import { anyValue, invalidId, isValidId, validId } from "./arbitraries";

const RUNS = { numRuns: 60, seed: 7 };
const segmentFields = CATALOGUE.find((c) => c.connectorId === CONNECTORS.segment)?.secretConfiguration.fields ?? [];

function properties(result: CheckResult): string[] {
  return (result.failures ?? []).map((f) => f.property);
}

describe("property: AddedConnector check", () => {
  let fx: ProviderFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(() => fx.service.stop());

  it("never throws, names every invalid property, and sends no mutating call", async () => {
    const before = mutatingCalls(await fx.service.stats());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(validId, invalidId),
        fc.oneof(fc.constant(undefined), fc.constantFrom("acc-1", fx.accountId), anyValue),
        fc.oneof(fc.constant(undefined), fc.boolean(), anyValue),
        fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 3 }),
        async (connectorId, accountId, adoptExisting, extra) => {
          const news = { ...extra, connectorId, accountId, adoptExisting };
          const result = await added.check({}, news);
          const named = properties(result);
          assert.equal(named.includes("connectorId"), !isValidId(connectorId));
          const badAccount = accountId !== undefined && accountId !== null && (typeof accountId !== "string" || accountId.trim() === "");
          assert.equal(named.includes("accountId"), badAccount);
          const badAdopt = adoptExisting !== undefined && adoptExisting !== null && typeof adoptExisting !== "boolean";
          assert.equal(named.includes("adoptExisting"), badAdopt);
          for (const failure of result.failures ?? []) assert.ok(failure.reason.includes(failure.property), failure.reason);
          if (named.length === 0) {
            assert.equal(typeof result.inputs?.accountId, "string");
            assert.equal(typeof result.inputs?.adoptExisting, "boolean");
          }
        },
      ),
      RUNS,
    );
    assert.equal(mutatingCalls(await fx.service.stats()), before);
  });

  // Found by this suite: check once accepted account ids that the client then refused at
  // create ("acc one", control characters, 129+ characters); both checks use its rule now.
  it("an accountId the client refuses is a check failure naming accountId (both resources)", async () => {
    for (const accountId of ["acc one", "acc\u0000", "x".repeat(129)]) {
      assert.deepEqual(properties(await added.check({}, { connectorId: CONNECTORS.segment, accountId })), ["accountId"]);
      assert.deepEqual(properties(await configuration.check({}, { connectorId: CONNECTORS.segment, accountId, secretConfig: SEGMENT_CONFIG })), ["accountId"]);
    }
  });

  it("without embedded:accountId, a missing accountId is a failure naming accountId", async () => {
    useConfig(fx, { "embedded:accountId": undefined });
    try {
      const result = await added.check({}, { connectorId: CONNECTORS.segment });
      assert.deepEqual(properties(result), ["accountId"]);
    } finally {
      useConfig(fx);
    }
  });
});

describe("property: ConnectorConfiguration check", () => {
  let fx: ProviderFixture;
  before(async () => {
    fx = await startFixture();
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
  });
  after(() => fx.service.stop());

  it("never throws, and names every malformed top-level property without a mutating call", async () => {
    const before = mutatingCalls(await fx.service.stats());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(CONNECTORS.segment), invalidId),
        fc.oneof(fc.constant(undefined), fc.string({ maxLength: 4 }), anyValue),
        fc.oneof(fc.constant(undefined), fc.string({ maxLength: 4 }), anyValue),
        fc.oneof(fc.constant(SEGMENT_CONFIG), anyValue),
        async (connectorId, name, secretName, secretConfig) => {
          const result = await configuration.check({}, { connectorId, name, secretName, secretConfig });
          const named = properties(result);
          assert.equal(named.includes("connectorId"), !isValidId(connectorId));
          for (const [key, value] of [["name", name], ["secretName", secretName]] as const) {
            assert.equal(named.includes(key), value !== undefined && value !== null && typeof value !== "string");
          }
          const objectConfig = secretConfig !== null && typeof secretConfig === "object" && !Array.isArray(secretConfig);
          assert.equal(named.includes("secretConfig"), !objectConfig);
        },
      ),
      RUNS,
    );
    assert.equal(mutatingCalls(await fx.service.stats()), before);
  });

  it("whatever check accepts, Configure accepts; whatever it refuses never reaches Configure", async () => {
    const fieldIds = segmentFields.map((f) => f.id);
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom("US", "EU", "APAC", "page", "track", "2030-01-31", "1", "0", "10001", " ", "nope"),
      fc.integer({ min: -5, max: 20_000 }),
      fc.double({ noNaN: false }),
      fc.array(fc.constantFrom("page", "track", "identify", "purchase", "bad"), { maxLength: 3 }),
      anyValue,
    );
    const edits = fc.dictionary(fc.oneof(fc.constantFrom(...fieldIds), fc.string({ minLength: 1, maxLength: 6 })), value, { maxKeys: 3 });
    const drops = fc.subarray(["apiKey", "workspace", "dataCenter", "batchSize"]);
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(edits, drops, async (edit, drop) => {
        const secretConfig: Record<string, unknown> = { ...SEGMENT_CONFIG, ...edit };
        for (const key of drop) delete secretConfig[key];
        const before = mutatingCalls(await fx.service.stats());
        const result = await configuration.check({}, { connectorId: CONNECTORS.segment, secretConfig });
        const failures = result.failures ?? [];
        for (const failure of failures) {
          assert.match(failure.property, /^secretConfig\./);
          assert.ok(failure.property.slice("secretConfig.".length) in secretConfig || drop.includes(failure.property.slice(13)), failure.property);
        }
        if (failures.length > 0) {
          refused++;
          assert.equal(mutatingCalls(await fx.service.stats()), before);
          return;
        }
        accepted++;
        const inputs = result.inputs as { configurationId: string; secretConfig: Record<string, string | number | string[]> };
        await fx.client.configure(fx.accountId, CONNECTORS.segment, { configurationId: inputs.configurationId, secretConfig: inputs.secretConfig });
      }),
      RUNS,
    );
    assert.ok(accepted > 0 && refused > 0, `both sides exercised (accepted ${accepted}, refused ${refused})`);
  });
});
