// Issue 4, item 5, issue 18, item 1 and issue 24: secrets never leak, through the dynamic provider
// or the plugin. The canaries of each host (secrets-hosts.ts, secrets-plugin-host.ts) may not
// appear in `pulumi stack export`, the backend's files, the stack's config file, anything the
// engine printed, or any service's log.
import { strict as assert } from "node:assert";
import { replayCanariesOnFailure } from "./canaries";
import { assertNoSecret, ENGINE_TIMEOUT_MS } from "./harness";
import { e2eSuite } from "./fixtures";
import { dynamicHost, type SecretsHost, type SecretsStack } from "./secrets-hosts";
import { pluginHost } from "./secrets-plugin-host";

const HOSTS: SecretsHost[] = [dynamicHost, pluginHost];

for (const host of HOSTS) {
  describe(`e2e: ${host.name}: secrets (stack export, backend files, engine output, service logs)`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    replayCanariesOnFailure();
    let made: SecretsStack;
    const e2e = e2eSuite({
      service: { firstCustomer: { clientSecret: host.clientSecret } },
      stack: async (svc) => {
        assert.equal(svc.clientSecret, host.clientSecret);
        made = await host.create(svc);
        return made.stack;
      },
    });
    after(() => made?.stop());

    it("runs up, preview, refresh and an update with diffs shown; the services hold the canaries", async () => {
      await e2e.stack.up({ diff: true });
      await made.assertStored();
      // Numbers and Multi-Selects given as strings: no perpetual diff for the drift check.
      await e2e.stack.preview({ diff: true, refresh: true, expectNoChanges: true });
      await e2e.stack.refresh();
      await e2e.stack.setConfig(made.update);
      const update = await e2e.stack.up({ diff: true });
      assert.equal(update.summary.resourceChanges?.update, 1, JSON.stringify(update.summary.resourceChanges));
    });

    it("no canary in `pulumi stack export`, the backend's files or the stack's config file", async () => {
      const exported = await e2e.stack.exportText();
      const backend = await e2e.stack.backendText();
      const stackConfig = await e2e.stack.stackConfigText();
      assert.match(stackConfig, made.marks.stackConfig);
      assert.match(exported, made.marks.exported, "the export holds the configurations");
      for (const [label, value] of made.canaries) {
        assertNoSecret(exported, value, `pulumi stack export (${label})`);
        assertNoSecret(backend, value, `the backend's files (${label})`);
        assertNoSecret(stackConfig, value, `Pulumi.<stack>.yaml (${label})`);
      }
      made.assertState(exported);
    });

    it("destroy; no canary in anything the engine printed", async () => {
      await e2e.stack.destroy({ diff: true });
      const printed = e2e.stack.engineOutput();
      assert.match(printed, made.marks.printed, "the engine output was captured");
      await made.assertDestroyed(printed);
      for (const [label, value] of made.canaries) {
        assertNoSecret(printed, value, `the engine's output (${label})`);
      }
    });

    it("no canary in any service's log", () => {
      for (const [which, service] of made.services) {
        const log = service.logs.join("");
        assert.match(log, /\/es\/v2\/connectors/, `${which}'s log was captured`);
        for (const [label, value] of made.canaries) {
          assertNoSecret(log, value, `${which}'s log (${label})`);
        }
      }
    });
  });
}
