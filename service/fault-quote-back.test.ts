// The `quoteBack` fault: the service refuses a request with a text that quotes every
// value it was sent in other forms (service/quote-back.ts), as an HTTP status or, with `inBody`,
// inside a 200: what the client's and the engine's leak tests are run against.
import assert from "node:assert/strict";
import { routeKey } from "../contract/routes";
import { QUOTED_FORMS } from "./quote-back";
import { harness, type Harness } from "../test/support/service";

const TOKEN = routeKey("getToken");

describe("service: quoteBack fault", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  for (const inBody of [false, true]) {
    it(`refuses the token request ${inBody ? "inside a 200" : "with its status"}, quoting the client secret in every form`, async () => {
      const set = await h.admin("PUT", "/_admin/faults", {
        rules: [{ route: TOKEN, mode: "quoteBack", refusalStatus: 401, inBody, count: 1 }],
      });
      assert.equal(set.statusCode, 200, set.body);
      const { clientId, clientSecret } = h.customers[0];
      const refused = await h.app.inject({
        method: "POST",
        url: "/es/v2/oauth/client-token",
        payload: { clientId, clientSecret },
      });
      assert.equal(refused.statusCode, inBody ? 200 : 401);
      const body = refused.json() as { statusCode: number; statusMessage: string; errors: { field: string }[] };
      assert.equal(body.statusCode, 401);
      for (const [form, quote] of Object.entries(QUOTED_FORMS)) {
        assert.ok(body.statusMessage.includes(quote(clientSecret)), `the ${form} client secret is quoted`);
      }
      assert.ok(body.errors.some((e) => e.field === "clientSecret"));
      assert.ok(refused.headers["x-request-id"], "with its request id");
      // count: 1 — the next request is answered.
      const issued = await h.app.inject({
        method: "POST",
        url: "/es/v2/oauth/client-token",
        payload: { clientId, clientSecret },
      });
      assert.equal(issued.statusCode, 200);
    });
  }
});
