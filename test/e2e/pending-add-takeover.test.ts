// A run of stack A is killed while its Add is in
// flight, and the Add never lands (held by a latency fault, then reset). Stack B adds the same
// connector. A's next `up` must not take B's connector over: it is refused as already added,
// naming A's pending-Add record and `adoptExisting`; B's connector stays, A's state holds nothing.
import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { providerProcesses } from "../chaos/provider-kill";
import { E2EStack, ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { e2eSuite, S3, serviceSettings } from "./fixtures";
import { routeKey } from "../../contract/routes";

const ADD = routeKey("addConnectors");

/** SIGKILLs the stack's dynamic-provider process once a pending-Add record is in `journalDir` (its Add is on its way). */
async function killProviderMidAdd(workDir: string, journalDir: string, stop: () => boolean): Promise<string> {
  while (!stop()) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (readdirSync(journalDir).filter((name) => name.endsWith(".json")).length === 0) continue;
    const pids = await providerProcesses(workDir);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    if (pids.length > 0) return `killed ${pids.length} provider process(es) mid-Add`;
  }
  return "the run ended before the provider process could be killed";
}

describe("e2e: a stale pending-Add record does not take over another stack's connector", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let journalDir: string;
  const stacks: E2EStack[] = [];
  const stackOf = async (name: string) => {
    const stack = await E2EStack.create({
      program: "connectors",
      name,
      service: serviceSettings(e2e.svc),
      config: { connectors: [{ key: "s3", connectorId: S3 }], "embedded:maxRetries": "0" },
      env: { EMBEDDED_ADD_JOURNAL_DIR: journalDir },
    });
    stacks.push(stack);
    return stack;
  };

  const e2e = e2eSuite({
    setUp: async () => {
      journalDir = mkdtempSync(path.join(tmpdir(), "pending-adds-takeover-"));
    },
    tearDown: async ({ svc }) => {
      await svc.service.setFaults({ rules: [] }).catch(() => undefined);
      for (const stack of stacks) await stack.dispose();
    },
  });
  after(() => rmSync(journalDir, { recursive: true, force: true }));

  it("A killed mid-Add, B adds the connector, A's next up is refused naming the record and adoptExisting", async () => {
    const a = await stackOf("takeover-a");
    const b = await stackOf("takeover-b");

    // A's Add is held 20 s, then its socket reset: it never lands. A's provider dies meanwhile.
    await e2e.svc.service.setFaults({
      rules: [
        { route: ADD, mode: "latency", latencyMs: 20_000 },
        { route: ADD, mode: "reset" },
      ],
    });
    let ended = false;
    const killer = killProviderMidAdd(a.workDir, journalDir, () => ended);
    try {
      await a.expectFailure((s) => s.up());
    } finally {
      ended = true; // the killer's poll stops whatever happened
    }
    assert.match(await killer, /^killed/);
    await e2e.svc.service.setFaults({ rules: [] }); // decided on arrival: A's held Add is still reset
    const [record] = readdirSync(journalDir);
    assert.ok(record, "the killed run left its pending-Add record");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [], "A's Add did not land");

    await b.up();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3], "B added it");

    const refused = await a.expectFailure((s) => s.up());
    assert.match(
      refused,
      new RegExp(`\\(${S3}\\) is already added to sub-account ${e2e.svc.accountId}, outside this resource`),
    );
    assert.match(refused, new RegExp(`pending-Add record of stack e2e-connectors/${a.name}`));
    assert.ok(refused.includes(record), `the refusal names the record's file ${record}`);
    assert.match(refused, /adoptExisting: true/);

    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3], "B's connector stays");
    assert.deepEqual((await a.resources()).map(resourceName), [], "A's state does not hold it");
    assert.deepEqual((await b.resources()).map(resourceName), ["s3"]);
  });
});
