// Rate limiting per client id (token bucket), with the fake clock: exact
// answers, no timing.
import assert from "node:assert/strict";
import { expectEnvelope, harness, q, type Harness } from "../test/support/service";
import { routeKey } from "../contract/routes";

describe("service: rate limiting", () => {
  let h: Harness;
  afterEach(() => h.close());

  it("429 with Retry-After once a client's bucket is empty; refills with time; clients are apart", async () => {
    h = await harness({ rateLimitPerSecond: 3 });
    const first = await h.token(0); // takes one of the three
    const url = `/es/v2/connectors${q(h.account)}`;
    expectEnvelope(await h.call("GET", url, { token: first }), 200);
    expectEnvelope(await h.call("GET", url, { token: first }), 200);
    const limited = expectEnvelope(await h.call("GET", url, { token: first }), 429, /rate limit/);
    assert.equal(limited.response, null);
    const res = await h.call("GET", url, { token: first });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers["retry-after"], "1");
    // The other customer has its own bucket.
    const other = await h.token(1);
    expectEnvelope(
      await h.call("GET", `/es/v2/connectors${q(h.customers[1].subAccountIds[0])}`, { token: other }),
      200,
    );
    // One second later the bucket is full again.
    h.clock.now += 1000;
    expectEnvelope(await h.call("GET", url, { token: first }), 200);
    const stats = expectEnvelope<{ byRoute: Record<string, Record<string, number>> }>(
      await h.admin("GET", "/_admin/stats"),
      200,
    );
    assert.deepEqual(stats.response.byRoute[routeKey("listConnectors")], { "200": 4, "429": 2 });
  });

  it("limits token requests by the client id they name", async () => {
    h = await harness({ rateLimitPerSecond: 1 });
    await h.token(0);
    const res = await h.app.inject({
      method: "POST",
      url: "/es/v2/oauth/client-token",
      payload: { clientId: "demo-client", clientSecret: "demo-secret" },
    });
    expectEnvelope(res, 429);
    assert.equal(res.headers["retry-after"], "1");
  });

  it("0 turns it off", async () => {
    h = await harness({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 20; i++) expectEnvelope(await h.call("GET", `/es/v2/connectors${q(h.account)}`), 200);
  });
});
