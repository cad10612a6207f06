// The README's examples (the dynamic provider's, then the plugin's) in a user's own
// project, under the real engine, with the suite's versions (Node.js of this process,
// @pulumi/pulumi and CLI of package.json: cell (a) of COMPATIBILITY.md). npm run test:compat
// repeats it for the other cells.
import { strict as assert } from "node:assert";
import { ensureEngine } from "../../harness/engine";
import { startService, type E2EService } from "../e2e/fixtures";
import { sharedConsumerProject, type ConsumerProject } from "./project";
import { runConsumerScenario } from "./scenario";

describe("consumer: the README examples in a user's project under the real engine", function () {
  this.timeout(600_000);
  let service: E2EService;
  let project: ConsumerProject;

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    project = await sharedConsumerProject();
    service = await startService();
  });

  after(async () => {
    await service?.service.stop();
  });

  it(
    "up, a clean drift check, a caught out-of-band change, one refusal message per resource, destroy; " +
      "then the plugin: plugin install, two customers' sub-accounts, clean previews, destroy",
    async () => {
      const engine = await ensureEngine();
      const { output, pluginOutput } = await runConsumerScenario({ project, service, pulumiBinDir: engine.binDir });
      // The stack, two AddedConnectors and their two ConnectorConfigurations.
      assert.match(output, /Resources:\s+\+ 5 created/, "up created the two connectors and their configurations");
      // The engine ran the plugin installed in the scenario's PULUMI_HOME, not a dynamic provider.
      assert.match(pluginOutput, /embedded:index:AddedConnector/, "the plugin's resources are in the engine's output");
      assert.doesNotMatch(pluginOutput, /pulumi-nodejs:dynamic/, "the plugin's example uses no dynamic resource");
    },
  );
});
