// An Add whose outcome cannot be known (the service
// applied it but every answer was lost, and the listing that would confirm it fails too) is
// recorded in the state as an unfinished resource with its id (the engine's partial failure),
// and the next `pulumi up` finishes it without user action and without a second Add.
import { strict as assert } from "node:assert";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { connectorsStack, e2eSuite, S3 } from "./fixtures";
import { callsTo } from "../support/provider-fixtures";
import { routeKey } from "../../contract/routes";

const ADD = routeKey("addConnectors");
const LIST_ADDED = routeKey("listAddedConnectors");

describe("e2e: an Add of unknown outcome", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = e2eSuite({
    stack: (svc) =>
      connectorsStack(svc, "unknown-add", {
        connectors: [{ key: "s3", connectorId: S3 }],
        "embedded:maxRetries": "1",
      }),
    tearDown: async ({ svc }) => {
      await svc.service.setFaults({ rules: [] }).catch(() => undefined);
    },
  });

  it("is recorded as unfinished, then finished by the next up", async () => {
    // The Add is slow and its answer is dropped after it is applied; once the provider has
    // listed the sub-account (what was there before its Add), listings fail as well.
    await e2e.svc.service.setFaults({
      rules: [
        { route: ADD, mode: "latency", latencyMs: 1500 },
        { route: ADD, mode: "commitThenDrop" },
      ],
    });
    let switched = false;
    const watcher = (async () => {
      while (!switched) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        if (callsTo(await e2e.svc.service.stats(), LIST_ADDED) >= 1) {
          await e2e.svc.service.setFaults({
            rules: [
              { route: ADD, mode: "commitThenDrop" },
              { route: LIST_ADDED, mode: "error", status: 500 },
            ],
          });
          switched = true;
        }
      }
    })();
    const text = await e2e.stack.expectFailure((s) => s.up());
    switched = true;
    await watcher;
    assert.match(text, new RegExp(`outcome of adding connector ${S3} to sub-account ${e2e.svc.accountId} is unknown`));
    assert.match(text, /next `pulumi up`/);

    const recorded = await e2e.stack.resources();
    assert.deepEqual(recorded.map(resourceName), ["s3"], "the engine kept the resource, with its id");
    assert.equal(recorded[0].id, `${e2e.svc.accountId}/${S3}`);
    await e2e.svc.service.setFaults({ rules: [] });
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3], "the service did add it");

    const addsBefore = callsTo(await e2e.svc.service.stats(), ADD);
    await e2e.stack.up();
    assert.equal(callsTo(await e2e.svc.service.stats(), ADD), addsBefore, "finished without a second Add");
    const finished = await e2e.stack.resources();
    assert.equal((finished[0].outputs as Record<string, unknown>).name, "Amazon S3");
    assert.equal((finished[0].outputs as Record<string, unknown>).addUnfinished, undefined);
    await e2e.stack.preview({ expectNoChanges: true, refresh: true });
  });
});
