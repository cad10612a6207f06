// The delete guard of AddedConnector: refuse while connections use the connector, map a
// 409 to the same message, treat 404 as done.
import assert from "node:assert/strict";
import type { AddedConnectorView, EmbeddedClient } from "../../provider/client";
import * as impl from "../../provider/resources/added-connector-impl";
import { CONNECTORS, callsTo, rejection, startFixture, useConfig, type ProviderFixture } from "./fixtures";

const REMOVE = "DELETE /es/v2/connectors/:connectorId";

/** A client that lies about the connection counts (a connection made between guard and Remove). */
function staleCounts(real: EmbeddedClient, overrides: Partial<EmbeddedClient>): EmbeddedClient {
  const fake = Object.create(real) as EmbeddedClient;
  fake.listAddedConnectors = async function* (accountId, filters) {
    for await (const view of real.listAddedConnectors(accountId, filters)) {
      yield { ...view, srcConnections: 0, destConnections: 0 } satisfies AddedConnectorView;
    }
  };
  fake.removeConnector = (accountId, connectorId) => real.removeConnector(accountId, connectorId);
  return Object.assign(fake, overrides);
}

describe("AddedConnector provider: delete", () => {
  let fx: ProviderFixture;
  let id: string;
  let outs: Record<string, unknown>;
  before(async () => {
    fx = await startFixture();
  });
  after(async () => fx.service.stop());
  beforeEach(async () => {
    await fx.service.reset();
    useConfig(fx);
    ({ id, outs } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId }));
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.tiktokEvents]);
  });

  it("removes an unused connector", async () => {
    await impl.remove(id, outs);
    assert.equal((await impl.read(id, outs)).id, "");
  });

  it("refuses while connections use it, before calling Remove, naming everything needed", async () => {
    const connection = await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const before = callsTo(await fx.service.stats(), REMOVE);
    const error = await rejection(impl.remove(id, outs));
    assert.equal(
      error.message,
      impl.inUseMessage("Segment", CONNECTORS.segment, fx.accountId, 1, 0),
    );
    for (const part of ['"Segment"', CONNECTORS.segment, fx.accountId, "srcConnections=1", "destConnections=0", "retainOnDelete: true"]) {
      assert.ok(error.message.includes(part), `message lacks ${part}: ${error.message}`);
    }
    assert.equal(callsTo(await fx.service.stats(), REMOVE), before, "Remove must not be called");

    await fx.service.deleteConnection(connection);
    await impl.remove(id, outs);
  });

  it("counts destination connections too", async () => {
    const tiktok = await impl.read(`${fx.accountId}/${CONNECTORS.tiktokEvents}`, { connectorId: CONNECTORS.tiktokEvents, accountId: fx.accountId });
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const error = await rejection(impl.remove(tiktok.id ?? "", tiktok.props ?? {}));
    assert.match(error.message, /srcConnections=0, destConnections=1/);
    assert.match(error.message, /"TikTok Events API"/);
  });

  it("maps a 409 from Remove to the same message, with the request id", async () => {
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    useConfig(fx, {}, staleCounts(fx.client, {}));
    const error = await rejection(impl.remove(id, outs));
    assert.ok(error.message.startsWith(impl.inUseMessage("Segment", CONNECTORS.segment, fx.accountId, 1, 0)), error.message);
    assert.match(error.message, /\(request id \S+\)$/);
    assert.equal(callsTo(await fx.service.stats(), REMOVE) >= 1, true);
  });

  it("treats a 404 from Remove as success (removed concurrently)", async () => {
    const racing = staleCounts(fx.client, {
      removeConnector: async (accountId: string, connectorId: string) => {
        await fx.client.removeConnector(accountId, connectorId); // someone else got there first
        return fx.client.removeConnector(accountId, connectorId); // → 404
      },
    });
    useConfig(fx, {}, racing);
    await impl.remove(id, outs);
  });

  it("treats a connector that is already gone as deleted", async () => {
    await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
    const before = callsTo(await fx.service.stats(), REMOVE);
    await impl.remove(id, outs);
    assert.equal(callsTo(await fx.service.stats(), REMOVE), before);
  });
});
