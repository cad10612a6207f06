// Whose connector is an "already added" one? Decided per connector:
// a retried Add never takes over a connector someone else added, an Add whose answer was lost
// is confirmed by listing, and an unknown outcome is recorded as an unfinished resource that the
// next `up` finishes. The records a killed process leaves: pending-add-records.test.ts.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CATALOGUE } from "../../service/seed/catalogue";
import { EmbeddedClient, ForbiddenError, RateLimitError, ResponseFormatError } from "../client";
import { AddCoalescer } from "./coalescer";
import * as impl from "./steps";
import { useOwner } from "../runtime/runtime";
import { callsTo, rejection, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";
import { routeKey } from "../../contract/routes";
import { addCoalescer } from "./process";

const ADD = routeKey("addConnectors");
const LIST_ADDED = routeKey("listAddedConnectors");
const ids = (n: number, from = 40) => CATALOGUE.slice(from, from + n).map((c) => c.connectorId);

describe("AddedConnector provider: whose connector is it", () => {
  const fx = useProviderFixture();
  let client: EmbeddedClient;
  let journalDir: string;

  beforeEach(async () => {
    await fx.service.setFaults({ rules: [] });
    // Few, quick retries: the faults below outlast them on purpose.
    client = EmbeddedClient.create({
      baseUrl: fx.service.baseUrl,
      clientId: fx.config["embedded:clientId"] as string,
      clientSecret: fx.config["embedded:clientSecret"] as string,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
    useConfig(fx, {}, client);
    journalDir = mkdtempSync(path.join(tmpdir(), "pending-adds-"));
  });
  afterEach(async () => {
    await fx.service.setFaults({ rules: [] });
    useConfig(fx); // forgets the owner and the journal
    rmSync(journalDir, { recursive: true, force: true });
  });

  const create = (connectorId: string, extra: Record<string, unknown> = {}) =>
    impl.create({ connectorId, accountId: fx.accountId, ...extra });

  it("a connector added by someone else stays theirs when the Add had to be retried (503, then reset)", async () => {
    const [foreign, mine] = ids(2);
    await fx.client.addConnectors(fx.accountId, [foreign]);
    for (const mode of ["error", "reset"] as const) {
      await fx.service.setFaults({
        rules: [{ route: ADD, mode, count: 1, ...(mode === "error" ? { status: 503 as const } : {}) }],
      });
      const error = await rejection(create(foreign));
      assert.match(
        error.message,
        new RegExp(
          `connector "[^"]+" \\(${foreign}\\) is already added to sub-account ${fx.accountId}, outside this resource`,
        ),
      );
      assert.match(error.message, /adoptExisting: true/);
    }
    // The same fault in front of a connector nobody had: added, and ours.
    await fx.service.setFaults({ rules: [{ route: ADD, mode: "error", status: 503, count: 1 }] });
    assert.equal((await create(mine)).outs.connectorId, mine);
  });

  it("an Add whose every answer was lost is confirmed by listing: ours are created, a foreign one is refused", async () => {
    const [foreign, ...mine] = ids(4);
    await fx.client.addConnectors(fx.accountId, [foreign]);
    await fx.service.setFaults({ rules: [{ route: ADD, mode: "commitThenDrop" }] });
    const settled = await Promise.allSettled([foreign, ...mine].map((id) => create(id)));
    assert.equal(settled[0].status, "rejected");
    assert.match(String((settled[0] as PromiseRejectedResult).reason), /already added .* outside this resource/);
    for (const outcome of settled.slice(1)) {
      assert.equal(outcome.status, "fulfilled", String((outcome as PromiseRejectedResult).reason));
      assert.equal(typeof (outcome as PromiseFulfilledResult<{ outs: { name?: unknown } }>).value.outs.name, "string");
    }
  });

  it("an Add of unknown outcome is recorded as unfinished with its id; the next up finishes it without a second Add", async () => {
    const [committed] = ids(1);
    await addCoalescer().ownership.baseline(client, fx.accountId); // listed before the faults start
    await fx.service.setFaults({
      rules: [
        { route: ADD, mode: "commitThenDrop" },
        { route: LIST_ADDED, mode: "error", status: 500 },
      ],
    });
    const error = (await rejection(create(committed, { __provider: "serialized-provider" }))) as Error & {
      id?: string;
      properties?: Record<string, unknown>;
    };
    assert.match(error.message, /outcome of adding connector .* is unknown/);
    assert.match(error.message, /next `pulumi up`/);
    assert.equal(error.id, `${fx.accountId}/${committed}`, "the engine records the resource with its id");
    assert.equal(error.properties?.addUnfinished, true);
    assert.equal(error.properties?.__provider, "serialized-provider");

    await fx.service.setFaults({ rules: [] });
    const addsBefore = callsTo(await fx.service.stats(), ADD);
    const finished = await impl.update(error.id, error.properties ?? {}, {
      connectorId: committed,
      accountId: fx.accountId,
    });
    assert.equal(finished.outs?.connectorId, committed);
    assert.equal(typeof finished.outs?.name, "string");
    assert.equal(finished.outs?.addUnfinished, undefined, "finished");
    assert.equal(callsTo(await fx.service.stats(), ADD), addsBefore, "it was there: no Add");
  });

  it("an unfinished resource whose Add did not happen is added by the next up", async () => {
    const [lost] = ids(1, 50);
    await addCoalescer().ownership.baseline(client, fx.accountId);
    await fx.service.setFaults({
      rules: [
        { route: ADD, mode: "reset" },
        { route: LIST_ADDED, mode: "error", status: 500 },
      ],
    });
    const error = (await rejection(create(lost))) as Error & { id?: string; properties?: Record<string, unknown> };
    assert.equal(error.properties?.addUnfinished, true);
    await fx.service.setFaults({ rules: [] });
    const finished = await impl.update(error.id ?? "", error.properties ?? {}, {
      connectorId: lost,
      accountId: fx.accountId,
    });
    assert.equal(finished.outs?.connectorId, lost);
    const live = await fx.client.addConnectors(fx.accountId, [lost]);
    assert.deepEqual(live.alreadyAdded, [lost], "the connector is added now");
  });

  it("without a record, a connector present before the run is never claimed", async () => {
    const [present] = ids(1, 60);
    await fx.client.addConnectors(fx.accountId, [present]);
    useOwner("proj/stack-a", journalDir);
    await rejection(create(present));
    assert.deepEqual(readdirSync(journalDir), [], "no record of a connector that was not ours");
  });
});

describe("AddCoalescer: an Add saved but answered with a malformed body", () => {
  it("is confirmed by listing: the connector is ours, not 'already added' on the next run", async () => {
    const saved = new Set<string>();
    const view = (connectorId: string) => ({ connectorId, name: `connector ${connectorId}` }) as never;
    const client = {
      baseUrl: "http://fake.invalid",
      async *listAddedConnectors() {
        for (const id of saved) yield view(id);
      },
      async addConnectors(_accountId: string, ids: readonly string[]): Promise<never> {
        for (const id of ids) saved.add(id); // applied…
        throw new ResponseFormatError({ status: 200, requestId: "r", route: ADD, problem: "truncated JSON" }); // …then a broken answer
      },
    };
    const coalescer = new AddCoalescer({ windowMs: 1 });
    const [id] = ids(1);
    const outcome = await coalescer.add(client, "acct", id);
    assert.equal(outcome.owned, true);
    assert.equal(outcome.view?.connectorId, id);
  });
});

describe("AddCoalescer: final errors and whether the Add may have been applied", () => {
  function fakeClient(saved: Set<string>, fail: (ids: readonly string[]) => never) {
    return {
      baseUrl: "http://fake.invalid",
      listings: 0,
      async *listAddedConnectors() {
        this.listings++;
        for (const id of saved) yield { connectorId: id, name: `connector ${id}` } as never;
      },
      async addConnectors(_accountId: string, ids: readonly string[]): Promise<never> {
        fail(ids);
      },
    };
  }

  it("a refusal after an unanswered attempt is confirmed by listing: what that attempt added is ours", async () => {
    const saved = new Set<string>();
    const client = fakeClient(saved, (ids) => {
      for (const id of ids) saved.add(id); // the first attempt was applied, its answer lost…
      const error = new ForbiddenError({ status: 403, statusMessage: "forbidden", requestId: "r", route: ADD });
      error.earlierAttemptUnanswered = true; // …and the retry was refused
      throw error;
    });
    const [id] = ids(1);
    const outcome = await new AddCoalescer({ windowMs: 1 }).add(client, "acct", id);
    assert.equal(outcome.owned, true);
  });

  it("a 429 the call gave up on, with no unanswered attempt, fails plainly: nothing was added, no listing", async () => {
    const client = fakeClient(new Set(), () => {
      throw new RateLimitError({ status: 429, statusMessage: "slow down", requestId: "r", route: ADD });
    });
    const coalescer = new AddCoalescer({ windowMs: 1 });
    const [id] = ids(1);
    await assert.rejects(coalescer.add(client, "acct", id), RateLimitError);
    assert.equal(client.listings, 1, "only the baseline listing, no confirmation");
  });
});
