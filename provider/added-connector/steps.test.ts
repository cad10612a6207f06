// AddedConnector's provider methods called directly against the local service.
import assert from "node:assert/strict";
import { addedConnectorProvider } from "../hosts/dynamic/added-connector";
import * as impl from "./steps";
import { UNKNOWN } from "../schema/checks";
import {
  callsTo,
  CONNECTORS,
  mutatingCalls,
  rejection,
  useConfig,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { routeKey } from "../../contract/routes";

const PROVIDER = "serialized-provider-text";
const ADD = routeKey("addConnectors");

describe("AddedConnector provider", () => {
  const fx = useProviderFixture();

  describe("check", () => {
    it("reports one failure per bad property and calls nothing", async () => {
      const before = await fx.service.stats();
      const result = await impl.check(
        {},
        { connectorId: "short", accountId: "  ", adoptExisting: "yes", __provider: PROVIDER },
      );
      assert.deepEqual(result.failures?.map((f) => f.property).sort(), ["accountId", "adoptExisting", "connectorId"]);
      assert.match(result.failures?.find((f) => f.property === "connectorId")?.reason ?? "", /16-character/);
      assert.deepEqual(await fx.service.stats(), before);
    });

    it("fills the default sub-account and adoptExisting: false", async () => {
      const result = await impl.check({}, { connectorId: CONNECTORS.segment, __provider: PROVIDER });
      assert.deepEqual(result.failures, []);
      assert.equal(result.inputs?.accountId, fx.accountId);
      assert.equal(result.inputs?.adoptExisting, false);
    });

    it("names the config key and the environment variable when no sub-account is known", async () => {
      useConfig(fx, { "embedded:accountId": undefined });
      const result = await impl.check({}, { connectorId: CONNECTORS.segment });
      const reason = result.failures?.find((f) => f.property === "accountId")?.reason ?? "";
      assert.match(reason, /embedded:accountId/);
      assert.match(reason, /EMBEDDED_ACCOUNT_ID/);
    });

    it("accepts unknown values during preview", async () => {
      const result = await impl.check({}, { connectorId: UNKNOWN, accountId: UNKNOWN, adoptExisting: UNKNOWN });
      assert.deepEqual(result.failures, []);
    });
  });

  describe("the provider object", () => {
    it("takes its settings from configure() and loads the implementation by package path", async () => {
      useConfig(fx, { "embedded:accountId": undefined });
      const config = { ...fx.config, "embedded:accountId": fx.otherAccountId };
      const get = (key: string) => config[key as keyof typeof config];
      await addedConnectorProvider().configure?.({ config: { get, require: (key) => get(key) ?? "" } });
      const result = await addedConnectorProvider().check?.({}, { connectorId: CONNECTORS.segment });
      assert.equal(result?.inputs?.accountId, fx.otherAccountId);
    });
  });

  describe("diff", () => {
    const olds = () => ({
      connectorId: CONNECTORS.segment,
      accountId: fx.accountId,
      adoptExisting: false,
      __provider: "old",
    });

    it("replaces on a new connectorId or accountId, unknown ones included", async () => {
      assert.deepEqual((await impl.diff("x", olds(), { ...olds(), connectorId: CONNECTORS.amplitude })).replaces, [
        "connectorId",
      ]);
      assert.deepEqual((await impl.diff("x", olds(), { ...olds(), accountId: fx.otherAccountId })).replaces, [
        "accountId",
      ]);
      assert.deepEqual((await impl.diff("x", olds(), { ...olds(), connectorId: UNKNOWN })).replaces, ["connectorId"]);
    });

    it("updates in place on adoptExisting alone, and ignores __provider", async () => {
      const adopt = await impl.diff("x", olds(), { ...olds(), adoptExisting: true });
      assert.deepEqual([adopt.changes, adopt.replaces], [true, []]);
      const same = await impl.diff("x", olds(), { ...olds(), __provider: "a newer serialization" });
      assert.deepEqual([same.changes, same.replaces], [false, []]);
    });

    it("compares a defaulted accountId with the default sub-account", async () => {
      const { accountId: _omitted, ...news } = olds();
      assert.equal((await impl.diff("x", olds(), news)).changes, false);
    });
  });

  describe("create", () => {
    it("adds the connector with every field of the added view", async () => {
      const { id, outs } = await impl.create({
        connectorId: CONNECTORS.segment,
        accountId: fx.accountId,
        adoptExisting: false,
      });
      assert.equal(id, `${fx.accountId}/${CONNECTORS.segment}`);
      for (const field of impl.VIEW_FIELDS) assert.ok(field in outs, `missing output ${field}`);
      assert.equal(outs.name, "Segment");
      assert.deepEqual([outs.srcConnections, outs.destConnections], [0, 0]);
    });

    it("refuses a connector added outside the resource, and says how to adopt it", async () => {
      await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
      const error = await rejection(impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId }));
      assert.match(error.message, new RegExp(`already added to sub-account ${fx.accountId}`));
      assert.match(error.message, /adoptExisting: true/);
      assert.match(error.message, /"Segment"/);
    });

    it("adopts it with adoptExisting: true, without sending an Add", async () => {
      await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
      const addsBefore = callsTo(await fx.service.stats(), ADD);
      const { id, outs } = await impl.create({
        connectorId: CONNECTORS.segment,
        accountId: fx.accountId,
        adoptExisting: true,
      });
      assert.equal(id, `${fx.accountId}/${CONNECTORS.segment}`);
      assert.equal(outs.adoptExisting, true);
      assert.equal(outs.name, "Segment");
      assert.equal(callsTo(await fx.service.stats(), ADD), addsBefore, "Add calls while adopting");
    });

    it("adds a connector that adoptExisting: true finds missing", async () => {
      const { outs } = await impl.create({
        connectorId: CONNECTORS.segment,
        accountId: fx.accountId,
        adoptExisting: true,
      });
      assert.equal(outs.connectorId, CONNECTORS.segment);
      const added = await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
      assert.deepEqual(added.alreadyAdded, [CONNECTORS.segment], "the connector is now added");
    });

    it("succeeds when its own first attempt added it but the answer was lost", async () => {
      await fx.service.setFaults({ rules: [{ route: ADD, mode: "commitThenDrop", count: 1 }] });
      try {
        const { outs } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
        assert.equal(outs.connectorId, CONNECTORS.segment);
        assert.equal(callsTo(await fx.service.stats(), ADD) >= 2, true);
      } finally {
        await fx.service.setFaults({ rules: [] });
      }
    });
  });

  describe("read and update", () => {
    it("returns the live fields and the inputs", async () => {
      const { id } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
      await fx.client.addConnectors(fx.accountId, [CONNECTORS.tiktokEvents]);
      await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
      const result = await impl.read(id, {
        connectorId: CONNECTORS.segment,
        accountId: fx.accountId,
        adoptExisting: false,
      });
      assert.equal(result.id, id);
      assert.equal(result.props?.srcConnections, 1);
      assert.deepEqual(result.inputs, {
        connectorId: CONNECTORS.segment,
        accountId: fx.accountId,
        adoptExisting: false,
      });
    });

    it("returns no id once the connector was removed out of band, so refresh drops it", async () => {
      const { id, outs } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
      await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
      assert.equal((await impl.read(id, outs)).id, "");
    });

    it("update changes adoptExisting only", async () => {
      const { id, outs } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
      const before = mutatingCalls(await fx.service.stats());
      const updated = await impl.update(id, outs, { ...outs, adoptExisting: true });
      assert.equal(updated.outs?.adoptExisting, true);
      assert.equal(mutatingCalls(await fx.service.stats()), before);
    });
  });
});
