// As many sub-accounts as a fleet needs. `subAccountsPerCustomer` (the server's
// --sub-accounts) seeds them; POST /_admin/sub-accounts tops a customer up to a count. Ids are
// stable (a database made either way holds the same ones), and the new sub-accounts take
// connectors for their own customer only.
import assert from "node:assert/strict";
import { seedCustomers } from "./seed/customers";
import { addedIds, byName, expectEnvelope, harness, q } from "../test/support/service";

const s3 = byName("Amazon S3");

describe("service: sub-accounts for a fleet", () => {
  it("POST /_admin/sub-accounts gives a customer sub-accounts up to a count, with the ids --sub-accounts would seed", async () => {
    const h = await harness();
    try {
      const res = expectEnvelope<{ clientId: string; subAccountIds: string[] }>(
        await h.admin("POST", "/_admin/sub-accounts", { clientId: h.customers[1].clientId, count: 40 }),
        200,
      );
      const seeded = seedCustomers(undefined, 40)[1].subAccountIds;
      assert.deepEqual(res.response, { clientId: h.customers[1].clientId, subAccountIds: seeded });
      assert.equal(new Set(seeded).size, 40);
      assert.deepEqual(seeded.slice(0, 3), h.customers[1].subAccountIds, "the first three are the seeded ones");
      // Idempotent, never removes: a smaller count answers what is there.
      const again = expectEnvelope<{ subAccountIds: string[] }>(
        await h.admin("POST", "/_admin/sub-accounts", { clientId: h.customers[1].clientId, count: 5 }),
        200,
      );
      assert.deepEqual(again.response.subAccountIds, seeded);
      const listed = expectEnvelope<{ clientId: string; subAccountIds: string[] }[]>(
        await h.admin("GET", "/_admin/customers"),
        200,
      );
      assert.equal(listed.response[1].subAccountIds.length, 40);
      assert.equal(listed.response[0].subAccountIds.length, 3);

      // The 40th is the customer's own sub-account, and no one else's.
      const last = seeded[39];
      expectEnvelope(
        await h.call("POST", `/es/v2/connectors${q(last)}`, {
          token: await h.token(1),
          payload: { connectorIds: [s3.connectorId] },
        }),
        200,
      );
      assert.deepEqual(await addedIds(h, last, 1), [s3.connectorId]);
      expectEnvelope(await h.call("GET", `/es/v2/connectors/added${q(last)}`, { token: await h.token(0) }), 403);
    } finally {
      await h.close();
    }
  });

  it("refuses an unknown customer and a count out of range, saying what to do", async () => {
    const h = await harness();
    try {
      expectEnvelope(
        await h.admin("POST", "/_admin/sub-accounts", { clientId: "nobody", count: 2 }),
        404,
        /customer nobody not found; see GET \/_admin\/customers/,
      );
      expectEnvelope(
        await h.admin("POST", "/_admin/sub-accounts", { clientId: h.customers[0].clientId, count: 0 }),
        400,
        /count must be an integer from 1 to 10000/,
      );
      expectEnvelope(
        await h.admin("POST", "/_admin/sub-accounts", { clientId: h.customers[0].clientId, count: 10001 }),
        400,
        /count must be/,
      );
    } finally {
      await h.close();
    }
  });

  it("subAccountsPerCustomer (--sub-accounts) seeds that many per customer", async () => {
    const h = await harness({ subAccountsPerCustomer: 25 });
    try {
      const listed = expectEnvelope<{ subAccountIds: string[] }[]>(await h.admin("GET", "/_admin/customers"), 200);
      assert.deepEqual(
        listed.response.map((c) => c.subAccountIds),
        seedCustomers(undefined, 25).map((c) => c.subAccountIds),
      );
      assert.equal(listed.response[0].subAccountIds.length, 25);
    } finally {
      await h.close();
    }
  });
});
