// The delete guard under the real engine. A connection (made
// through the service's admin API) uses both connectors of the stack, so
// `destroy` must refuse with a message that says what and what to do, and
// must leave the service and the state as they were.
import { strict as assert } from "node:assert";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { connectorsStack, e2eSuite, FACEBOOK, S3 } from "./fixtures";

describe("e2e: delete guard (destroy while a connection uses the connectors)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let connectionId: string | undefined;
  const e2e = e2eSuite({
    // Only connectors that the connection uses: with an unused one in the
    // stack, a failed destroy would still remove that one.
    stack: (svc) =>
      connectorsStack(svc, "guard", {
        connectors: [
          { key: "s3", connectorId: S3 },
          { key: "facebook", connectorId: FACEBOOK },
        ],
      }),
    setUp: async ({ stack }) => {
      await stack.up();
    },
    tearDown: async ({ svc }) => {
      if (connectionId) {
        await svc.service.deleteConnection(connectionId).catch(() => undefined);
      }
    },
  });

  it("destroy fails with a clear message and removes nothing", async () => {
    connectionId = await e2e.svc.service.createConnection(e2e.svc.accountId, S3, FACEBOOK);
    const statesBefore = await e2e.stack.resources();

    const text = await e2e.stack.expectFailure((s) => s.destroy());

    // What: connector name and id, the sub-account, both counts.
    assert.match(text, /Amazon S3/);
    assert.ok(text.includes(S3), "names the source connector's id");
    assert.match(text, /Facebook Custom Audiences/);
    assert.ok(text.includes(FACEBOOK), "names the destination connector's id");
    assert.ok(text.includes(e2e.svc.accountId), "names the sub-account");
    assert.match(text, /srcConnections\D{0,3}1\b/, "S3 is the source of one connection");
    assert.match(text, /destConnections\D{0,3}1\b/, "Facebook is the destination of one connection");
    // What to do.
    assert.match(text, /delete (those|the) connections/i);
    assert.match(text, /retainOnDelete/);

    // Nothing removed from the service; the state is as before.
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3, FACEBOOK].sort());
    const statesAfter = await e2e.stack.resources();
    assert.deepEqual(statesAfter.map(resourceName).sort(), ["facebook", "s3"]);
    assert.deepEqual(statesAfter.map((r) => r.id).sort(), statesBefore.map((r) => r.id).sort());
    await e2e.stack.preview({ expectNoChanges: true });
  });

  it("once the connection is deleted, destroy succeeds and the sub-account is empty", async () => {
    assert.ok(connectionId, "the connection of the previous test");
    await e2e.svc.service.deleteConnection(connectionId);
    connectionId = undefined;

    const result = await e2e.stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
    assert.deepEqual(await e2e.stack.resources(), []);
  });
});
