// A failing lookup in the program reads once, with no stack, for both
// hosts and the shapes a user writes (the README's example with a misspelt name, the Promise
// form with no resource, a missing setting). Before, the error went through util.inspect on
// Node.js 20 and cost about half a minute of CPU (provider/lookups/refusal.ts); how long it
// takes is measured in bench/, not asserted here.
import { strict as assert } from "node:assert";
import { E2EStack, ENGINE_TIMEOUT_MS } from "./harness";
import { engineFailure } from "./plugin-fixtures";
import { e2eSuite, serviceSettings } from "./fixtures";

/** The lines of the Diagnostics section: what the engine lists once per error. */
function diagnostics(printed: string): string {
  const at = printed.indexOf("Diagnostics:");
  assert.ok(at >= 0, `the engine printed no Diagnostics section:\n${printed}`);
  return printed.slice(at);
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** What no expected refusal may print: a stack, util.inspect's rendering of the error, a warning about it. */
function assertReadsOnce(printed: string, message: string, times = 1): void {
  const listed = diagnostics(printed);
  assert.equal(count(listed, message), times, `the message is listed ${times} time(s):\n${listed}`);
  assert.doesNotMatch(printed, /^\s+at /m, `no stack frame:\n${printed}`);
  for (const noise of [
    "<ref *1>",
    "Promise {",
    "[Circular",
    "PromiseRejectionHandledWarning",
    "Running program",
    "unhandled exception",
  ]) {
    assert.ok(!printed.includes(noise), `no ${JSON.stringify(noise)}:\n${printed}`);
  }
}

for (const host of ["dynamic", "plugin"] as const) {
  describe(`e2e: a failing lookup reads once, with no stack (${host})`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const e2e = e2eSuite({
      stack: (svc) =>
        E2EStack.create({
          program: "lookups",
          name: `lookups-${host}`,
          service: serviceSettings(svc),
          config: { host },
        }),
    });

    it("the README's example with a misspelt name: the name, its near match, once", async () => {
      await e2e.stack.setConfig({ shape: "readme" });
      const { printed } = await engineFailure(() => e2e.stack.preview());
      assertReadsOnce(printed, 'no connector named "Amazon S4"');
      assert.match(printed, /near matches: "Amazon S3"/);
    });

    it("the Promise form with no resource", async () => {
      await e2e.stack.setConfig({ shape: "promise" });
      const { printed } = await engineFailure(() => e2e.stack.preview());
      assertReadsOnce(printed, 'no connector named "Amazon S4"');
    });

    it("a missing embedded:baseUrl names the setting (the plugin's provider once, each lookup of the program once)", async () => {
      await e2e.stack.setConfig({ shape: "readme" });
      await e2e.stack.removeConfig("embedded:baseUrl");
      try {
        const { printed } = await engineFailure(() => e2e.stack.preview());
        assertReadsOnce(printed, "missing embedded:baseUrl (or EMBEDDED_BASE_URL)", host === "plugin" ? 1 : 2);
      } finally {
        await e2e.stack.setConfig({});
      }
    });
  });
}
