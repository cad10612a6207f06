// The process's listing of added connectors: reads share one List Added Connectors per
// sub-account, writes invalidate it, and the delete guard never decides on a cached count
// (it lists nothing: Remove itself refuses while connections use the connector).
import assert from "node:assert/strict";
import { CATALOGUE } from "../../service/seed/catalogue";
import type { AddedConnectorView } from "../client";
import { AddedConnectorsCache, type ListingClient } from "./listing-cache";
import * as added from "../added-connector/steps";
import * as configuration from "../connector-configuration/steps";
import {
  callsTo,
  CONNECTORS,
  rejection,
  SEGMENT_CONFIG,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { routeKey } from "../../contract/routes";

const LIST_ADDED = routeKey("listAddedConnectors");
const GET_CONNECTOR = routeKey("getConnector");
const GET_CONFIGURATION = routeKey("getConfiguration");

const ids = (n: number) => CATALOGUE.slice(0, n).map((c) => c.connectorId);

describe("AddedConnector provider: one listing per sub-account", () => {
  const fx = useProviderFixture();
  let outs: Record<string, Record<string, unknown>>;
  beforeEach(async () => {
    outs = {};
    const created = await Promise.all(
      ids(30).map((connectorId) => added.create({ connectorId, accountId: fx.accountId })),
    );
    for (const result of created) outs[result.id] = result.outs;
  });

  const readAll = () => Promise.all(Object.entries(outs).map(([id, props]) => added.read(id, props)));

  it("serves 30 concurrent reads from one List call and no Get, each with its own view", async () => {
    const before = await fx.service.stats();
    const results = await readAll();
    const after = await fx.service.stats();
    assert.equal(callsTo(after, LIST_ADDED) - callsTo(before, LIST_ADDED), 1);
    assert.equal(callsTo(after, GET_CONNECTOR) - callsTo(before, GET_CONNECTOR), 0);
    results.forEach((result, i) => {
      assert.equal(result.id, Object.keys(outs)[i]);
      assert.equal(result.props?.name, CATALOGUE[i].name);
    });
    await readAll();
    assert.equal(callsTo(await fx.service.stats(), LIST_ADDED), callsTo(after, LIST_ADDED), "second round: cached");
  });

  it("a write through the provider invalidates the listing", async () => {
    await readAll();
    const [extra] = CATALOGUE.slice(30, 31).map((c) => c.connectorId);
    const before = callsTo(await fx.service.stats(), LIST_ADDED);
    const { id, outs: extraOuts } = await added.create({ connectorId: extra, accountId: fx.accountId });
    assert.equal((await added.read(id, extraOuts)).id, id, "the new connector is seen");
    assert.equal(callsTo(await fx.service.stats(), LIST_ADDED) - before, 1);
  });

  it("a configure invalidates it too (configured changes in the listing)", async () => {
    const id = `${fx.accountId}/${CONNECTORS.segment}`;
    await added.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
    assert.equal((await added.read(id, {})).props?.configured, false);
    await configuration.create({
      connectorId: CONNECTORS.segment,
      accountId: fx.accountId,
      secretConfig: SEGMENT_CONFIG,
    });
    assert.equal((await added.read(id, {})).props?.configured, true);
  });

  it("the delete guard never decides on the cached counts", async () => {
    const among = (side: string) =>
      CATALOGUE.find((c) => c.supportedType === side && outs[`${fx.accountId}/${c.connectorId}`]);
    const [sourceConnector, destination] = [among("Source"), among("Destination")];
    assert.ok(sourceConnector && destination, "a source and a destination among the 30");
    const source = sourceConnector.connectorId;
    const firstId = `${fx.accountId}/${source}`;
    assert.equal((await added.read(firstId, outs[firstId])).props?.srcConnections, 0);
    const connection = await fx.service.createConnection(fx.accountId, source, destination.connectorId);
    // The cached listing still says 0 (as a refresh in this process would) …
    assert.equal((await added.read(firstId, outs[firstId])).props?.srcConnections, 0);
    // … but the guard is the service's: refused, with the live counts.
    const error = await rejection(added.remove(firstId, outs[firstId]));
    assert.match(error.message, /srcConnections=1/);
    assert.equal(
      (await added.read(firstId, outs[firstId])).props?.srcConnections,
      1,
      "the refused Remove invalidated the listing",
    );
    await fx.service.deleteConnection(connection);
    await added.remove(firstId, outs[firstId]);
    assert.equal((await added.read(firstId, outs[firstId])).id, "", "the Remove invalidated the listing");
  });

  it("30 deletes sent together cost 30 Removes and no listing", async () => {
    const before = await fx.service.stats();
    await Promise.all(Object.entries(outs).map(([id, props]) => added.remove(id, props)));
    const after = await fx.service.stats();
    assert.equal(callsTo(after, LIST_ADDED) - callsTo(before, LIST_ADDED), 0);
    assert.equal(callsTo(after, routeKey("removeConnector")) - callsTo(before, routeKey("removeConnector")), 30);
    const left = await readAll();
    assert.ok(left.every((r) => r.id === ""));
  });

  it("a configuration whose connector is gone reads as gone without a Get", async () => {
    await added.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
    const created = await configuration.create({
      connectorId: CONNECTORS.segment,
      accountId: fx.accountId,
      secretConfig: SEGMENT_CONFIG,
    });
    const id = `${fx.accountId}/${CONNECTORS.segment}`;
    await added.remove(id, { connectorId: CONNECTORS.segment, accountId: fx.accountId });
    const before = callsTo(await fx.service.stats(), GET_CONFIGURATION);
    assert.equal((await configuration.read(created.id, created.outs)).id, "");
    assert.equal(callsTo(await fx.service.stats(), GET_CONFIGURATION), before);
  });
});

describe("AddedConnectorsCache (fake client)", () => {
  function fakeClient(): ListingClient & { listings: number; fail: boolean; srcConnections: number } {
    const fake = {
      listings: 0,
      fail: false,
      srcConnections: 0,
      listAddedConnectors(): AsyncIterable<AddedConnectorView> {
        fake.listings++;
        const failNow = fake.fail;
        const count = fake.srcConnections;
        return (async function* () {
          if (failNow) throw new Error("listing failed");
          yield { connectorId: "a".repeat(16), srcConnections: count, destConnections: 0 } as AddedConnectorView;
        })();
      },
    };
    return fake;
  }

  it("does not cache a failed listing", async () => {
    const cache = new AddedConnectorsCache();
    const client = fakeClient();
    client.fail = true;
    await rejection(cache.snapshot(client, "acct"));
    client.fail = false;
    assert.equal((await cache.snapshot(client, "acct")).size, 1);
    assert.equal(client.listings, 2);
  });

  it("shares one listing among concurrent reads and lists again after invalidate", async () => {
    const cache = new AddedConnectorsCache();
    const client = fakeClient();
    await Promise.all([1, 2, 3].map(() => cache.find(client, "acct", "a".repeat(16))));
    assert.equal(client.listings, 1);
    client.srcConnections = 3;
    assert.equal((await cache.find(client, "acct", "a".repeat(16)))?.srcConnections, 0, "cached");
    cache.invalidate(client, "acct");
    assert.equal((await cache.find(client, "acct", "a".repeat(16)))?.srcConnections, 3);
    assert.equal(client.listings, 2);
  });

  it("keeps clients and sub-accounts apart", async () => {
    const cache = new AddedConnectorsCache();
    const one = fakeClient();
    const two = fakeClient();
    await Promise.all([
      cache.snapshot(one, "x"),
      cache.snapshot(one, "y"),
      cache.snapshot(two, "x"),
      cache.snapshot(one, "x"),
    ]);
    assert.deepEqual([one.listings, two.listings], [2, 1]);
    cache.invalidate(one, "x");
    await cache.snapshot(one, "y");
    assert.equal(one.listings, 2, "invalidating x leaves y");
  });

  it("looks once more before calling a connector gone: one skipped by a shifting page is found, a gone one is not", async () => {
    const cache = new AddedConnectorsCache();
    const [kept, skipped, gone] = ["k", "s", "g"].map((c) => c.repeat(16));
    let listings = 0;
    const client: ListingClient = {
      async *listAddedConnectors() {
        listings++;
        // The first listing lost `skipped` between two pages (the list changed while paging).
        const ids = listings === 1 ? [kept] : [kept, skipped];
        for (const connectorId of ids) yield { connectorId } as AddedConnectorView;
      },
    };
    const [a, b, c] = await Promise.all([kept, skipped, gone].map((id) => cache.findConfirmed(client, "acct", id)));
    assert.equal(a?.connectorId, kept);
    assert.equal(b?.connectorId, skipped, "found by the confirming listing, not dropped from the state");
    assert.equal(c, undefined, "gone in both listings: gone");
    assert.equal(listings, 2, "the misses share one confirming listing");
  });
});
