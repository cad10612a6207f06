// What the dynamic provider's checks say: an input the program made secret (named in
// the hidden input SECRET_INPUTS by resource-props.ts) is named by its kind, never quoted; and
// a number that is NaN or Infinity is called what it is, not "a number".
import assert from "node:assert/strict";
import * as addedConnector from "../added-connector/steps";
import * as connectorConfiguration from "../connector-configuration/steps";
import { SECRET_INPUTS, typeFailures } from "./checks";
import { typeName } from "./property";
import { CONNECTORS, SEGMENT_CONFIG, useProviderFixture } from "../../test/support/provider-fixtures";

const IMPLEMENTATIONS = [
  ["AddedConnector", addedConnector, {}],
  ["ConnectorConfiguration", connectorConfiguration, { secretConfig: SEGMENT_CONFIG }],
] as const;

describe("dynamic provider: check messages", () => {
  useProviderFixture();

  for (const [type, impl, extra] of IMPLEMENTATIONS) {
    it(`${type}: a connectorId or accountId the program made secret is refused (an id is plaintext), never quoted`, async () => {
      const badId = "not-an-id-canary-2c9e";
      const badAccount = "acct canary 4d1f with spaces and more than forty characters in all";
      const news = {
        ...extra,
        connectorId: badId,
        accountId: badAccount,
        __provider: "p",
        [SECRET_INPUTS]: ["connectorId", "accountId"],
      };
      const result = await impl.check({}, news);
      const text = JSON.stringify(result.failures);
      assert.deepEqual(
        result.failures?.map((f) => f.property),
        ["", ""],
      );
      for (const [what, value] of [
        ["connectorId", badId],
        ["accountId", badAccount],
        ["accountId's first 20 characters", badAccount.slice(0, 20)],
      ]) {
        assert.ok(!text.includes(value), `${what} is quoted in a failure`);
      }
      assert.match(text, /connectorId is a secret, but it is part of the resource's id/);
      assert.ok(!(SECRET_INPUTS in (result.inputs ?? {})), "the hidden input is not stored");
      // Given plainly, the value is quoted, so the user sees what was wrong.
      const plain = await impl.check({}, { ...extra, connectorId: "not-an-id", __provider: "p", [SECRET_INPUTS]: [] });
      assert.match(plain.failures?.find((f) => f.property === "connectorId")?.reason ?? "", /got "not-an-id"/);
    });
  }

  it("ConnectorConfiguration: a well-formed secret connectorId the catalogue lacks is not printed either", async () => {
    const missing = "0123456789abcdef";
    const news = {
      connectorId: missing,
      secretConfig: SEGMENT_CONFIG,
      __provider: "p",
      [SECRET_INPUTS]: ["connectorId", "secretConfig"],
    };
    const result = await connectorConfiguration.check({}, news);
    assert.equal(result.failures?.length, 1, JSON.stringify(result.failures?.map((f) => f.property)));
    assert.ok(!JSON.stringify(result.failures).includes(missing), "the secret connector id is in the failure");
  });

  it("ConnectorConfiguration: a well-formed secret accountId is refused before the service is asked, not printed", async () => {
    const otherAccount = "0fedcba987654321";
    const news = {
      connectorId: CONNECTORS.segment,
      accountId: otherAccount,
      secretConfig: SEGMENT_CONFIG,
      __provider: "p",
      [SECRET_INPUTS]: ["accountId", "secretConfig"],
    };
    const result = await connectorConfiguration.check({}, news);
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      [""],
    );
    assert.ok(!JSON.stringify(result.failures).includes(otherAccount), "the secret sub-account id is in the failure");
    assert.match(result.failures?.[0]?.reason ?? "", /^accountId is a secret, but .*docs\/secrets\.md$/);
  });

  it("NaN and Infinity: 'must be a finite number, got a non-finite number', not 'a number, got a number'", async () => {
    assert.equal(typeName("number"), "a finite number");
    const typed = typeFailures({ limit: { type: "number", description: "" } }, { limit: Number.POSITIVE_INFINITY }, [
      "limit",
    ]);
    assert.deepEqual(
      typed.map((f) => f.reason),
      ["limit must be a finite number, got a non-finite number"],
    );
    for (const value of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      const result = await connectorConfiguration.check(
        {},
        { connectorId: CONNECTORS.segment, secretConfig: { ...SEGMENT_CONFIG, batchSize: value }, __provider: "p" },
      );
      const reason = result.failures?.find((f) => f.property === "secretConfig.batchSize")?.reason ?? "";
      assert.match(reason, /must be a finite number, got a non-finite number$/, reason);
    }
  });
});
