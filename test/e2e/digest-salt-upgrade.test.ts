// A state written by the previous version
// (its ConnectorConfiguration's digests under the unsalted key, no `digestSalt`) refreshes and
// previews with no false drift and no failure; the next write salts it, and the drift check
// stays clean. The previous version's state is made from this version's by rewriting the
// digests with the previous derivation (written out in the test, not taken from the provider).
import { strict as assert } from "node:assert";
import { createHmac, randomBytes, scryptSync } from "node:crypto";
import { E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue } from "./harness";
import { connectorsStack, type E2EService, e2eSuite, SEGMENT } from "./fixtures";
import { pluginStack } from "./plugin-fixtures";
import { canonicalValue } from "../../provider/connector-configuration/field-digests";

type Outputs = Record<string, unknown>;
interface DeployedResource {
  type: string;
  inputs?: Outputs;
  outputs?: Outputs;
}

/** The previous version's digest of one field: scrypt under a constant salt, then HMAC. */
function previousVersion(clientSecret: string): {
  id: string;
  digest: (accountId: string, field: string, value: unknown) => string;
} {
  const key = scryptSync(clientSecret, "pulumi-embedded-connectors/field-digest-key/v1", 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  const id = createHmac("sha256", key).update("pulumi-embedded-connectors/field-digest-key-id/v1").digest("hex");
  return {
    id: id.slice(0, 12),
    digest: (accountId, field, value) => {
      const rule = typeof value === "number" ? "number" : Array.isArray(value) ? "list" : "string";
      const message = JSON.stringify([accountId, SEGMENT, field, canonicalValue(value, rule)]);
      return createHmac("sha256", key).update(message).digest("hex").slice(0, 16);
    },
  };
}

const PROGRAM = { workspace: "acme", dataCenter: "EU", eventTypes: ["track", "identify"], batchSize: 500 };

/** `saltInput`: the plugin keeps its salt in a hidden secret input, the dynamic host in an output. */
const hosts: {
  host: string;
  saltInput: boolean;
  create(
    svc: E2EService,
    config: Record<string, ProgramConfigValue>,
    secrets: Record<string, ProgramConfigValue>,
  ): Promise<E2EStack>;
}[] = [
  {
    host: "dynamic provider",
    saltInput: false,
    create: (svc, config, secretValues) => connectorsStack(svc, "salt-upgrade-dynamic", config, secretValues),
  },
  {
    host: "plugin",
    saltInput: true,
    create: (svc, config, secretValues) =>
      pluginStack(svc, "salt-upgrade-plugin", { config, secretConfig: secretValues }),
  },
];

const configOf = (workspace: string): Record<string, ProgramConfigValue> => ({
  connectors: [{ key: "segment", connectorId: SEGMENT }],
  configurations: [
    {
      key: "segmentConfig",
      connectorId: SEGMENT,
      after: "segment",
      secretConfig: { ...PROGRAM, workspace },
      secretRefs: { apiKey: "segmentKey" },
    },
  ],
});

for (const { host, saltInput, create } of hosts) {
  describe(`e2e: ${host}: a state written before digest salts`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const apiKey = `salt-key-${randomBytes(6).toString("hex")}`;
    const e2e = e2eSuite({
      stack: (svc) => create(svc, configOf(PROGRAM.workspace), { secretValues: { segmentKey: apiKey } }),
      setUp: async ({ stack }) => {
        await stack.up();
      },
    });

    const resourceOf = async (): Promise<DeployedResource> => {
      const deployment = (await e2e.stack.stack.exportStack()).deployment as { resources: DeployedResource[] };
      const found = deployment.resources.find((r) => r.type.endsWith("ConnectorConfiguration"));
      assert.ok(found?.outputs, "the state holds the ConnectorConfiguration");
      return found;
    };
    const configuration = async (): Promise<Outputs> => (await resourceOf()).outputs ?? {};
    /** The salt this version writes (encrypted in the export): the plugin's input, or the dynamic host's output. */
    const assertSalted = async (what: string) => {
      const { inputs, outputs } = await resourceOf();
      const [where, other] = saltInput ? [inputs?.__digestSalt, outputs?.digestSalt] : [outputs?.digestSalt, undefined];
      // A secret of the state (Automation's export decrypts it: `plaintext` beside the engine's mark).
      const secret = (where ?? {}) as Record<string, unknown>;
      assert.equal(secret["4dabf18193072939515e22adb298388d"], "1b47061264138c4ac30d75fd1eb44270", `${what}: a secret`);
      assert.match(String(secret.plaintext ?? secret.ciphertext), /[0-9a-f]{32}/, `${what}: the salt is kept`);
      assert.equal(other, undefined, `${what}: the plugin's outputs hold no salt`);
    };

    it("the previous version's state: refresh and preview show no change and no drift", async () => {
      await assertSalted("this version's state");
      // Rewrite it as the previous version wrote it.
      const before = previousVersion(e2e.svc.clientSecret);
      const exported = await e2e.stack.stack.exportStack();
      const deployment = exported.deployment as { resources: DeployedResource[] };
      const resource = deployment.resources.find((r) => r.type.endsWith("ConnectorConfiguration"));
      assert.ok(resource?.outputs);
      const accountId = String(resource.outputs.accountId);
      const legacyDigests: Record<string, string> = {};
      for (const [field, value] of Object.entries({ ...PROGRAM, apiKey }))
        legacyDigests[field] = before.digest(accountId, field, value);
      const { digestSalt: _salt, ...rest } = resource.outputs;
      resource.outputs = { ...rest, fieldDigests: legacyDigests, digestKeyId: before.id };
      const { __digestSalt: _inputSalt, ...inputs } = resource.inputs ?? {};
      resource.inputs = inputs;
      await e2e.stack.stack.importStack(exported);

      await e2e.stack.preview({ refresh: true, expectNoChanges: true });
      await e2e.stack.refresh();
      const refreshed = await configuration();
      assert.equal(refreshed.drift, "");
      assert.deepEqual(refreshed.fieldDigests, legacyDigests, "the previous digests are kept, not rewritten");
      assert.equal(refreshed.digestKeyId, before.id);
      assert.equal(refreshed.digestSalt, undefined);
      await e2e.stack.preview({ expectNoChanges: true });
    });

    it("the next write salts it; the drift check stays clean", async () => {
      await e2e.stack.setConfig(configOf("acme-renamed"));
      const up = await e2e.stack.up();
      assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));
      await assertSalted("the next write");
      await e2e.stack.preview({ refresh: true, expectNoChanges: true });
    });
  });
}
