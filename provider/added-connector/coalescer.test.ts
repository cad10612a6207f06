// Coalesced Add: concurrent creates share Add calls, and every resource keeps its own result
// and its own error. Counts come from the service's stats; no test depends on timing beyond
// "sent together" (Promise.all in one tick).
import assert from "node:assert/strict";
import { stableId } from "../../service/domain/ids";
import { CATALOGUE } from "../../service/seed/catalogue";
import { NotFoundError, type AddConnectorsResult } from "../client";
import { AddCoalescer, type AddingClient } from "./coalescer";
import * as impl from "./steps";
import { callsTo, rejection, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";
import { closeRewritingClients, rewritingClient } from "../../test/support/rewriting-client";
import { routeKey } from "../../contract/routes";

const ADD = routeKey("addConnectors");
const LIST_ADDED = routeKey("listAddedConnectors");
/** Well-formed, but in no catalogue: the service refuses the whole Add with 404. */
const UNKNOWN_ID = "0000000000000bad";

const ids = (n: number, from = 0) => CATALOGUE.slice(from, from + n).map((c) => c.connectorId);

describe("AddedConnector provider: coalesced Add", () => {
  const fx = useProviderFixture();
  after(closeRewritingClients);

  it("sends 30 concurrent creates as one Add, each with its own outputs", async () => {
    const wanted = ids(30);
    const results = await Promise.all(
      wanted.map((connectorId) => impl.create({ connectorId, accountId: fx.accountId })),
    );
    assert.equal(callsTo(await fx.service.stats(), ADD), 1);
    results.forEach((result, i) => {
      assert.equal(result.id, `${fx.accountId}/${wanted[i]}`);
      assert.equal(result.outs.connectorId, wanted[i]);
      assert.equal(result.outs.name, CATALOGUE[i].name);
    });
    // One listing: what was there before the Add, which decides whose an "already added" is.
    assert.equal(callsTo(await fx.service.stats(), LIST_ADDED), 1);
  });

  it("never sends more than 50 ids in one Add", async () => {
    const wanted = ids(70);
    await Promise.all(wanted.map((connectorId) => impl.create({ connectorId, accountId: fx.accountId })));
    assert.equal(callsTo(await fx.service.stats(), ADD), 2);
  });

  it("fails only the resource whose id is unknown; the others are added", async () => {
    const wanted = ids(29);
    const all = [...wanted.slice(0, 10), UNKNOWN_ID, ...wanted.slice(10)];
    const settled = await Promise.allSettled(
      all.map((connectorId) => impl.create({ connectorId, accountId: fx.accountId })),
    );
    settled.forEach((outcome, i) => {
      if (all[i] === UNKNOWN_ID) {
        assert.equal(outcome.status, "rejected");
        assert.match(String((outcome as PromiseRejectedResult).reason), new RegExp(`adding connector ${UNKNOWN_ID}`));
      } else {
        assert.equal(outcome.status, "fulfilled", `create of ${all[i]}`);
      }
    });
    const added = await fx.client.listAddedConnectors(fx.accountId);
    const live: string[] = [];
    for await (const view of added) live.push(view.connectorId);
    assert.deepEqual(live.sort(), [...wanted].sort());
    // Bisection: far fewer calls than one per id.
    assert.ok(callsTo(await fx.service.stats(), ADD) <= 1 + 2 * Math.ceil(Math.log2(all.length)) + 2);
  });

  it("keeps 'already added' per resource: refuse one, adopt another, add the rest", async () => {
    const [outside, adopted, ...rest] = ids(12);
    await fx.client.addConnectors(fx.accountId, [outside, adopted]);
    const before = callsTo(await fx.service.stats(), ADD);
    const settled = await Promise.allSettled([
      impl.create({ connectorId: outside, accountId: fx.accountId }),
      impl.create({ connectorId: adopted, accountId: fx.accountId, adoptExisting: true }),
      ...rest.map((connectorId) => impl.create({ connectorId, accountId: fx.accountId })),
    ]);
    assert.equal(callsTo(await fx.service.stats(), ADD) - before, 1);
    assert.equal(settled[0].status, "rejected");
    assert.match(String((settled[0] as PromiseRejectedResult).reason), /already added.*adoptExisting: true/s);
    assert.equal(settled[1].status, "fulfilled");
    assert.equal(
      (settled[1] as PromiseFulfilledResult<{ outs: Record<string, unknown> }>).value.outs.adoptExisting,
      true,
    );
    for (const outcome of settled.slice(2)) assert.equal(outcome.status, "fulfilled");
  });

  it("two resources of the same connector: one adds it, the other is told it is already added", async () => {
    const [id] = ids(1);
    const settled = await Promise.allSettled([
      impl.create({ connectorId: id, accountId: fx.accountId }),
      impl.create({ connectorId: id, accountId: fx.accountId }),
    ]);
    assert.deepEqual(settled.map((s) => s.status).sort(), ["fulfilled", "rejected"]);
  });

  it("a lost answer to a batch: every member adopts what its own Add did (retried)", async () => {
    await fx.service.setFaults({ rules: [{ route: ADD, mode: "commitThenDrop", count: 1 }] });
    try {
      const wanted = ids(8);
      const results = await Promise.all(
        wanted.map((connectorId) => impl.create({ connectorId, accountId: fx.accountId })),
      );
      assert.deepEqual(
        results.map((r) => r.outs.connectorId),
        wanted,
      );
      assert.equal(callsTo(await fx.service.stats(), ADD), 2);
    } finally {
      await fx.service.setFaults({ rules: [] });
    }
  });

  it("a connector someone else adds between the listing and the Add is refused, and stays theirs", async () => {
    const [contested] = ids(1, 44);
    let raced = false;
    useConfig(
      fx,
      {},
      rewritingClient(
        fx,
        (_request, response) => response,
        async (request) => {
          // Another stack's Add lands just before ours (after this run listed the sub-account).
          if (!raced && request.method === "POST" && /\/connectors\?/.test(request.target)) {
            raced = true;
            await fx.client.addConnectors(fx.accountId, [contested]);
          }
        },
      ),
    );
    const refused = await rejection(impl.create({ connectorId: contested, accountId: fx.accountId }));
    assert.ok(raced, "the other Add landed first");
    assert.match(
      refused.message,
      new RegExp(`\\(${contested}\\) is already added to sub-account ${fx.accountId}, outside this resource`),
    );
    assert.deepEqual(
      (await fx.client.addConnectors(fx.accountId, [contested])).alreadyAdded,
      [contested],
      "the other stack's connector is still there",
    );
  });

  it("an error of the whole call reaches every member, unsplit", async () => {
    const foreign = fx.service.customers[1].subAccountIds[0]; // 403 for this client
    const settled = await Promise.allSettled(
      ids(5).map((connectorId) => impl.create({ connectorId, accountId: foreign })),
    );
    for (const outcome of settled) {
      assert.equal(outcome.status, "rejected");
      assert.match(String((outcome as PromiseRejectedResult).reason), /403|forbidden|not allowed|access/i);
    }
    // The listing before the Add is refused the same way: the Add is never sent.
    assert.equal(callsTo(await fx.service.stats(), LIST_ADDED), 1);
    assert.equal(callsTo(await fx.service.stats(), ADD), 0);
  });
});

describe("AddCoalescer (fake client)", () => {
  /**
   * Refuses any batch holding a bad id, as the service's atomic Add does; answers every other id
   * "already added" (someone else added it since the empty listing), `retried` as told.
   */
  function fakeClient(bad: Set<string>, retried = false): AddingClient & { batches: string[][] } {
    const batches: string[][] = [];
    return {
      batches,
      baseUrl: "http://fake.invalid",
      async *listAddedConnectors() {
        // an empty sub-account
      },
      async addConnectors(_accountId: string, connectorIds: readonly string[]): Promise<AddConnectorsResult> {
        batches.push([...connectorIds]);
        if (connectorIds.some((id) => bad.has(id))) {
          throw new NotFoundError({
            status: 404,
            statusMessage: "unknown connector id(s)",
            requestId: "r",
            route: ADD,
          });
        }
        return { added: [], alreadyAdded: [...connectorIds], retried };
      },
    };
  }

  it("bisects a refused batch down to the bad ids; each member settles once", async () => {
    const all = Array.from({ length: 50 }, (_, i) => stableId("connector", `fake ${i}`));
    const bad = new Set([all[7], all[33]]);
    const client = fakeClient(bad);
    const coalescer = new AddCoalescer({ windowMs: 1 });
    const settled = await Promise.allSettled(all.map((id) => coalescer.add(client, "acct", id)));
    settled.forEach((outcome, i) => assert.equal(outcome.status, bad.has(all[i]) ? "rejected" : "fulfilled"));
    assert.equal(client.batches[0].length, 50);
    assert.ok(client.batches.length < 30, `${client.batches.length} calls`);
  });

  it("creates that keep arriving one by one (as the engine sends them) share one Add", async () => {
    const client = fakeClient(new Set());
    // Generous limits: the point is the rule (join while the stream continues), not its speed.
    const coalescer = new AddCoalescer({ windowMs: 10_000, idleMs: 2_000 });
    const all = Array.from({ length: 12 }, (_, i) => stableId("connector", `stream ${i}`));
    const pending: Promise<unknown>[] = [];
    for (const id of all) {
      pending.push(coalescer.add(client, "acct", id));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(pending);
    assert.deepEqual(client.batches, [all]);
  });

  it("a window of 0 sends every Add alone", async () => {
    const client = fakeClient(new Set());
    const coalescer = new AddCoalescer();
    const all = Array.from({ length: 3 }, (_, i) => stableId("connector", `alone ${i}`));
    await Promise.all(all.map((id) => coalescer.add(client, "acct", id, 0)));
    assert.deepEqual(
      client.batches,
      all.map((id) => [id]),
    );
  });

  it("'already added' to an Add sent once is someone else's, though the listing did not have it", async () => {
    const id = stableId("connector", "added by someone else meanwhile");
    const once = await new AddCoalescer({ windowMs: 1 }).add(fakeClient(new Set()), "acct", id);
    assert.equal(once.owned, false, "added by someone else between our listing and our Add: not ours");
    // Only an Add retried after an attempt that may have landed can have added it itself.
    const retried = await new AddCoalescer({ windowMs: 1 }).add(fakeClient(new Set(), true), "acct", id);
    assert.equal(retried.owned, true, "our own lost attempt added it");
  });

  it("invalidates through onWrite before and after each Add", async () => {
    const writes: string[] = [];
    const coalescer = new AddCoalescer({ windowMs: 1, onWrite: (_client, accountId) => writes.push(accountId) });
    await coalescer.add(fakeClient(new Set()), "acct", stableId("connector", "x"));
    assert.deepEqual(writes, ["acct", "acct"]);
  });
});
