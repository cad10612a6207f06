// The delete guard of AddedConnector: the service's Remove refuses (409) while connections
// use the connector; that becomes a message naming everything needed. 404 is done.
import assert from "node:assert/strict";
import { errorFromResponse, NOTHING_SENT, type EmbeddedClient } from "../client";
import * as impl from "./steps";
import {
  assertSegmentInUse,
  CONNECTORS,
  callsTo,
  rejection,
  useConfig,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { routeKey, routeLabel } from "../../contract/routes";

const REMOVE = routeKey("removeConnector");

describe("AddedConnector provider: delete", () => {
  const fx = useProviderFixture();
  let id: string;
  let outs: Record<string, unknown>;
  beforeEach(async () => {
    ({ id, outs } = await impl.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId }));
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.tiktokEvents]);
  });

  it("removes an unused connector", async () => {
    await impl.remove(id, outs);
    assert.equal((await impl.read(id, outs)).id, "");
  });

  it("refuses while connections use it, naming everything needed, and removes nothing", async () => {
    const connection = await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const before = await fx.service.stats();
    const error = await rejection(impl.remove(id, outs));
    assert.ok(
      error.message.startsWith(impl.inUseMessage("Segment", CONNECTORS.segment, fx.accountId, 1, 0)),
      error.message,
    );
    assertSegmentInUse(error.message, fx.accountId, ["retainOnDelete: true", "run `pulumi up`"]);
    assert.match(error.message, /\(request id \S+\)$/);
    const after = await fx.service.stats();
    assert.equal(callsTo(after, REMOVE) - callsTo(before, REMOVE), 1, "one Remove call, no listing before it");
    assert.equal(callsTo(after, routeKey("listAddedConnectors")) - callsTo(before, routeKey("listAddedConnectors")), 0);
    assert.equal((await impl.read(id, outs)).id, id, "still added");

    await fx.service.deleteConnection(connection);
    await impl.remove(id, outs);
    assert.equal((await impl.read(id, outs)).id, "");
  });

  it("counts destination connections too", async () => {
    const tiktok = await impl.read(`${fx.accountId}/${CONNECTORS.tiktokEvents}`, {
      connectorId: CONNECTORS.tiktokEvents,
      accountId: fx.accountId,
    });
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const error = await rejection(impl.remove(tiktok.id ?? "", tiktok.props ?? {}));
    assert.match(error.message, /srcConnections=0, destConnections=1/);
    assert.match(error.message, /"TikTok Events API"/);
  });

  it("without the name in the state, the message still names the connector and the counts", async () => {
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const error = await rejection(impl.remove(id, { connectorId: CONNECTORS.segment, accountId: fx.accountId }));
    assert.ok(
      error.message.startsWith(impl.inUseMessage(undefined, CONNECTORS.segment, fx.accountId, 1, 0)),
      error.message,
    );
  });

  /** The provider's client, with Remove answered by the service's 409 `body` (through the client's own error factory). */
  function refusingRemove(body: Record<string, unknown>): EmbeddedClient {
    return Object.assign(Object.create(fx.client) as EmbeddedClient, {
      removeConnector: async () => {
        throw errorFromResponse({
          status: 409,
          body: { statusCode: 409, ...body },
          requestId: "req-409",
          route: routeLabel("removeConnector"),
          sent: NOTHING_SENT,
        });
      },
    });
  }

  for (const [what, response] of [
    ["no connection counts", null],
    ["counts of zero", { srcConnections: 0, destConnections: 0 }],
  ] as const) {
    it(`a 409 with ${what} says the service's reason, not "used in connections"`, async () => {
      useConfig(fx, {}, refusingRemove({ statusMessage: "connector is locked by a running sync.", response }));
      const error = await rejection(impl.remove(id, outs));
      assert.ok(!/used in connections|retainOnDelete/.test(error.message), error.message);
      assert.ok(
        error.message.startsWith(
          impl.removeRefusedMessage(
            "Segment",
            CONNECTORS.segment,
            fx.accountId,
            "connector is locked by a running sync",
          ),
        ),
        error.message,
      );
      assert.equal(error.message.split("req-409").length - 1, 1, `the request id once: ${error.message}`);
      assert.equal((await impl.read(id, outs)).id, id, "still added");
    });
  }

  it("treats a 404 from Remove as success (removed concurrently)", async () => {
    const racing: EmbeddedClient = Object.assign(Object.create(fx.client) as EmbeddedClient, {
      removeConnector: async (accountId: string, connectorId: string) => {
        await fx.client.removeConnector(accountId, connectorId); // someone else got there first
        return fx.client.removeConnector(accountId, connectorId); // → 404
      },
    });
    useConfig(fx, {}, racing);
    await impl.remove(id, outs);
    assert.equal((await impl.read(id, outs)).id, "");
  });

  it("treats a connector that is already gone as deleted", async () => {
    await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
    await impl.remove(id, outs);
    assert.equal((await impl.read(id, outs)).id, "");
  });
});
