// The service refuses every public route of its OpenAPI document (table-driven from
// service/openapi.json) without a token, with an expired token, and with another customer's
// token on a foreign sub-account; and it keeps no token, client secret or Password value in
// clear in its database file.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { addedIds, byName, expectEnvelope, harness, oauthBody, q, type Harness } from "../test/support/service";

interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
}
const doc = JSON.parse(fs.readFileSync(path.join(__dirname, "../../service/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
};
const fb = byName("Facebook Custom Audiences");
const CANARY_PASSWORD = "canary-password-7f3a9c";

/** Every operation the document protects with the bearer scheme, as a concrete request. */
const ROUTES = Object.entries(doc.paths).flatMap(([template, methods]) =>
  Object.entries(methods)
    .filter(([, op]) => (op.security ?? []).length > 0)
    .map(([method, op]) => {
      const upper = method.toUpperCase() as "GET" | "POST" | "PUT" | "DELETE";
      const extra: Record<string, string> = {};
      for (const p of op.parameters ?? [])
        if (p.in === "query" && p.required && p.name !== "accountId") extra[p.name] = fb.connectorId;
      const payload =
        upper === "POST"
          ? { connectorIds: [fb.connectorId] }
          : upper === "PUT"
            ? oauthBody(fb, { clientSecret: CANARY_PASSWORD })
            : undefined;
      return {
        name: `${upper} ${template}`,
        method: upper,
        path: template.replace("{connectorId}", fb.connectorId),
        extra,
        payload,
      };
    }),
);

describe("security: every protected route of the OpenAPI document refuses", () => {
  let h: Harness;
  before(async () => {
    h = await harness({ tokenTtlSeconds: 60 });
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
  });
  after(() => h.close());

  it("covers the document's eight protected operations", () => {
    assert.equal(ROUTES.length, 8, ROUTES.map((r) => r.name).join(", "));
  });

  for (const r of ROUTES) {
    it(`${r.name}: no token, expired token, another customer on a foreign sub-account`, async () => {
      const url = `${r.path}${q(h.account, r.extra)}`;
      expectEnvelope(await h.call(r.method, url, { token: "", payload: r.payload }), 401);
      expectEnvelope(await h.call(r.method, url, { token: "Bearer-garbage", payload: r.payload }), 401);
      const other = await h.token(1);
      expectEnvelope(await h.call(r.method, url, { token: other, payload: r.payload }), 403);
      const otherAccount = h.customers[1].subAccountIds[0];
      const mine = await h.token(0);
      expectEnvelope(
        await h.call(r.method, `${r.path}${q(otherAccount, r.extra)}`, { token: mine, payload: r.payload }),
        403,
      );
      // A token that was valid, then expired: fresh tokens from a clean harness clock.
      const res = await h.app.inject({
        method: "POST",
        url: "/es/v2/oauth/client-token",
        payload: { clientId: h.customers[0].clientId, clientSecret: h.customers[0].clientSecret },
      });
      const token = (res.json() as { accessToken: string }).accessToken;
      h.clock.now += 61_000;
      try {
        expectEnvelope(await h.call(r.method, url, { token, payload: r.payload }), 401, /expired/);
      } finally {
        h.clock.now -= 61_000;
      }
    });
  }

  it("nothing changed after all those refusals", async () => {
    assert.deepEqual(await addedIds(h), [fb.connectorId]);
    assert.deepEqual(await addedIds(h, h.customers[1].subAccountIds[0], 1), []);
  });
});

describe("security: the database file holds no token, client secret or Password value in clear", () => {
  it("after a token, a configuration with a Password and a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecs-security-"));
    const secret = "client-secret-canary-93b1";
    const h = await harness({
      db: path.join(dir, "s.db"),
      firstCustomer: { clientId: "canary-client", clientSecret: secret },
    });
    try {
      const token = await h.token();
      expectEnvelope(
        await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
        200,
      );
      expectEnvelope(
        await h.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`, {
          payload: oauthBody(fb, { clientSecret: CANARY_PASSWORD }),
        }),
        200,
      );
      await h.close();
      const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))));
      for (const [what, value] of [
        ["client secret", secret],
        ["token", token],
        ["Password value", CANARY_PASSWORD],
      ] as const) {
        for (const encoding of ["utf8", "utf16le"] as const) {
          assert.equal(bytes.indexOf(Buffer.from(value, encoding)), -1, `${what} in clear (${encoding})`);
        }
        assert.equal(bytes.indexOf(Buffer.from(value).toString("base64")), -1, `${what} in base64`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
