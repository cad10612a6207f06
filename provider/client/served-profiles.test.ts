// The provider's client against the local service serving each shipped
// profile (and the built-in default), with that profile: every list read whole, whatever its
// container and paging, and the connector's life (add, configure, read, remove) round-trips.
import assert from "node:assert/strict";
import path from "node:path";
import { DEFAULT_PROFILE, loadProfile, resolveProfile, type ResolvedProfile } from "../../contract/profile";
import { closeClients, collect, getClient } from "./";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { CATALOGUE } from "../../service/seed/catalogue";

const PROFILES = path.resolve(__dirname, "../../../profiles");
/** A service whose pages count from 0: `paging.firstPage: 0`. */
const PAGES_FROM_0 = {
  defaults: {
    paging: { style: "page" as const, page: "page", pageSize: "pageSize", maxSize: 200, firstPage: 0 as const },
  },
};
const SEGMENT = CATALOGUE.find((c) => c.name === "Segment");
const CASES: [string, () => ResolvedProfile][] = [
  ["default", () => DEFAULT_PROFILE],
  ["documented-conventions", () => loadProfile(path.join(PROFILES, "documented-conventions.yaml"))],
  ["account-in-path", () => loadProfile(path.join(PROFILES, "account-in-path.yaml"))],
  ["example", () => loadProfile(path.join(PROFILES, "example.yaml"))],
  ["pages-from-0", () => resolveProfile(PAGES_FROM_0, "pages-from-0")],
];

for (const [name, load] of CASES) {
  describe(`client: the local service serving the ${name} profile`, function () {
    this.timeout(60_000);
    let service: LocalService;
    let profile: ResolvedProfile;
    before(async () => {
      profile = load();
      service = await startLocalService({ profile, extraConnectors: 120 });
    });
    after(async () => {
      await closeClients();
      await service.stop();
    });

    const client = () => {
      const { clientId, clientSecret } = service.customers[0];
      return getClient({ baseUrl: service.baseUrl, clientId, clientSecret, pageSize: 7, profile });
    };

    it("reads the whole catalogue over many pages, each connector once", async () => {
      const account = service.customers[0].subAccountIds[0];
      const all = await collect(client().listConnectors(account));
      assert.equal(all.length, CATALOGUE.length + 120);
      assert.equal(new Set(all.map((c) => c.connectorId)).size, all.length);
    });

    it("adds, configures, reads, lists and removes a connector", async () => {
      assert.ok(SEGMENT);
      const account = service.customers[0].subAccountIds[1];
      const c = client();
      await c.addConnectors(account, [SEGMENT.connectorId]);
      const added = await collect(c.listAddedConnectors(account));
      assert.deepEqual(
        added.map((a) => a.connectorId),
        [SEGMENT.connectorId],
      );
      await c.configure(account, SEGMENT.connectorId, {
        configurationId: SEGMENT.secretConfiguration.configurationId,
        secretConfig: { apiKey: "k", workspace: "acme", dataCenter: "EU", batchSize: 10, eventTypes: ["track"] },
      });
      const view = await c.getConfiguration(account, SEGMENT.connectorId);
      assert.equal(view.configured, true);
      assert.equal(view.configuration.find((f) => f.id === "workspace")?.value, "acme");
      const supported = await collect(c.listSupportedConnectors(account, SEGMENT.connectorId));
      assert.ok(supported.length > 0);
      await c.removeConnector(account, SEGMENT.connectorId);
      assert.deepEqual(await collect(c.listAddedConnectors(account)), []);
    });
  });
}

describe("client: the built-in profile against a service that ignores page/pageSize", function () {
  this.timeout(60_000);
  let service: LocalService;
  before(async () => {
    service = await startLocalService({ profile: path.join(PROFILES, "documented-conventions.yaml") });
  });
  after(async () => {
    await closeClients();
    await service.stop();
  });

  it("refuses to take the service's own default page for the whole list, naming doctor", async () => {
    const { clientId, clientSecret, subAccountIds } = service.customers[0];
    const client = getClient({ baseUrl: service.baseUrl, clientId, clientSecret, pageSize: 7 });
    await assert.rejects(collect(client.listConnectors(subAccountIds[0] as string)), /doctor/);
  });
});

describe("client: pages counted from 1 against a service whose pages count from 0", function () {
  this.timeout(60_000);
  let service: LocalService;
  before(async () => {
    service = await startLocalService({ profile: resolveProfile(PAGES_FROM_0, "pages-from-0") });
  });
  after(async () => {
    await closeClients();
    await service.stop();
  });

  it("refuses the list (its first page never comes), never reads it as whole without it", async () => {
    const { clientId, clientSecret, subAccountIds } = service.customers[0];
    const client = getClient({ baseUrl: service.baseUrl, clientId, clientSecret, pageSize: 7 });
    await assert.rejects(
      collect(client.listConnectors(subAccountIds[0] as string)),
      (error: Error) =>
        /^GET \/es\/v2\/connectors: .*(the total says \d+|which page comes next cannot be told)/.test(error.message) &&
        /pulumi-embedded-connectors doctor/.test(error.message),
    );
  });
});
