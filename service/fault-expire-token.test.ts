// The `expireToken` fault: the service stops honouring the caller's token before the lifetime
// it announced, so the client's 401 renewal (not only its early renewal) can be tested end
// to end (test/e2e/token-expiry.test.ts).
import assert from "node:assert/strict";
import { FaultInjector } from "./faults";
import { expectEnvelope, harness, q, type Harness } from "../test/support/service";
import { routeKey } from "../contract/routes";

const LIST = routeKey("listConnectors");

describe("service: expireToken fault", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ tokenTtlSeconds: 3600 });
  });
  afterEach(() => h.close());

  it("is a fault mode with a count, like the others", () => {
    const f = new FaultInjector({ rules: [{ route: LIST, mode: "expireToken", count: 1 }] });
    assert.deepEqual([f.decide(LIST).action, f.decide(LIST).action], [{ kind: "expireToken" }, undefined]);
  });

  it("refuses the hit request and every later use of that token as expired; a new token works", async () => {
    const token = await h.token();
    const set = await h.admin("PUT", "/_admin/faults", { rules: [{ route: LIST, mode: "expireToken", count: 1 }] });
    assert.equal(set.statusCode, 200, set.body);
    expectEnvelope(await h.call("GET", `/es/v2/connectors${q(h.account)}`, { token }), 401, /access token expired/);
    // Another route, no fault left: the token itself is over.
    expectEnvelope(
      await h.call("GET", `/es/v2/connectors/added${q(h.account)}`, { token }),
      401,
      /access token expired/,
    );

    const issued = await h.app.inject({
      method: "POST",
      url: "/es/v2/oauth/client-token",
      payload: { clientId: h.customers[0].clientId, clientSecret: h.customers[0].clientSecret },
    });
    const fresh = issued.json() as { accessToken: string; expiry: number };
    assert.equal(fresh.expiry, 3600, "the announced lifetime is unchanged");
    expectEnvelope(await h.call("GET", `/es/v2/connectors${q(h.account)}`, { token: fresh.accessToken }), 200);
  });

  it("leaves other tokens alone", async () => {
    const first = await h.token(0);
    const other = await h.token(1);
    await h.admin("PUT", "/_admin/faults", { rules: [{ route: LIST, mode: "expireToken", count: 1 }] });
    expectEnvelope(await h.call("GET", `/es/v2/connectors${q(h.account)}`, { token: first }), 401);
    expectEnvelope(
      await h.call("GET", `/es/v2/connectors${q(h.customers[1].subAccountIds[0])}`, { token: other }),
      200,
    );
  });
});
