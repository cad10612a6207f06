// Secrets never leak, through the dynamic provider
// or the plugin. The canaries of each host (secrets-hosts.ts, secrets-plugin-host.ts) may not
// appear in `pulumi stack export`, the backend's files, the stack's config file, anything the
// engine printed, or any service's log.
import { strict as assert } from "node:assert";
import { assertNoLeak as assertNoSecret, replayCanariesOnFailure } from "./canaries";
import { ENGINE_TIMEOUT_MS } from "./harness";
import { e2eSuite } from "./fixtures";
import { dynamicHost, type SecretsHost, type SecretsStack } from "./secrets-hosts";
import { pluginHost } from "./secrets-plugin-host";
import { FAILURE_CANARIES, runFailurePaths } from "./secrets-failures";

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

    // Every command that prints, with --diff, --debug and --json (the engine's own
    // output: RegisterResource responses under --debug, check failures, JSON events).
    it("runs preview, up, preview and refresh with --diff, --debug and --json; the services hold the canaries", async () => {
      await e2e.stack.preview({ diff: true, debug: host.previewDebug }); // the preview of the creates
      await e2e.stack.up({ diff: true, debug: true });
      await made.assertStored();
      // Numbers and Multi-Selects given as strings: no perpetual diff for the drift check.
      await e2e.stack.preview({ diff: true, refresh: true, expectNoChanges: true, debug: true });
      await e2e.stack.cli(["preview", "--json", "--refresh"]);
      await e2e.stack.cli(["refresh", "--yes", "--json", "--debug"]);
    });

    it("previews and runs an update, imports (the plugin), with --diff and --debug", async () => {
      await e2e.stack.setConfig(made.update);
      await e2e.stack.preview({ diff: true, debug: host.previewDebug }); // an update's preview half
      const update = await e2e.stack.up({ diff: true, debug: true });
      assert.equal(update.summary.resourceChanges?.update, 1, JSON.stringify(update.summary.resourceChanges));
      assert.match(e2e.stack.engineOutput(), /RegisterResource RPC finished/, "the SDK's debug lines were printed");
      // `pulumi import --debug` on both hosts (the dynamic resources cannot be
      // imported by the CLI: the engine fails, docs/import.md); the suite scans what it printed.
      // The plugin's import is not in the program: the next up deletes it (which leaves the
      // service's configuration).
      const flags = ["--yes", "--generate-code=false", "--protect=false"];
      const imported = () => e2e.stack.cli(["import", ...made.importArgs, ...flags, "--diff", "--debug"]);
      if (made.importFails) {
        const failed = await e2e.stack.expectFailure(imported);
        assert.ok(made.importFails.test(failed), `the dynamic import failed otherwise (${failed.length} characters)`);
      } else {
        const { stdout, stderr } = await imported();
        // With --diff the CLI writes the warnings to stderr.
        assert.match(`${stdout}${stderr}`, /imported without its values/, "the import's notice");
      }
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

    it("fails at check (and CheckConfig), create/update, read and delete, each naming what failed", async () => {
      made.canaries.push(...FAILURE_CANARIES);
      await runFailurePaths(e2e.stack, e2e.svc, made);
    });

    it("destroy; no canary in anything the engine printed, nor in the backend's files", async () => {
      await e2e.stack.destroy({ diff: true, debug: true });
      const printed = e2e.stack.engineOutput();
      assert.match(printed, made.marks.printed, "the engine output was captured");
      await made.assertDestroyed(printed);
      // The backend again: its history now holds the failed runs too.
      const backend = await e2e.stack.backendText();
      for (const [label, value] of made.canaries) {
        assertNoSecret(printed, value, `the engine's output (${label})`);
        assertNoSecret(backend, value, `the backend's files after every run (${label})`);
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
