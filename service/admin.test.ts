// The admin surface: present only with a key, key checked, customers without
// secrets, connections, stats, faults validation, reset.
import assert from "node:assert/strict";
import { ADMIN_KEY, byName, expectEnvelope, harness, q, type Harness } from "../test/support/service";
import { routeKey } from "../contract/routes";

const fb = byName("Facebook Custom Audiences");
const sf = byName("Salesforce CRM");

describe("service: admin API", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it("does not exist without an admin key", async () => {
    const bare = await harness({ adminKey: undefined });
    try {
      expectEnvelope(
        await bare.app.inject({ method: "GET", url: "/_admin/customers", headers: { "x-admin-key": "" } }),
        404,
      );
    } finally {
      await bare.close();
    }
  });

  it("401 without the key or with a wrong one", async () => {
    expectEnvelope(await h.app.inject({ method: "GET", url: "/_admin/customers" }), 401);
    expectEnvelope(
      await h.app.inject({ method: "GET", url: "/_admin/stats", headers: { "x-admin-key": `${ADMIN_KEY}x` } }),
      401,
    );
    expectEnvelope(await h.app.inject({ method: "POST", url: "/_admin/reset", headers: { "x-admin-key": "k" } }), 401);
  });

  it("lists customers with their accounts and never their secrets", async () => {
    const res = await h.admin("GET", "/_admin/customers");
    const body = expectEnvelope<{ clientId: string; organizationAccountId: string; subAccountIds: string[] }[]>(
      res,
      200,
    );
    assert.deepEqual(
      body.response,
      h.customers.map(({ clientId, organizationAccountId, subAccountIds }) => ({
        clientId,
        organizationAccountId,
        subAccountIds,
      })),
    );
    assert.doesNotMatch(res.body, /secret/i);
  });

  it("connections: both connectors must be added; a sub-account; unknown ids 404", async () => {
    const body = { accountId: h.account, sourceConnectorId: sf.connectorId, destinationConnectorId: fb.connectorId };
    expectEnvelope(await h.admin("POST", "/_admin/connections", body), 404, /not added/);
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, {
        payload: { connectorIds: [sf.connectorId, fb.connectorId] },
      }),
      200,
    );
    expectEnvelope(
      await h.admin("POST", "/_admin/connections", { ...body, accountId: h.customers[0].organizationAccountId }),
      400,
    );
    expectEnvelope(await h.admin("POST", "/_admin/connections", { ...body, accountId: "0123456789abcdef" }), 404);
    expectEnvelope(await h.admin("POST", "/_admin/connections", { ...body, sourceConnectorId: "x" }), 400);
    const created = expectEnvelope<{ connectionId: string }>(await h.admin("POST", "/_admin/connections", body), 200);
    assert.match(created.response.connectionId, /^[0-9a-f]{16}$/);
    expectEnvelope(await h.admin("DELETE", `/_admin/connections/${created.response.connectionId}`), 200);
    expectEnvelope(await h.admin("DELETE", `/_admin/connections/${created.response.connectionId}`), 404);
  });

  it("stats count requests by route pattern and status, and token requests", async () => {
    await h.token();
    await h.call("GET", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`);
    await h.call("GET", `/es/v2/connectors/ffffffffffffffff${q(h.account)}`);
    await h.call("GET", "/nowhere");
    const stats = expectEnvelope<{ byRoute: Record<string, Record<string, number>>; tokenRequests: number }>(
      await h.admin("GET", "/_admin/stats"),
      200,
    ).response;
    assert.deepEqual(stats, {
      byRoute: {
        [routeKey("getToken")]: { "200": 1 },
        [routeKey("getConnector")]: { "200": 1, "404": 1 },
        "GET <unmatched>": { "404": 1 },
      },
      tokenRequests: 1,
    });
  });

  it("faults: a bad setting is a 400 and changes nothing; a good one is echoed", async () => {
    expectEnvelope(await h.admin("PUT", "/_admin/faults", { rules: [{ mode: "explode" }] }), 400);
    expectEnvelope(await h.admin("PUT", "/_admin/faults", { rules: [{ mode: "error", rate: 2 }] }), 400);
    assert.deepEqual(expectEnvelope(await h.admin("GET", "/_admin/faults"), 200).response, { rules: [] });
    const set = { rules: [{ route: routeKey("listConnectors"), mode: "error", status: 503, count: 1 }] };
    assert.deepEqual(expectEnvelope(await h.admin("PUT", "/_admin/faults", set), 200).response, set);
  });

  it("reset goes back to the seed: added connectors, configurations, connections, stats and faults", async () => {
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, {
        payload: { connectorIds: [sf.connectorId, fb.connectorId] },
      }),
      200,
    );
    expectEnvelope(
      await h.admin("POST", "/_admin/connections", {
        accountId: h.account,
        sourceConnectorId: sf.connectorId,
        destinationConnectorId: fb.connectorId,
      }),
      200,
    );
    expectEnvelope(
      await h.admin("PUT", "/_admin/faults", { rules: [{ mode: "error", route: routeKey("addConnectors") }] }),
      200,
    );
    expectEnvelope(await h.admin("POST", "/_admin/reset"), 200);
    const stats = expectEnvelope<{ byRoute: object; tokenRequests: number }>(
      await h.admin("GET", "/_admin/stats"),
      200,
    ).response;
    assert.deepEqual(stats, { byRoute: {}, tokenRequests: 0 });
    // The token survives a reset, the faults do not.
    const list = expectEnvelope<{ total: number }>(await h.call("GET", `/es/v2/connectors/added${q(h.account)}`), 200);
    assert.equal(list.response.total, 0);
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`), 200);
  });
});
