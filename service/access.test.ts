// The error table rows every connector route shares: 401, missing accountId,
// the organization account, another customer's (or an unknown) sub-account;
// plus x-request-id everywhere, unknown routes, 413, 415, malformed JSON.
import assert from "node:assert/strict";
import { addedIds, byName, expectEnvelope, harness, oauthBody, q, type Harness } from "../test/support/service";

const fb = byName("Facebook Custom Audiences");

type Route = {
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  extra?: Record<string, string>;
  payload?: unknown;
};
const ROUTES: Route[] = [
  { name: "List Connectors", method: "GET", path: "/es/v2/connectors" },
  { name: "Add Connector", method: "POST", path: "/es/v2/connectors", payload: { connectorIds: [fb.connectorId] } },
  { name: "List Added Connectors", method: "GET", path: "/es/v2/connectors/added" },
  {
    name: "List Supported Connectors",
    method: "GET",
    path: "/es/v2/connectors/supported",
    extra: { connectorId: fb.connectorId },
  },
  { name: "Get Connector", method: "GET", path: `/es/v2/connectors/${fb.connectorId}` },
  { name: "Get Connector Configuration", method: "GET", path: `/es/v2/connectors/${fb.connectorId}/configuration` },
  {
    name: "Configure Connector",
    method: "PUT",
    path: `/es/v2/connectors/${fb.connectorId}/configuration`,
    payload: oauthBody(fb),
  },
  { name: "Remove Connector", method: "DELETE", path: `/es/v2/connectors/${fb.connectorId}` },
];

describe("service: access rules of every connector route", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
    // Something to lose: fb added and configured in the first customer's first sub-account.
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
    expectEnvelope(
      await h.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`, {
        payload: oauthBody(fb),
      }),
      200,
    );
  });
  after(() => h.close());

  const url = (r: Route, accountId?: string) =>
    `${r.path}${accountId === undefined ? (r.extra ? `?${new URLSearchParams(r.extra)}` : "") : q(accountId, r.extra)}`;

  for (const r of ROUTES) {
    describe(r.name, () => {
      it("401 without a token, and with an unknown one", async () => {
        expectEnvelope(
          await h.call(r.method, url(r, h.account), { token: "", payload: r.payload }),
          401,
          /missing bearer token/,
        );
        expectEnvelope(
          await h.call(r.method, url(r, h.account), { token: "bogus", payload: r.payload }),
          401,
          /unknown access token/,
        );
      });
      it("400 without accountId", async () => {
        const body = expectEnvelope(
          await h.call(r.method, url(r), { payload: r.payload }),
          400,
          /accountId is required/,
        );
        assert.deepEqual(
          body.errors?.map((e) => e.field),
          ["accountId"],
        );
      });
      it("400 for the customer's organization account", async () => {
        expectEnvelope(
          await h.call(r.method, url(r, h.customers[0].organizationAccountId), { payload: r.payload }),
          400,
          /connectors are managed only in sub-accounts/,
        );
      });
      it("403 for another customer's sub-account or organization, and for an unknown account", async () => {
        const other = h.customers[1];
        for (const account of [other.subAccountIds[0], other.organizationAccountId, "0123456789abcdef"]) {
          expectEnvelope(await h.call(r.method, url(r, account), { payload: r.payload }), 403);
        }
        // The other customer's own view of the same sub-account is untouched.
        assert.deepEqual(await addedIds(h, other.subAccountIds[0], 1), []);
      });
    });
  }

  // A nested suite, so that it runs after the per-route suites above (mocha runs a suite's own tests first).
  describe("afterwards", () => {
    it("nothing changed after all those refusals", async () => {
      assert.deepEqual(await addedIds(h), [fb.connectorId]);
      const config = expectEnvelope<{ configured: boolean }>(
        await h.call("GET", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`),
        200,
      );
      assert.equal(config.response.configured, true);
    });
  });

  it("customers are isolated: the second customer cannot see or touch the first's sub-accounts", async () => {
    const token = await h.token(1);
    expectEnvelope(await h.call("GET", `/es/v2/connectors/added${q(h.account)}`, { token }), 403);
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`, { token }), 403);
    const own = h.customers[1].subAccountIds[1];
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(own)}`, { token, payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
    assert.deepEqual(await addedIds(h, own, 1), [fb.connectorId]);
    assert.deepEqual(await addedIds(h), [fb.connectorId]);
  });

  it("x-request-id on every answer, echoing a well-formed one the caller sent", async () => {
    const res = await h.call("GET", `/es/v2/connectors${q(h.account)}`, { headers: { "x-request-id": "trace-42" } });
    assert.equal(res.headers["x-request-id"], "trace-42");
    const bad = await h.call("GET", `/es/v2/connectors${q(h.account)}`, {
      headers: { "x-request-id": "bad id\twith tab" },
    });
    assert.notEqual(bad.headers["x-request-id"], "bad id\twith tab");
    assert.ok(bad.headers["x-request-id"]);
  });

  it("404 envelope for an unknown route", async () => {
    for (const [method, path] of [
      ["GET", "/es/v2/nothing"],
      ["POST", "/"],
      ["PATCH", `/es/v2/connectors/${fb.connectorId}`],
    ] as const) {
      expectEnvelope(await h.call(method, path), 404, /route not found/);
    }
  });

  it("400 malformed JSON, 415 non-JSON body, 413 body over 1 MiB; nothing added", async () => {
    const add = `/es/v2/connectors${q(h.customers[0].subAccountIds[1])}`;
    const json = { "content-type": "application/json" };
    expectEnvelope(await h.call("POST", add, { headers: json, payload: '{"connectorIds": [' }), 400, /malformed JSON/);
    expectEnvelope(
      await h.call("POST", add, { headers: { "content-type": "text/plain" }, payload: "connectorIds" }),
      415,
    );
    expectEnvelope(
      await h.call("POST", add, { headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "a=b" }),
      415,
    );
    const big = JSON.stringify({ connectorIds: [fb.connectorId], padding: "x".repeat(1024 * 1024) });
    expectEnvelope(await h.call("POST", add, { headers: json, payload: big }), 413);
    assert.deepEqual(await addedIds(h, h.customers[0].subAccountIds[1]), []);
  });
});
