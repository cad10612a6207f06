// Get Access Token and bearer authentication: success, wrong credentials,
// missing/unknown/expired tokens (with a fake clock, no sleeping), hashing at rest.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expectEnvelope, harness, q, type Harness } from "../test/support/service";

const TOKEN_URL = "/es/v2/oauth/client-token";

describe("service: token", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ tokenTtlSeconds: 1 });
  });
  afterEach(() => h.close());

  it("issues a bare Bearer token with its lifetime", async () => {
    const res = await h.app.inject({
      method: "POST",
      url: TOKEN_URL,
      payload: { clientId: "demo-client", clientSecret: "demo-secret" },
    });
    assert.equal(res.statusCode, 200);
    assert.ok(res.headers["x-request-id"]);
    const body = res.json() as { accessToken: string; tokenType: string; expiry: number };
    assert.equal(body.tokenType, "Bearer");
    assert.equal(body.expiry, 1);
    // 256 random bits, base64url
    assert.equal(Buffer.from(body.accessToken, "base64url").length, 32);
    const second = await h.app.inject({
      method: "POST",
      url: TOKEN_URL,
      payload: { clientId: "demo-client", clientSecret: "demo-secret" },
    });
    assert.notEqual((second.json() as { accessToken: string }).accessToken, body.accessToken);
  });

  for (const [what, payload] of [
    ["a wrong secret", { clientId: "demo-client", clientSecret: "nope" }],
    ["an unknown client", { clientId: "nobody", clientSecret: "demo-secret" }],
    ["another customer's secret", { clientId: "demo-client", clientSecret: "other-secret" }],
  ] as const) {
    it(`refuses ${what} with a 401 envelope`, async () => {
      const res = await h.app.inject({ method: "POST", url: TOKEN_URL, payload });
      expectEnvelope(res, 401, /invalid client credentials/);
      assert.doesNotMatch(res.body, /demo-secret|other-secret|nope/);
    });
  }

  it("400 for a body without the fields, malformed JSON, 415 for non-JSON", async () => {
    expectEnvelope(await h.app.inject({ method: "POST", url: TOKEN_URL, payload: { clientId: "demo-client" } }), 400);
    expectEnvelope(
      await h.app.inject({
        method: "POST",
        url: TOKEN_URL,
        headers: { "content-type": "application/json" },
        payload: '{"clientId":',
      }),
      400,
      /malformed JSON/,
    );
    expectEnvelope(
      await h.app.inject({
        method: "POST",
        url: TOKEN_URL,
        headers: { "content-type": "text/plain" },
        payload: "demo-client:demo-secret",
      }),
      415,
    );
  });

  it("401 says whether the token is missing, malformed, unknown or expired", async () => {
    const url = `/es/v2/connectors${q(h.account)}`;
    expectEnvelope(await h.call("GET", url, { token: "" }), 401, /missing bearer token/);
    expectEnvelope(await h.call("GET", url, { token: "", headers: { authorization: "Basic abc" } }), 401, /malformed/);
    expectEnvelope(await h.call("GET", url, { token: "not-a-token" }), 401, /unknown access token/);
    const token = await h.token();
    expectEnvelope(await h.call("GET", url, { token }), 200);
    h.clock.now += 999;
    expectEnvelope(await h.call("GET", url, { token }), 200);
    h.clock.now += 1;
    expectEnvelope(await h.call("GET", url, { token }), 401, /access token expired/);
  });

  it("--client-id/--client-secret replace the first customer's credentials, keeping its accounts", async () => {
    const custom = await harness({ firstCustomer: { clientId: "acme", clientSecret: "acme-secret" } });
    try {
      expectEnvelope(
        await custom.app.inject({
          method: "POST",
          url: TOKEN_URL,
          payload: { clientId: "demo-client", clientSecret: "demo-secret" },
        }),
        401,
      );
      const token = await custom.token(0);
      assert.equal(custom.customers[0].subAccountIds[0], h.account);
      expectEnvelope(await custom.call("GET", `/es/v2/connectors${q(custom.account)}`, { token }), 200);
    } finally {
      await custom.close();
    }
  });

  it("stores neither client secrets nor tokens in clear", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecs-token-"));
    const file = path.join(dir, "s.db");
    const onFile = await harness({ db: file });
    try {
      const token = await onFile.token();
      await onFile.close();
      const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)))).toString(
        "latin1",
      );
      assert.ok(!bytes.includes("demo-secret"), "client secret in clear");
      assert.ok(!bytes.includes(token), "token in clear");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
