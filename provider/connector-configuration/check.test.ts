// ConnectorConfiguration.check: validation against the live field descriptors with the
// service's rules, one failure per field naming no value, the service's forms returned, no
// mutating call, descriptors fetched once per connector.
import assert from "node:assert/strict";
import { ServerError, type EmbeddedClient } from "../client";
import * as impl from "./steps";
import { UNKNOWN } from "../schema/checks";
import {
  callsTo,
  CONNECTORS,
  mutatingCalls,
  SEGMENT_CONFIG,
  useConfig,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { routeKey, routeLabel } from "../../contract/routes";

const GET_CONFIGURATION = routeKey("getConfiguration");

describe("ConnectorConfiguration provider: check", () => {
  const fx = useProviderFixture();

  const news = (secretConfig: unknown, extra: Record<string, unknown> = {}) => ({
    connectorId: CONNECTORS.segment,
    secretConfig,
    __provider: "p",
    ...extra,
  });

  it("accepts a valid configuration of a connector that is not added yet, and fills the defaults", async () => {
    const result = await impl.check({}, news(SEGMENT_CONFIG));
    assert.deepEqual(result.failures, []);
    assert.equal(result.inputs?.accountId, fx.accountId);
    assert.match(String(result.inputs?.configurationId), /^[a-f0-9]{16}$/);
  });

  it("reports one failure per bad field, with the property path, and changes nothing", async () => {
    const before = await fx.service.stats();
    const bad = {
      workspace: "acme",
      apiKey: "k",
      dataCenter: "MARS", // not among the options
      eventTypes: ["page", "teleport"], // one value not among the options
      batchSize: 0, // below min 1
      apiBaseUrl: "https://evil.example.com", // read-only
      colour: "blue", // unknown field
    };
    const result = await impl.check({}, news(bad));
    const byProperty = new Map(result.failures?.map((f) => [f.property, f.reason]));
    assert.deepEqual([...byProperty.keys()].sort(), [
      "secretConfig.apiBaseUrl",
      "secretConfig.batchSize",
      "secretConfig.colour",
      "secretConfig.dataCenter",
      "secretConfig.eventTypes",
    ]);
    assert.match(byProperty.get("secretConfig.batchSize") ?? "", /at least 1/);
    assert.match(byProperty.get("secretConfig.apiBaseUrl") ?? "", /read-only/);
    assert.match(byProperty.get("secretConfig.colour") ?? "", /no field "colour"/);
    assert.match(byProperty.get("secretConfig.dataCenter") ?? "", /one of US, EU, APAC/);
    assert.match(byProperty.get("secretConfig.eventTypes") ?? "", /1 of 2 are not/);
    assert.ok(!JSON.stringify(result.failures).includes("MARS"), "values are never quoted");
    assert.equal(mutatingCalls(await fx.service.stats()), mutatingCalls(before));
  });

  it("reports missing required fields, non-numbers and non-strings", async () => {
    const result = await impl.check({}, news({ workspace: 42, batchSize: "lots" }));
    const properties = result.failures?.map((f) => f.property).sort();
    assert.deepEqual(properties, [
      "secretConfig.apiKey",
      "secretConfig.batchSize",
      "secretConfig.dataCenter",
      "secretConfig.workspace",
    ]);
    assert.match(
      result.failures?.find((f) => f.property === "secretConfig.workspace")?.reason ?? "",
      /must be a string/,
    );
    assert.match(
      result.failures?.find((f) => f.property === "secretConfig.batchSize")?.reason ?? "",
      /must be a finite number/,
    );
    assert.match(result.failures?.find((f) => f.property === "secretConfig.apiKey")?.reason ?? "", /required/);
  });

  it("names the field and the rule, never the value (numbers included)", async () => {
    const result = await impl.check(
      {},
      news({ ...SEGMENT_CONFIG, workspace: 424242, batchSize: 987654, backfillFrom: "canary-date-31337" }),
    );
    const reasons = new Map(result.failures?.map((f) => [f.property, f.reason]));
    assert.match(reasons.get("secretConfig.workspace") ?? "", /must be a string, got a number/);
    assert.match(reasons.get("secretConfig.batchSize") ?? "", /must be at most 10000$/);
    assert.match(reasons.get("secretConfig.backfillFrom") ?? "", /must be a date/);
    const below = await impl.check({}, news({ ...SEGMENT_CONFIG, batchSize: -31337 }));
    assert.match(below.failures?.[0]?.reason ?? "", /must be at least 1$/);
    const secretName = await impl.check({}, news(SEGMENT_CONFIG, { secretName: 8675309 }));
    assert.deepEqual(
      secretName.failures?.map((f) => f.reason),
      ["secretName must be a string, got a number"],
    );
    const text = JSON.stringify([result.failures, below.failures, secretName.failures]);
    for (const value of ["424242", "987654", "31337", "8675309"])
      assert.ok(!text.includes(value), `a check message quotes ${value}: ${text}`);
  });

  it("checks Date values with the service's rule", async () => {
    for (const backfillFrom of [
      "nope",
      " ",
      "2030-13-01",
      "2030-01-31T25:00",
      "2030-1-31",
      "31/01/2030",
      "2030-01-31 10:00",
    ]) {
      const result = await impl.check({}, news({ ...SEGMENT_CONFIG, backfillFrom }));
      assert.deepEqual(
        result.failures?.map((f) => f.property),
        ["secretConfig.backfillFrom"],
        backfillFrom,
      );
    }
    for (const backfillFrom of [
      "2030-01-31",
      "2030-01-31T10:20",
      "2030-01-31T10:20:30.5Z",
      "2030-01-31T10:20:30+02:00",
    ]) {
      assert.deepEqual((await impl.check({}, news({ ...SEGMENT_CONFIG, backfillFrom }))).failures, [], backfillFrom);
    }
  });

  it('refuses a required field given as "" or [] as missing, and lets an optional one be empty', async () => {
    const result = await impl.check({}, news({ ...SEGMENT_CONFIG, workspace: "", dataCenter: [], batchSize: "" }));
    const reasons = new Map(result.failures?.map((f) => [f.property, f.reason]));
    assert.deepEqual([...reasons.keys()].sort(), [
      "secretConfig.batchSize",
      "secretConfig.dataCenter",
      "secretConfig.workspace",
    ]);
    for (const reason of reasons.values())
      assert.match(reason, /is required by connector .*an empty value counts as missing/);
    const optional = await impl.check({}, news({ ...SEGMENT_CONFIG, eventTypes: [], backfillFrom: "" }));
    assert.deepEqual(optional.failures, []);
  });

  it("returns the forms the service stores: a Number string as a number, a comma-separated Multi-Select as a list", async () => {
    const result = await impl.check({}, news({ ...SEGMENT_CONFIG, batchSize: " 100.0", eventTypes: "page, track" }));
    assert.deepEqual(result.failures, []);
    const secretConfig = result.inputs?.secretConfig as Record<string, unknown>;
    assert.equal(secretConfig.batchSize, 100);
    assert.deepEqual(secretConfig.eventTypes, ["page", "track"]);
    assert.equal(secretConfig.workspace, SEGMENT_CONFIG.workspace);
    // The next preview of the same program: no descriptor fetch, the same normalised form.
    useConfig(fx);
    const before = callsTo(await fx.service.stats(), GET_CONFIGURATION);
    const again = await impl.check(
      result.inputs ?? {},
      news({ ...SEGMENT_CONFIG, batchSize: " 100.0", eventTypes: "page, track" }),
    );
    assert.deepEqual(again.inputs?.secretConfig, secretConfig);
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION), before);
  });

  it("refuses a configurationId other than the first secret configuration's", async () => {
    const result = await impl.check({}, news(SEGMENT_CONFIG, { configurationId: "0000000000000000" }));
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["configurationId"],
    );
  });

  it("skips fields whose values are unknown during preview", async () => {
    const partly = await impl.check({}, news({ ...SEGMENT_CONFIG, apiKey: UNKNOWN, batchSize: UNKNOWN }));
    assert.deepEqual(partly.failures, []);
    const wholly = await impl.check({}, news(UNKNOWN));
    assert.deepEqual(wholly.failures, []);
    const noConnector = await impl.check({}, news(SEGMENT_CONFIG, { connectorId: UNKNOWN }));
    assert.deepEqual(noConnector.failures, []);
  });

  it("fetches the descriptors once per connector", async () => {
    const before = callsTo(await fx.service.stats(), GET_CONFIGURATION);
    await impl.check({}, news(SEGMENT_CONFIG));
    await impl.check({}, news({ ...SEGMENT_CONFIG, workspace: "other" }));
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION) - before, 1);
  });

  it("concurrent checks of one connector share one Get, and each keeps its own failures", async () => {
    const before = callsTo(await fx.service.stats(), GET_CONFIGURATION);
    const [good, bad, alsoGood] = await Promise.all([
      impl.check({}, news(SEGMENT_CONFIG)),
      impl.check({}, news({ ...SEGMENT_CONFIG, dataCenter: "MARS" })),
      impl.check({}, news({ ...SEGMENT_CONFIG, workspace: "other" })),
    ]);
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION) - before, 1);
    assert.deepEqual(good.failures, []);
    assert.deepEqual(
      bad.failures?.map((f) => f.property),
      ["secretConfig.dataCenter"],
    );
    assert.deepEqual(alsoGood.failures, []);
  });

  it("does not cache a failed fetch: every check waiting on it reports it, the next one fetches again", async () => {
    let failuresLeft = 1;
    const fetches: string[] = [];
    const flaky = Object.create(fx.client) as EmbeddedClient;
    flaky.getConfiguration = async (accountId, connectorId) => {
      fetches.push(connectorId);
      if (failuresLeft-- > 0) {
        throw new ServerError({
          route: routeLabel("getConfiguration"),
          status: 503,
          statusMessage: "unavailable",
          requestId: "req-flaky-1",
        });
      }
      return fx.client.getConfiguration(accountId, connectorId);
    };
    useConfig(fx, {}, flaky);
    const waiting = await Promise.all([
      impl.check({}, news(SEGMENT_CONFIG)),
      impl.check({}, news({ ...SEGMENT_CONFIG, workspace: "b" })),
    ]);
    for (const result of waiting) {
      assert.deepEqual(
        result.failures?.map((f) => f.property),
        ["connectorId"],
      );
      assert.match(
        result.failures?.[0].reason ?? "",
        /could not read the fields of connector .*request id req-flaky-1/s,
      );
    }
    const next = await impl.check({}, news(SEGMENT_CONFIG));
    assert.deepEqual(next.failures, []);
    assert.deepEqual(
      fetches,
      [CONNECTORS.segment, CONNECTORS.segment],
      "one failed fetch shared by two checks, then one that worked",
    );
  });

  it("skips the live validation of inputs unchanged since they were applied, and only those", async () => {
    const applied = (await impl.check({}, news(SEGMENT_CONFIG))).inputs ?? {};
    useConfig(fx); // a new engine process: nothing cached
    const before = callsTo(await fx.service.stats(), GET_CONFIGURATION);
    const same = await impl.check(applied, news(SEGMENT_CONFIG));
    assert.deepEqual(same.failures, []);
    assert.equal(same.inputs?.configurationId, applied.configurationId, "the defaulted configurationId is kept");
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION), before, "a no-change preview costs no call");
    // A changed value is checked against the live descriptors again.
    const changed = await impl.check(applied, news({ ...SEGMENT_CONFIG, dataCenter: "MARS" }));
    assert.deepEqual(
      changed.failures?.map((f) => f.property),
      ["secretConfig.dataCenter"],
    );
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION) - before, 1);
  });

  it("reports an unknown connector on connectorId, and a bad id without calling the service", async () => {
    const unknown = await impl.check({}, news(SEGMENT_CONFIG, { connectorId: "ffffffffffffffff" }));
    assert.deepEqual(
      unknown.failures?.map((f) => f.property),
      ["connectorId"],
    );
    assert.match(unknown.failures?.[0].reason ?? "", /request id/);
    const before = await fx.service.stats();
    const malformed = await impl.check({}, news([1, 2], { connectorId: "nope" }));
    // secretConfig is secret by definition: its failure names it in the reason, not as the property.
    assert.deepEqual(malformed.failures?.map((f) => f.property).sort(), ["", "connectorId"]);
    assert.match(malformed.failures?.find((f) => f.property === "")?.reason ?? "", /^secretConfig must be an object/);
    assert.deepEqual(await fx.service.stats(), before);
  });
});
