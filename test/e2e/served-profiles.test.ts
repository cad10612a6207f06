// Issue 32, item 5: the README example under the real engine, on both hosts, against the local
// service serving each shipped profile (profiles/*.yaml; the built-in default is the other e2e
// suites' service). Per profile and host, one stack (S3 configured, Facebook added) set to the
// profile by `embedded:serviceProfile`: `up`; a clean drift check; a field changed out of band
// (through the profile's own wire) named by the drift check; `destroy` refused by the delete
// guard while a connection uses both connectors; `destroy` once it is gone. Five engine runs each.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { loadProfile, type ResolvedProfile } from "../../contract/profile";
import { WireClient } from "../../cli/doctor/wire-client";
import { itemsOf } from "../../cli/doctor/shapes";
import { E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue } from "./harness";
import { connectorsStack, e2eSuite, FACEBOOK, S3, storageFields, type E2EService } from "./fixtures";
import { pluginStack } from "./plugin-fixtures";
import { assertNoValue, assertQuiet, fieldsMarkedChanged, withoutStackOutputs } from "./drift-display";

const PROFILES = path.resolve(__dirname, "../../../profiles");
const S3_FIELDS = ["bucket", "accessKeyId", "secretAccessKey", "region"];

type Create = (
  svc: E2EService,
  name: string,
  config: Record<string, ProgramConfigValue>,
  secretConfig: Record<string, ProgramConfigValue>,
) => Promise<E2EStack>;
const HOSTS: { host: string; create: Create }[] = [
  { host: "dynamic provider", create: (svc, name, config, secrets) => connectorsStack(svc, name, config, secrets) },
  {
    host: "plugin",
    create: (svc, name, config, secretConfig) => pluginStack(svc, name, { config, secretConfig }),
  },
];

/** The out-of-band client under the profile: a colleague's console speaking the same wire. */
function outOfBand(svc: E2EService, profile: ResolvedProfile): WireClient {
  return new WireClient(profile, { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret: svc.clientSecret });
}

async function addedIds(client: WireClient, accountId: string): Promise<string[]> {
  const answer = await client.call("listAddedConnectors", { params: { accountId } });
  return (itemsOf(answer.body) ?? []).map((i) => (i as { connectorId: string }).connectorId).sort();
}

for (const file of ["documented-conventions.yaml", "account-in-path.yaml"]) {
  const profileFile = path.join(PROFILES, file);
  const profile = loadProfile(profileFile);
  for (const { host, create } of HOSTS) {
    describe(`e2e: ${host} against the ${profile.name} profile: the README example`, function () {
      this.timeout(ENGINE_TIMEOUT_MS);
      const s3Key = `profile-s3-key-${randomBytes(6).toString("hex")}`;
      const bucket = `bucket-${randomBytes(5).toString("hex")}`;
      let connectionId: string | undefined;
      let client: WireClient;
      const e2e = e2eSuite({
        service: { profile: profileFile },
        stack: (svc) =>
          create(
            svc,
            `profile-${profile.name}-${host.startsWith("plugin") ? "plugin" : "dynamic"}`,
            {
              "embedded:serviceProfile": profileFile,
              connectors: [
                { key: "s3", connectorId: S3 },
                { key: "facebook", connectorId: FACEBOOK },
              ],
              configurations: [
                {
                  key: "s3Config",
                  connectorId: S3,
                  after: "s3",
                  secretConfig: storageFields({ bucket }),
                  secretRefs: { secretAccessKey: "s3Key" },
                },
              ],
            },
            { secretValues: { s3Key } },
          ),
        setUp: async ({ svc }) => {
          client = outOfBand(svc, profile);
        },
        tearDown: async ({ svc }) => {
          if (connectionId) await svc.service.deleteConnection(connectionId).catch(() => undefined);
          await client.close();
        },
      });

      it("up adds both connectors and configures S3 through the profile's wire", async () => {
        const up = await e2e.stack.up();
        assert.equal(up.summary.result, "succeeded");
        assert.deepEqual(await addedIds(client, e2e.svc.accountId), [S3, FACEBOOK].sort());
      });

      it("right after up, the drift check is clean", async () => {
        assertQuiet((await e2e.stack.preview({ refresh: true, diff: true })).stdout, "the first drift check");
      });

      it("a field changed out of band is named by the drift check, with no value", async () => {
        const view = await client.call("getConfiguration", {
          params: { accountId: e2e.svc.accountId, connectorId: S3 },
        });
        const payload = (view.body as Record<string, unknown>)[profile.operations.getConfiguration.envelope.payload];
        const configurationId = (payload as { secretConfig: { configurationId: string }[] }).secretConfig[0]
          ?.configurationId;
        const changed = await client.call("configure", {
          params: { accountId: e2e.svc.accountId, connectorId: S3 },
          body: {
            configurationId,
            secretConfig: storageFields({ bucket: "changed-out-of-band", secretAccessKey: s3Key }),
          },
        });
        assert.ok(changed.status < 300, `out-of-band configure: ${changed.status}`);
        const stdout = withoutStackOutputs((await e2e.stack.preview({ refresh: true, diff: true })).stdout);
        assert.deepEqual(fieldsMarkedChanged(stdout, S3_FIELDS), ["bucket"], stdout);
        assertNoValue(stdout, [bucket, "changed-out-of-band", s3Key], "the drift check");
      });

      it("destroy while a connection uses both connectors: the delete guard's message, nothing removed", async () => {
        connectionId = await e2e.svc.service.createConnection(e2e.svc.accountId, S3, FACEBOOK);
        const text = await e2e.stack.expectFailure((s) => s.destroy());
        assert.ok(text.includes(S3) && text.includes(FACEBOOK), "names both connectors");
        assert.match(text, /srcConnections\D{0,3}1\b/);
        assert.match(text, /delete (those|the) connections/i);
        assert.deepEqual(await addedIds(client, e2e.svc.accountId), [S3, FACEBOOK].sort());
      });

      it("once the connection is gone, destroy empties the sub-account", async () => {
        assert.ok(connectionId);
        await e2e.svc.service.deleteConnection(connectionId);
        connectionId = undefined;
        assert.equal((await e2e.stack.destroy()).summary.result, "succeeded");
        assert.deepEqual(await addedIds(client, e2e.svc.accountId), []);
      });
    });
  }
}
