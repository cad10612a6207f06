// Issue 4, item 8: access tokens expire during one engine run. The service
// issues tokens that live 2 seconds and answers every request slowly, and the
// update runs its steps one at a time, so the provider process outlives
// several tokens; `up` (and a refreshing preview and `destroy`) still succeed.
import { strict as assert } from "node:assert";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine } from "./harness";
import {
    apiKeyFields,
    connectorsStack,
    FACEBOOK,
    S3,
    SEGMENT,
    startService,
    storageFields,
    type E2EService,
} from "./fixtures";

describe("e2e: token expiry within a run", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let svc: E2EService;
    let stack: E2EStack;

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService({
            tokenTtlSeconds: 2,
            faults: { rules: [{ mode: "latency", latencyMs: 400, jitterMs: 200 }] },
        });
        stack = await connectorsStack(
            svc,
            "token",
            {
                connectors: [
                    { key: "segment", connectorId: SEGMENT },
                    { key: "s3", connectorId: S3 },
                    { key: "facebook", connectorId: FACEBOOK },
                ],
                configurations: [
                    { key: "segmentConfig", connectorId: SEGMENT, after: "segment", secretConfig: apiKeyFields(), secretRefs: { apiKey: "k" } },
                    { key: "s3Config", connectorId: S3, after: "s3", secretConfig: storageFields(), secretRefs: { secretAccessKey: "k" } },
                ],
            },
            { secretValues: { k: "token-expiry-key" } },
        );
    });

    after(async function () {
        await svc?.service.setFaults({ rules: [] });
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("up succeeds although tokens expire during it", async () => {
        const before = await svc.service.stats();
        const result = await stack.up({ parallel: 1 });
        assert.equal(result.summary.result, "succeeded");
        assert.equal(result.summary.resourceChanges?.create, 6);
        const stats = await svc.service.stats();
        // More than one token in one run: the first ones expired on the way.
        assert.ok(stats.tokenRequests - before.tokenRequests > 1, `token requests: ${JSON.stringify(stats)}`);
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
        const configured = (await svc.outOfBand.listAdded(svc.accountId)).filter((c) => c.configured).map((c) => c.connectorId);
        assert.deepEqual(configured.sort(), [SEGMENT, S3].sort());
    });

    it("a refreshing preview and destroy succeed too", async () => {
        await stack.preview({ refresh: true, expectNoChanges: true, parallel: 1 });
        const result = await stack.destroy({ parallel: 1 });
        assert.equal(result.summary.result, "succeeded");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
    });
});
