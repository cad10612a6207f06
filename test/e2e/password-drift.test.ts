// A Password changed out of band, and nothing else: the service never returns a Password, so
// only `lastUpdated` moving past the one the provider applied can show it. `pulumi preview --refresh --expect-no-changes`, the drift check users run,
// must fail, and `up --refresh` must write the program's Password back; for both hosts.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue } from "./harness";
import { apiKeyFields, connectorsStack, type E2EService, e2eSuite, SEGMENT } from "./fixtures";
import { callsTo, CONFIGURE_ROUTE, liveValues, pluginStack } from "./plugin-fixtures";

const hosts: {
  host: string;
  create(
    svc: E2EService,
    name: string,
    config: Record<string, ProgramConfigValue>,
    secrets: Record<string, ProgramConfigValue>,
  ): Promise<E2EStack>;
}[] = [
  {
    host: "dynamic provider",
    create: (svc, name, config, secretConfig) => connectorsStack(svc, name, config, secretConfig),
  },
  { host: "plugin", create: (svc, name, config, secretConfig) => pluginStack(svc, name, { config, secretConfig }) },
];

for (const { host, create } of hosts) {
  describe(`e2e: ${host}: a Password changed out of band, and only it, is drift`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const apiKey = `password-drift-${randomBytes(6).toString("hex")}`;
    const e2e = e2eSuite({
      stack: (svc) =>
        create(
          svc,
          `password-drift-${host === "plugin" ? "plugin" : "dynamic"}`,
          {
            connectors: [{ key: "segment", connectorId: SEGMENT }],
            configurations: [
              {
                key: "segmentConfig",
                connectorId: SEGMENT,
                after: "segment",
                secretConfig: apiKeyFields(),
                secretRefs: { apiKey: "segmentKey" },
              },
            ],
          },
          { secretValues: { segmentKey: apiKey } },
        ),
      setUp: async ({ stack }) => {
        assert.equal((await stack.up()).summary.result, "succeeded");
        await stack.preview({ refresh: true, expectNoChanges: true });
      },
    });

    it("preview --refresh --expect-no-changes fails; up --refresh writes the program's Password back", async () => {
      const valuesBefore = await liveValues(e2e.svc.outOfBand, e2e.svc.accountId, SEGMENT);
      // Every non-Password value as the program gives it, and another Password.
      await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, {
        ...apiKeyFields(),
        apiKey: "rotated-by-a-colleague",
      });
      assert.deepEqual(
        await liveValues(e2e.svc.outOfBand, e2e.svc.accountId, SEGMENT),
        valuesBefore,
        "only the Password changed",
      );

      const text = await e2e.stack.expectFailure((s) => s.preview({ refresh: true, expectNoChanges: true }));
      assert.match(text, /no changes were expected for preview but changes were proposed/);
      assert.match(text, /ConnectorConfiguration segmentConfig update/, "the update is the configuration's");
      assert.ok(!text.includes("rotated-by-a-colleague") && !text.includes(apiKey), "no Password in the output");

      const configures = callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE);
      await e2e.stack.up({ refresh: true });
      assert.equal(
        callsTo(await e2e.svc.service.stats(), CONFIGURE_ROUTE),
        configures + 1,
        "up re-applied the configuration once",
      );
      await e2e.stack.preview({ refresh: true, expectNoChanges: true });
    });
  });
}
