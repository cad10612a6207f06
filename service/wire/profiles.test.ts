// The local service serves a profile. Under each shipped profile its routes
// are the profile's (the contract's paths answer 404), its lists come in the profile's
// container and honour only the profile's paging, and its answers and refusals take the
// profile's shapes and semantics.
import assert from "node:assert/strict";
import path from "node:path";
import { loadProfile, type ResolvedProfile } from "../../contract/profile";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { WireClient } from "../../provider/doctor/wire-client";
import { byName } from "../../test/support/service";

const PROFILES = path.resolve(__dirname, "../../../profiles");
const S3 = byName("Amazon S3");
const SEGMENT = byName("Segment");

async function serve(file: string): Promise<{ service: LocalService; client: WireClient; account: string }> {
  const profile = loadProfile(path.join(PROFILES, file));
  const service = await startLocalService({ profile });
  const { clientId, clientSecret, subAccountIds } = service.customers[0];
  const client = new WireClient(profile, { baseUrl: service.baseUrl, clientId, clientSecret });
  return { service, client, account: subAccountIds[0] };
}

describe("service: documented-conventions profile", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  before(async () => (s = await serve("documented-conventions.yaml")));
  after(async () => s.service.stop());

  it("lists answer a bare array paged by size/offset, ignoring page/pageSize", async () => {
    const first = await s.client.call("listConnectors", { params: { accountId: s.account }, rawQuery: { size: 3 } });
    assert.equal(first.status, 200);
    const items = (first.body as { response: unknown }).response;
    assert.ok(Array.isArray(items) && items.length === 3, "a bare array of the size asked");
    const second = await s.client.call("listConnectors", {
      params: { accountId: s.account },
      rawQuery: { size: 3, offset: 3 },
    });
    const next = (second.body as { response: { connectorId: string }[] }).response;
    assert.notEqual(next[0]?.connectorId, (items as { connectorId: string }[])[0]?.connectorId);
    const ignored = await s.client.call("listConnectors", {
      params: { accountId: s.account },
      rawQuery: { page: 2, pageSize: 3 },
    });
    assert.equal((ignored.body as { response: unknown[] }).response.length, 50, "its own default page");
  });

  it("refusals come inside a 2xx; Get Configuration is a 404 before Add; Add and Remove answer no body", async () => {
    const before = await s.client.call("getConfiguration", {
      params: { accountId: s.account, connectorId: S3.connectorId },
    });
    assert.equal(before.status, 200);
    assert.equal((before.body as { statusCode: number }).statusCode, 404);
    const add = await s.client.call("addConnectors", {
      params: { accountId: s.account },
      body: { connectorIds: [S3.connectorId] },
    });
    assert.deepEqual(add.body, { statusCode: 200, statusMessage: "OK" });
    const again = await s.client.call("addConnectors", {
      params: { accountId: s.account },
      body: { connectorIds: [S3.connectorId] },
    });
    assert.equal((again.body as { statusCode: number }).statusCode, 200, "adding twice is no refusal");
    const read = await s.client.call("getConfiguration", {
      params: { accountId: s.account, connectorId: S3.connectorId },
    });
    assert.equal((read.body as { statusCode: number }).statusCode, 200);
    const removed = await s.client.call("removeConnector", {
      params: { accountId: s.account, connectorId: S3.connectorId },
    });
    assert.deepEqual(removed.body, { statusCode: 200, statusMessage: "OK" });
  });
});

describe("service: account-in-path profile", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  let profile: ResolvedProfile;
  before(async () => {
    s = await serve("account-in-path.yaml");
    profile = s.client.profile;
  });
  after(async () => s.service.stop());

  it("serves its own paths with the sub-account in the path, and not the contract's", async () => {
    assert.match(profile.operations.listAddedConnectors.path, /\{accountId\}/);
    const res = await fetch(`${s.service.baseUrl}/es/v2/connectors?accountId=${s.account}`);
    assert.equal(res.status, 404);
    const list = await s.client.call("listConnectors", {
      params: { accountId: s.account },
      rawQuery: { limit: 2, offset: 4 },
    });
    assert.equal(list.status, 200);
    assert.match(list.path, new RegExp(`/accounts/${s.account}/catalogue$`));
    const body = list.body as { code: number; message: string; data: { items: unknown[]; total: number } };
    assert.equal(body.code, 200);
    assert.equal(body.data.items.length, 2);
    assert.ok(body.data.total > 4);
  });

  it("configures through POST …/config with sourceConfig; another customer's sub-account in the path is refused", async () => {
    await s.client.call("addConnectors", {
      params: { accountId: s.account },
      body: { connectorIds: [SEGMENT.connectorId] },
    });
    const configured = await s.client.call("configure", {
      params: { accountId: s.account, connectorId: SEGMENT.connectorId },
      body: {
        configurationId: SEGMENT.secretConfiguration.configurationId,
        secretConfig: { apiKey: "k-1", workspace: "acme", dataCenter: "EU", batchSize: 10, eventTypes: ["track"] },
      },
    });
    assert.equal(configured.status, 200, JSON.stringify(configured.body));
    assert.equal((configured.body as { data: { configured: boolean } }).data.configured, true);
    const other = s.service.customers[1].subAccountIds[0];
    const refused = await s.client.call("listAddedConnectors", { params: { accountId: other } });
    assert.equal(refused.status, 403);
    assert.equal((refused.body as { code: number }).code, 403);
  });
});
