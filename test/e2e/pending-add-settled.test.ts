// No pending-Add record outlives the
// `up` that created its resource (the plugin used to keep it for as long as the resource,
// since a no-change `up` runs only Check and Diff), and a connector that left the stack with
// `retainOnDelete` and is declared again is refused as already added whatever the journal
// directory holds: on a fresh runner (empty) and on a long-lived one (a record of this stack).
import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { AddJournal } from "../../provider/runtime/pending-writes";
import { E2EStack, ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { e2eSuite, S3, serviceSettings } from "./fixtures";

const HOSTS = [
  { host: "plugin", program: "plugin", project: "e2e-plugin" },
  { host: "dynamic", program: "connectors", project: "e2e-connectors" },
] as const;

for (const { host, program, project } of HOSTS) {
  describe(`e2e (${host} host): pending-Add records are settled once the engine has the resource`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let journalDir: string;
    const declare = (spec: Record<string, unknown>[]) => e2e.stack.setConfig({ connectors: spec });

    const e2e = e2eSuite({
      stack: (svc) => {
        journalDir = mkdtempSync(path.join(tmpdir(), `pending-adds-${host}-`));
        return E2EStack.create({
          program,
          name: `settled-${host}`,
          service: serviceSettings(svc),
          env: { EMBEDDED_ADD_JOURNAL_DIR: journalDir },
        });
      },
      tearDown: async ({ svc }) => {
        await svc.outOfBand.remove(svc.accountId, S3).catch(() => undefined);
      },
    });
    after(() => rmSync(journalDir, { recursive: true, force: true }));

    it("up, then a no-change up: no record remains", async () => {
      await declare([{ key: "s3", connectorId: S3, retainOnDelete: true }]);
      await e2e.stack.up();
      const second = await e2e.stack.up();
      const changed = Object.keys(second.summary.resourceChanges ?? {}).filter((kind) => kind !== "same");
      assert.deepEqual(changed, [], "a no-change up");
      assert.deepEqual(readdirSync(journalDir), [], "the journal directory holds no record");
    });

    it("retained and declared again: refused as already added, with or without a record of this stack", async () => {
      await declare([]);
      await e2e.stack.up();
      assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [S3], "retained in the sub-account");
      await declare([{ key: "s3", connectorId: S3 }]);

      // A fresh runner: nothing in the journal directory.
      const fresh = await e2e.stack.expectFailure((s) => s.up());
      assert.match(
        fresh,
        new RegExp(`\\(${S3}\\) is already added to sub-account ${e2e.svc.accountId}, outside this resource`),
      );

      // A long-lived runner whose directory still holds a record of this stack's Add of it.
      new AddJournal(journalDir, await e2e.stack.recordIdentity(project)).begin(e2e.svc.baseUrl, e2e.svc.accountId, S3);
      const kept = await e2e.stack.expectFailure((s) => s.up());
      assert.match(
        kept,
        new RegExp(`\\(${S3}\\) is already added to sub-account ${e2e.svc.accountId}, outside this resource`),
      );
      assert.match(kept, /pending-Add record of stack/, "the refusal names the record");
      assert.deepEqual((await e2e.stack.resources()).map(resourceName), [], "the state does not hold it");
    });
  });
}
