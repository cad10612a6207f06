// Issue 4, item 9: a connector added out of band is refused by default, with
// the hint to adopt it, and taken over with `adoptExisting: true`. The
// engine's own import does not work for dynamic resources (see also
// smoke.test.ts, which shows it without a service).
import { strict as assert } from "node:assert";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, resourceName } from "./harness";
import { connectorsStack, SEGMENT, startService, type E2EService } from "./fixtures";

describe("e2e: adopting a connector added out of band", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let svc: E2EService;
    let stack: E2EStack;

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService();
        await svc.outOfBand.add(svc.accountId, [SEGMENT]);
        stack = await connectorsStack(svc, "adopt", { connectors: [{ key: "segment", connectorId: SEGMENT }] });
    });

    after(async function () {
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("up refuses it with the hint to set adoptExisting", async () => {
        const text = await stack.expectFailure((s) => s.up());
        assert.match(text, /already added/);
        assert.ok(text.includes(SEGMENT), "names the connector id");
        assert.ok(text.includes(svc.accountId), "names the sub-account");
        assert.match(text, /adoptExisting: true/);
        assert.deepEqual(await stack.resources(), [], "nothing in the state");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [SEGMENT], "still added, once");
    });

    // At engine v3.248.0 `pulumi import` fails in the dynamic-provider host's
    // Read before any provider code runs: the host needs the serialized
    // `__provider` property and an import passes no properties:
    //   TypeError: Cannot read properties of undefined (reading 'toJavaScript')
    it("`pulumi import` of the AddedConnector fails in the dynamic-provider host", async () => {
        const text = await stack.expectFailure((s) =>
            s.stack.import({
                resources: [
                    {
                        type: "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector",
                        name: "segment",
                        id: `${svc.accountId}/${SEGMENT}`,
                    },
                ],
                protect: false,
                generateCode: false,
            }),
        );
        assert.match(text, /Cannot read properties of undefined \(reading 'toJavaScript'\)/);
        assert.deepEqual(await stack.resources(), []);
    });

    it("adoptExisting: true takes it over", async () => {
        await stack.setConfig({ connectors: [{ key: "segment", connectorId: SEGMENT, adoptExisting: true }] });
        const result = await stack.up();
        // The stack itself was created by the refused run.
        assert.equal(result.summary.resourceChanges?.create, 1, JSON.stringify(result.summary.resourceChanges));
        const resources = await stack.resources();
        assert.deepEqual(resources.map(resourceName), ["segment"]);
        assert.equal(resources[0].id, `${svc.accountId}/${SEGMENT}`);
        assert.equal(resources[0].outputs?.name, "Segment");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [SEGMENT]);
        await stack.preview({ refresh: true, expectNoChanges: true });
    });

    it("once adopted, it is managed: destroy removes it", async () => {
        await stack.destroy();
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
    });
});
