// Property-based tests of both resources' check: for any input,
// check never throws, an invalid property always gives a failure naming it, and no
// mutating call reaches the service. For ConnectorConfiguration the oracle is the
// service itself: whatever check accepts, Configure accepts, and what it refuses the service
// refuses too, field by field. Seeds are random: a failure prints the seed; PROPERTY_SEED=<seed> replays it.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { CheckResult } from "@pulumi/pulumi/dynamic";
import * as added from "../added-connector/steps";
import * as configuration from "../connector-configuration/steps";
import { validateConfigure } from "../../service/domain/configuration";
import { requests } from "../../contract/requests";
import { CATALOGUE, type CatalogueConnector } from "../../service/seed/catalogue";
import {
  CONNECTORS,
  SEGMENT_CONFIG,
  mutatingCalls,
  startFixture,
  useConfig,
  type ProviderFixture,
} from "../../test/support/provider-fixtures";
import { anyValue, invalidId, isValidId, secretConfigFor, validId } from "../../test/support/arbitraries";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const RUNS = propertyRuns(200);

/** One connector of each kind of secret configuration (API key, storage, OAuth): every field type. */
const KINDS: CatalogueConnector[] = ["Segment", "Amazon S3", "Facebook Custom Audiences"].map((name) => {
  const found = CATALOGUE.find((c) => c.name === name);
  if (!found) throw new Error(`no seeded connector ${name}`);
  return found;
});

/** The fields the service refuses this configuration for, or "body" when the body itself is malformed. */
function serviceRefusal(connector: CatalogueConnector, secretConfig: Record<string, unknown>): string[] | "body" {
  const body = requests.ConfigureBody.safeParse({
    configurationId: connector.secretConfiguration.configurationId,
    secretConfig,
  });
  if (!body.success) return "body";
  const verdict = validateConfigure(connector, body.data);
  return "errors" in verdict ? verdict.errors.map((e) => e.field).sort() : [];
}

/** The client's accountId rule, written out: a string, not blank, no whitespace or control characters, ≤ 128. */
function badAccountId(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== "string" || value.trim() === "" || /[\s\p{Cc}]/u.test(value) || value.length > 128;
}

/**
 * The top-level inputs the failures name: by property, or, for an input the engine would print
 * the secret value of (secretConfig), with no property and the name leading the reason.
 */
function properties(result: CheckResult): string[] {
  return (result.failures ?? []).map((f) => f.property || (/^[A-Za-z]+/.exec(f.reason)?.[0] ?? ""));
}

describe("property: AddedConnector check", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
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
          assert.equal(named.includes("accountId"), badAccountId(accountId));
          const badAdopt = adoptExisting !== undefined && adoptExisting !== null && typeof adoptExisting !== "boolean";
          assert.equal(named.includes("adoptExisting"), badAdopt);
          for (const failure of result.failures ?? [])
            assert.ok(failure.reason.includes(failure.property), failure.reason);
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
      assert.deepEqual(properties(await added.check({}, { connectorId: CONNECTORS.segment, accountId })), [
        "accountId",
      ]);
      assert.deepEqual(
        properties(
          await configuration.check({}, { connectorId: CONNECTORS.segment, accountId, secretConfig: SEGMENT_CONFIG }),
        ),
        ["accountId"],
      );
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
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  let fx: ProviderFixture;
  before(async () => {
    fx = await startFixture();
    await fx.client.addConnectors(
      fx.accountId,
      KINDS.map((c) => c.connectorId),
    );
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
          for (const [key, value] of [
            ["name", name],
            ["secretName", secretName],
          ] as const) {
            assert.equal(named.includes(key), value !== undefined && value !== null && typeof value !== "string");
          }
          const objectConfig =
            secretConfig !== null && typeof secretConfig === "object" && !Array.isArray(secretConfig);
          assert.equal(named.includes("secretConfig"), !objectConfig);
        },
      ),
      RUNS,
    );
    assert.equal(mutatingCalls(await fx.service.stats()), before);
  });

  it("whatever check accepts, Configure accepts; whatever it refuses, the service refuses for the same fields", async () => {
    let accepted = 0;
    let refused = 0;
    // By name, so that a counterexample prints short.
    const cases = fc
      .constantFrom(...KINDS)
      .chain((c) => fc.tuple(fc.constant(c.name), secretConfigFor(c.secretConfiguration.fields)));
    await fc.assert(
      fc.asyncProperty(cases, async ([name, secretConfig]) => {
        const connector = KINDS.find((c) => c.name === name) as CatalogueConnector;
        const before = mutatingCalls(await fx.service.stats());
        const result = await configuration.check({}, { connectorId: connector.connectorId, secretConfig });
        const failures = result.failures ?? [];
        const service = serviceRefusal(connector, secretConfig);
        if (failures.length > 0) {
          refused++;
          assert.equal(mutatingCalls(await fx.service.stats()), before, "a refused configuration is never sent");
          const named = [...new Set(failures.map((f) => f.property))].sort();
          if (service === "body") assert.ok(named.length > 0);
          else assert.deepEqual(named, service, "check and the service refuse the same fields");
          return;
        }
        accepted++;
        assert.deepEqual(service, [], "the service's rules accept what check accepts");
        const inputs = result.inputs as {
          configurationId: string;
          secretConfig: Record<string, string | number | string[]>;
        };
        await fx.client.configure(fx.accountId, connector.connectorId, {
          configurationId: inputs.configurationId,
          secretConfig: inputs.secretConfig,
        });
      }),
      RUNS,
    );
    assert.ok(accepted > 0 && refused > 0, `both sides exercised (accepted ${accepted}, refused ${refused})`);
  });
});
