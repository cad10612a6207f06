// Access tokens end during one engine run. The service issues
// tokens that live 2 seconds and answers every request slowly, and the update runs its steps
// one at a time, so the provider process outlives several tokens and renews them early. On
// top of that the service stops honouring a token before its announced expiry, on one Add,
// one Configure and one Remove (fault `expireToken`): those calls get a 401, the client
// renews the token and repeats them, and every run still succeeds.
import { strict as assert } from "node:assert";
import type { FaultSettings, Stats } from "../../harness/local-service";
import { ENGINE_TIMEOUT_MS } from "./harness";
import { apiKeyFields, connectorsStack, e2eSuite, FACEBOOK, S3, SEGMENT, storageFields } from "./fixtures";
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
  const e2e = e2eSuite({
    service: { tokenTtlSeconds: 2, faults: { rules: [SLOW] } },
    stack: (svc) =>
      connectorsStack(
        svc,
        "token",
        {
          connectors: [
            { key: "segment", connectorId: SEGMENT },
            { key: "s3", connectorId: S3 },
            { key: "facebook", connectorId: FACEBOOK },
          ],
          configurations: [
            {
              key: "segmentConfig",
              connectorId: SEGMENT,
              after: "segment",
              secretConfig: apiKeyFields(),
              secretRefs: { apiKey: "k" },
            },
            {
              key: "s3Config",
              connectorId: S3,
              after: "s3",
              secretConfig: storageFields(),
              secretRefs: { secretAccessKey: "k" },
            },
          ],
        },
        { secretValues: { k: "token-expiry-key" } },
      ),
    tearDown: ({ svc }) => svc.service.setFaults({ rules: [] }),
  });

  it("up succeeds although tokens expire during it, early renewal and 401 renewal alike", async () => {
    await e2e.svc.service.setFaults(expiringOn(ADD, CONFIGURE));
    const before = await e2e.svc.service.stats();
    const result = await e2e.stack.up({ parallel: 1 });
    assert.equal(result.summary.result, "succeeded");
    assert.equal(result.summary.resourceChanges?.create, 6);
    const stats = await e2e.svc.service.stats();
    // More than one token in one run: the first ones ended on the way.
    assert.ok(stats.tokenRequests - before.tokenRequests > 1, `token requests: ${JSON.stringify(stats)}`);
    // The service refused a token it had announced as valid, and the refused calls were repeated.
    for (const route of [ADD, CONFIGURE]) {
      assert.ok(answered(before, stats, route, "401") >= 1, `a 401 on ${route}: ${JSON.stringify(stats.byRoute)}`);
    }
    assert.equal(answered(before, stats, CONFIGURE, "200"), 2, "both configurations saved once each");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT, S3, FACEBOOK].sort());
    const configured = (await e2e.svc.outOfBand.listAdded(e2e.svc.accountId))
      .filter((c) => c.configured)
      .map((c) => c.connectorId);
    assert.deepEqual(configured.sort(), [SEGMENT, S3].sort());
  });

  it("a refreshing preview and destroy succeed too", async () => {
    await e2e.svc.service.setFaults({ rules: [SLOW] });
    await e2e.stack.preview({ refresh: true, expectNoChanges: true, parallel: 1 });
    await e2e.svc.service.setFaults(expiringOn(REMOVE));
    const before = await e2e.svc.service.stats();
    const result = await e2e.stack.destroy({ parallel: 1 });
    assert.equal(result.summary.result, "succeeded");
    assert.ok(answered(before, await e2e.svc.service.stats(), REMOVE, "401") >= 1, "a 401 on Remove");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
  });
});
