// Add, List Added and Remove: atomicity, alreadyAdded, concurrency, the
// connection guard (409 with counts) and that Remove drops the configuration.
import assert from "node:assert/strict";
import { addedIds, byName, expectEnvelope, harness, oauthBody, q, type Harness } from "../test/support/service";

type AddResult = {
  added: { connectorId: string; configured: boolean; env: string; editable: boolean }[];
  alreadyAdded: string[];
};
type Page<T> = { items: T[]; total: number };

const fb = byName("Facebook Custom Audiences");
const s3 = byName("Amazon S3");
const sf = byName("Salesforce CRM");

describe("service: added connectors", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  const add = (ids: unknown, account = h.account) =>
    h.call("POST", `/es/v2/connectors${q(account)}`, { payload: { connectorIds: ids } });

  it("adds connectors (view A) and lists ids already added without error", async () => {
    const first = expectEnvelope<AddResult>(await add([fb.connectorId, s3.connectorId]), 200);
    assert.deepEqual(first.response.added.map((a) => a.connectorId).sort(), [fb.connectorId, s3.connectorId].sort());
    assert.deepEqual(first.response.alreadyAdded, []);
    const view = first.response.added[0];
    assert.equal(view.configured, false);
    assert.equal(view.env, "production");
    assert.equal(view.editable, true);
    const again = expectEnvelope<AddResult>(await add([s3.connectorId, sf.connectorId]), 200);
    assert.deepEqual(
      again.response.added.map((a) => a.connectorId),
      [sf.connectorId],
    );
    assert.deepEqual(again.response.alreadyAdded, [s3.connectorId]);
    assert.deepEqual(await addedIds(h), [fb.connectorId, s3.connectorId, sf.connectorId].sort());
  });

  it("is atomic: one unknown id is a 404 and adds nothing", async () => {
    expectEnvelope(await add([fb.connectorId, "ffffffffffffffff"]), 404, /ffffffffffffffff/);
    assert.deepEqual(await addedIds(h), []);
  });

  for (const [what, ids] of [
    ["no ids", []],
    ["51 ids", Array.from({ length: 51 }, (_, i) => i.toString(16).padStart(16, "0"))],
    ["duplicate ids", [fb.connectorId, fb.connectorId]],
    ["a malformed id", ["short"]],
    ["no list", "nope"],
  ] as const) {
    it(`400 for ${what}, nothing added`, async () => {
      expectEnvelope(await add(ids), 400);
      assert.deepEqual(await addedIds(h), []);
    });
  }

  it("two parallel adds of the same id: one added, one alreadyAdded, one row", async () => {
    const [a, b] = await Promise.all([add([fb.connectorId]), add([fb.connectorId])]);
    const results = [expectEnvelope<AddResult>(a, 200).response, expectEnvelope<AddResult>(b, 200).response];
    assert.equal(results.filter((r) => r.added.length === 1).length, 1);
    assert.equal(results.filter((r) => r.alreadyAdded.length === 1).length, 1);
    const list = expectEnvelope<Page<unknown>>(await h.call("GET", `/es/v2/connectors/added${q(h.account)}`), 200);
    assert.equal(list.response.total, 1);
  });

  it("List Added Connectors filters and keeps sub-accounts apart", async () => {
    await add([fb.connectorId, s3.connectorId, sf.connectorId]);
    const sources = expectEnvelope<Page<{ supportedType: string }>>(
      await h.call("GET", `/es/v2/connectors/added${q(h.account, { supportedType: "Source" })}`),
      200,
    );
    assert.equal(sources.response.total, 2);
    assert.ok(sources.response.items.every((i) => i.supportedType === "Source"));
    const named = expectEnvelope<Page<unknown>>(
      await h.call("GET", `/es/v2/connectors/added${q(h.account, { name: "salesFORCE" })}`),
      200,
    );
    assert.equal(named.response.total, 1);
    assert.deepEqual(await addedIds(h, h.customers[0].subAccountIds[1]), []);
    assert.deepEqual(await addedIds(h, h.customers[1].subAccountIds[0], 1), []);
    expectEnvelope(await h.call("GET", `/es/v2/connectors/added${q(h.account, { pageSize: 999 })}`), 400);
  });

  it("Remove: removes, then 404 when not added or unknown", async () => {
    await add([fb.connectorId]);
    const body = expectEnvelope<{ removed: string }>(
      await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`),
      200,
    );
    assert.deepEqual(body.response, { removed: fb.connectorId });
    assert.deepEqual(await addedIds(h), []);
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`), 404, /not added/);
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/ffffffffffffffff${q(h.account)}`), 404);
  });

  it("Remove: 409 with the counts while connections use it, nothing removed; counts show in views A and S", async () => {
    await add([sf.connectorId, fb.connectorId]);
    const created = expectEnvelope<{ connectionId: string }>(
      await h.admin("POST", "/_admin/connections", {
        accountId: h.account,
        sourceConnectorId: sf.connectorId,
        destinationConnectorId: fb.connectorId,
      }),
      200,
    );
    const refused = expectEnvelope<{ srcConnections: number; destConnections: number }>(
      await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`),
      409,
      /connections/,
    );
    assert.deepEqual(refused.response, { srcConnections: 0, destConnections: 1 });
    assert.deepEqual(await addedIds(h), [fb.connectorId, sf.connectorId].sort());
    const listed = expectEnvelope<Page<{ connectorId: string; srcConnections: number }>>(
      await h.call("GET", `/es/v2/connectors/added${q(h.account)}`),
      200,
    );
    assert.equal(listed.response.items.find((i) => i.connectorId === sf.connectorId)?.srcConnections, 1);
    const supported = expectEnvelope<Page<{ connectorId: string; destConnections: number }>>(
      await h.call("GET", `/es/v2/connectors/supported${q(h.account, { connectorId: sf.connectorId, pageSize: 200 })}`),
      200,
    );
    assert.equal(supported.response.items.find((i) => i.connectorId === fb.connectorId)?.destConnections, 1);

    expectEnvelope(await h.admin("DELETE", `/_admin/connections/${created.response.connectionId}`), 200);
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`), 200);
  });

  it("Remove drops the saved configuration", async () => {
    await add([fb.connectorId]);
    expectEnvelope(
      await h.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`, {
        payload: oauthBody(fb),
      }),
      200,
    );
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`), 200);
    await add([fb.connectorId]);
    const config = expectEnvelope<{
      configured: boolean;
      lastUpdated: number;
      configuration: { id: string; value?: string }[];
    }>(await h.call("GET", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`), 200);
    assert.equal(config.response.configured, false);
    assert.equal(config.response.lastUpdated, 0);
    assert.equal(config.response.configuration.find((f) => f.id === "adAccountId")?.value, undefined);
  });
});
