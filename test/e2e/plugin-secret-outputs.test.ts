// The plugin keeps its secrets by itself: a program that registers its resources as
// raw CustomResources, with every input plain and no secret marking of its own, leaves no
// canary in the state (mutation audit item c: the SDK's own marking hid an empty list of the
// plugin's secret outputs); `pulumi up --debug`, which prints every RegisterResource response,
// shows no value of the configuration, of any type (defect 4: secretConfig was echoed as an
// output; the lookup's Invoke response carried the saved values); and the exported result of
// getConnectorConfigurationOutput holds none either (defect 7).
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS } from "./harness";
import { apiKeyFields, e2eSuite, fieldValue, SEGMENT, serviceSettings } from "./fixtures";

function canary(label: string): string {
  return `canary-${label}-${randomBytes(6).toString("hex")}`;
}

describe("e2e: the plugin's own secrets (raw CustomResources, --debug, an exported lookup)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const password = canary("raw-password");
  const text = canary("raw-text");
  const e2e = e2eSuite({
    stack: (svc) =>
      E2EStack.create({
        program: "plugin-raw",
        name: "plugin-raw",
        service: serviceSettings(svc),
        config: { connectorId: SEGMENT },
        env: { E2E_SECRET_CONFIG: JSON.stringify(apiKeyFields({ apiKey: password, workspace: text })) },
      }),
  });

  it("`pulumi up --debug` prints no value of the configuration: neither the Password nor the Text", async () => {
    await e2e.stack.up({ debug: true });
    const segment = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.ok(fieldValue(segment, "workspace") === text, "the service holds the Text canary");
    const printed = e2e.stack.engineOutput();
    assert.match(printed, /RegisterResource RPC finished/, "the SDK's debug lines were printed");
    assertNoSecret(printed, password, "the output of `pulumi up --debug` (the Password)");
    assertNoSecret(
      printed,
      text,
      "the output of `pulumi up --debug` (the Text value: RegisterResource and Invoke responses)",
    );
  });

  it("the state holds no canary in plaintext, though the program marked nothing secret", async () => {
    const exported = await e2e.stack.exportText();
    assert.match(exported, /embedded:index:ConnectorConfiguration/, "the export holds the configuration");
    assert.match(exported, /"lookup"/, "the export holds the lookup's result");
    assertNoSecret(exported, password, "pulumi stack export (the Password)");
    assertNoSecret(exported, text, "pulumi stack export (the Text value: the resource's values, the lookup's fields)");
    const outputs = await e2e.stack.outputValues();
    const fields = (outputs.lookup as { fields?: { id: string; value?: string }[] } | undefined)?.fields ?? [];
    assert.ok(
      fields.some((f) => f.id === "workspace"),
      "the exported lookup holds the descriptors",
    );
  });
});
