// Issue 4, item 4: the delete guard under the real engine. A connection (made
// through the service's admin API) uses both connectors of the stack, so
// `destroy` must refuse with a message that says what and what to do, and
// must leave the service and the state as they were.
import { strict as assert } from "node:assert";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, resourceName } from "./harness";
import { connectorsStack, FACEBOOK, S3, startService, type E2EService } from "./fixtures";

describe("e2e: delete guard (destroy while a connection uses the connectors)", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let svc: E2EService;
    let stack: E2EStack;
    let connectionId: string | undefined;

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService();
        // Only connectors that the connection uses: with an unused one in the
        // stack, a failed destroy would still remove that one.
        stack = await connectorsStack(svc, "guard", {
            connectors: [
                { key: "s3", connectorId: S3 },
                { key: "facebook", connectorId: FACEBOOK },
            ],
        });
        await stack.up();
    });

    after(async function () {
        if (connectionId) {
            await svc.service.deleteConnection(connectionId).catch(() => undefined);
        }
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("destroy fails with a clear message and removes nothing", async () => {
        connectionId = await svc.service.createConnection(svc.accountId, S3, FACEBOOK);
        const statesBefore = await stack.resources();

        const text = await stack.expectFailure((s) => s.destroy());

        // What: connector name and id, the sub-account, both counts.
        assert.match(text, /Amazon S3/);
        assert.ok(text.includes(S3), "names the source connector's id");
        assert.match(text, /Facebook Custom Audiences/);
        assert.ok(text.includes(FACEBOOK), "names the destination connector's id");
        assert.ok(text.includes(svc.accountId), "names the sub-account");
        assert.match(text, /srcConnections\D{0,3}1\b/, "S3 is the source of one connection");
        assert.match(text, /destConnections\D{0,3}1\b/, "Facebook is the destination of one connection");
        // What to do.
        assert.match(text, /delete (those|the) connections/i);
        assert.match(text, /retainOnDelete/);

        // Nothing removed from the service; the state is as before.
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3, FACEBOOK].sort());
        const statesAfter = await stack.resources();
        assert.deepEqual(statesAfter.map(resourceName).sort(), ["facebook", "s3"]);
        assert.deepEqual(
            statesAfter.map((r) => r.id).sort(),
            statesBefore.map((r) => r.id).sort(),
        );
        await stack.preview({ expectNoChanges: true });
    });

    it("once the connection is deleted, destroy succeeds and the sub-account is empty", async () => {
        assert.ok(connectionId, "the connection of the previous test");
        await svc.service.deleteConnection(connectionId);
        connectionId = undefined;

        const result = await stack.destroy();
        assert.equal(result.summary.result, "succeeded");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
        assert.deepEqual(await stack.resources(), []);
    });
});
