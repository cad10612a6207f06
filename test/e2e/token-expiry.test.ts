// Issue 4, item 8 and issue 18: access tokens end during one engine run. The service issues
// tokens that live 2 seconds and answers every request slowly, and the update runs its steps
// one at a time, so the provider process outlives several tokens and renews them early. On
// top of that the service stops honouring a token before its announced expiry, on one Add,
// one Configure and one Remove (fault `expireToken`): those calls get a 401, the client
// renews the token and repeats them, and every run still succeeds.
import { strict as assert } from "node:assert";
import type { FaultSettings, Stats } from "../../harness/local-service";
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
import { routeKey } from "../../contract/routes";

const ADD = routeKey("addConnectors");
const CONFIGURE = routeKey("configure");
const REMOVE = routeKey("removeConnector");
const SLOW = { mode: "latency", latencyMs: 400, jitterMs: 200 } as const;

/** Slow answers, and the token of the first call to each route given expires before its time. */
function expiringOn(...routes: string[]): FaultSettings {
    return { rules: [SLOW, ...routes.map((route) => ({ route, mode: "expireToken" as const, count: 1 }))] };
}

/** Answers of one route with that status since `before`. */
function answered(before: Stats, after: Stats, route: string, status: string): number {
    return (after.byRoute[route]?.[status] ?? 0) - (before.byRoute[route]?.[status] ?? 0);
}

describe("e2e: token expiry within a run", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let svc: E2EService;
    let stack: E2EStack;

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService({ tokenTtlSeconds: 2, faults: { rules: [SLOW] } });
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

    it("up succeeds although tokens expire during it, early renewal and 401 renewal alike", async () => {
        await svc.service.setFaults(expiringOn(ADD, CONFIGURE));
        const before = await svc.service.stats();
        const result = await stack.up({ parallel: 1 });
        assert.equal(result.summary.result, "succeeded");
        assert.equal(result.summary.resourceChanges?.create, 6);
        const stats = await svc.service.stats();
        // More than one token in one run: the first ones ended on the way.
        assert.ok(stats.tokenRequests - before.tokenRequests > 1, `token requests: ${JSON.stringify(stats)}`);
        // The service refused a token it had announced as valid, and the refused calls were repeated.
        for (const route of [ADD, CONFIGURE]) {
            assert.ok(answered(before, stats, route, "401") >= 1, `a 401 on ${route}: ${JSON.stringify(stats.byRoute)}`);
        }
        assert.equal(answered(before, stats, CONFIGURE, "200"), 2, "both configurations saved once each");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
        const configured = (await svc.outOfBand.listAdded(svc.accountId)).filter((c) => c.configured).map((c) => c.connectorId);
        assert.deepEqual(configured.sort(), [SEGMENT, S3].sort());
    });

    it("a refreshing preview and destroy succeed too", async () => {
        await svc.service.setFaults({ rules: [SLOW] });
        await stack.preview({ refresh: true, expectNoChanges: true, parallel: 1 });
        await svc.service.setFaults(expiringOn(REMOVE));
        const before = await svc.service.stats();
        const result = await stack.destroy({ parallel: 1 });
        assert.equal(result.summary.result, "succeeded");
        assert.ok(answered(before, await svc.service.stats(), REMOVE, "401") >= 1, "a 401 on Remove");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
    });
});
