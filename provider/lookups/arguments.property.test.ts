// Property-based tests of every lookup function's argument validation:
// a malformed id, sub-account or filter is refused with an error naming the argument, before
// any request reaches the service (not even a token).
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  findConnector,
  getConnector,
  getConnectorConfiguration,
  listAddedConnectors,
  listConnectors,
  listSupportedConnectors,
} from "..";
import type { Stats } from "../../harness/local-service";
import { CONNECTORS, useLookupFixture } from "../../test/support/provider-fixtures";
import { anyValue, invalidId } from "../../test/support/arbitraries";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const RUNS = propertyRuns(40);

function requests(stats: Stats): number {
  return Object.values(stats.byRoute).reduce(
    (sum, byStatus) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0),
    0,
  );
}

/** Sub-accounts the client refuses: not a string, blank, with spaces or control characters, too long. */
const invalidAccount: fc.Arbitrary<unknown> = fc.oneof(
  // "" is not here: an empty accountId means "not given", so the default sub-account applies.
  fc.constantFrom(" ", "acc one", "acc\tone", "acc\u0000", "x".repeat(129)),
  fc.string({ maxLength: 10 }).map((s) => `${s} ${s}`),
  anyValue.filter((v) => typeof v !== "string" && v !== null),
);

type Call = (id: unknown, account: unknown) => Promise<unknown>;
// The lookups take typed arguments; a program in JavaScript or with `any` can pass anything.
const byId: [string, Call][] = [
  ["getConnector", (id, accountId) => getConnector({ connectorId: id, accountId } as never)],
  ["listSupportedConnectors", (id, accountId) => listSupportedConnectors({ connectorId: id, accountId } as never)],
  ["getConnectorConfiguration", (id, accountId) => getConnectorConfiguration({ connectorId: id, accountId } as never)],
];
const byAccount: [string, (account: unknown) => Promise<unknown>][] = [
  ["listConnectors", (accountId) => listConnectors({ accountId } as never)],
  ["listAddedConnectors", (accountId) => listAddedConnectors({ accountId } as never)],
  ["findConnector", (accountId) => findConnector({ name: "Segment", supportedType: "Source", accountId } as never)],
];

async function refusal(promise: Promise<unknown>): Promise<Error & { argument?: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, "rejects with an Error");
    return error;
  }
  throw new Error("expected a refusal");
}

describe("property: lookup functions refuse malformed arguments before any request", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  const fx = useLookupFixture();

  for (const [name, call] of byId) {
    it(`${name}: a malformed connectorId is refused naming connectorId, with no request`, async () => {
      const before = requests(await fx.service.stats());
      await fc.assert(
        fc.asyncProperty(invalidId, async (id) => {
          const error = await refusal(call(id, fx.accountId));
          assert.equal(error.argument, "connectorId", error.message);
          assert.match(error.message, /connectorId/);
        }),
        RUNS,
      );
      assert.equal(requests(await fx.service.stats()), before);
    });
  }

  for (const [name, call] of [
    ...byAccount,
    ...byId.map(([n, c]): [string, (a: unknown) => Promise<unknown>] => [n, (a) => c(CONNECTORS.segment, a)]),
  ]) {
    it(`${name}: a malformed accountId is refused naming accountId, with no request`, async () => {
      const before = requests(await fx.service.stats());
      await fc.assert(
        fc.asyncProperty(invalidAccount, async (accountId) => {
          const error = await refusal(call(accountId));
          assert.match(error.message, /accountId/);
        }),
        RUNS,
      );
      assert.equal(requests(await fx.service.stats()), before);
    });
  }

  it("listConnectors, listAddedConnectors and findConnector: a malformed filter is refused naming it, with no request", async () => {
    const before = requests(await fx.service.stats());
    // supportedType is a closed set; the other enumerations may grow on the service, so only
    // their type is checked on the client (a wrong string is the service's 400 to give).
    const badSide = fc.tuple(
      fc.constant("supportedType"),
      fc.oneof(
        fc.constantFrom("source", "Sideways", "", "Source "),
        anyValue.filter((v) => v !== null),
      ),
    );
    const badOther = fc.tuple(
      fc.constantFrom("dataType", "dataTypeCategory", "platformType", "name"),
      fc.oneof(
        fc.constantFrom("", "  "),
        anyValue.filter((v) => v !== null && typeof v !== "string"),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(badSide, badOther), async ([key, value]) => {
        const calls: (() => Promise<unknown>)[] = [
          () => listConnectors({ [key]: value } as never),
          () => listAddedConnectors({ [key]: value } as never),
        ];
        // findConnector's only filter is supportedType.
        if (key === "supportedType")
          calls.push(() => findConnector({ name: "Segment", supportedType: value } as never));
        for (const call of calls) {
          const error = await refusal(call());
          assert.equal(error.argument, key, error.message);
          // Led by the lookup and the arguments' names (lookup-name.ts).
          assert.match(
            error.message,
            new RegExp(
              `^(listConnectors|listAddedConnectors|findConnector)\\([^)]*\\b${key}\\b[^)]*\\): ${key} must be`,
            ),
          );
        }
      }),
      RUNS,
    );
    assert.equal(requests(await fx.service.stats()), before);
  });
});
