// A list that moves while its pages are read is
// refused with the route and `doctor`, never taken for whole with an item missing (the snapshot
// a refresh, the delete guard and the fleet's fast path read from would call that item gone).
import assert from "node:assert/strict";
import { resolveProfile } from "../../contract/profile";
import { collect, EmbeddedClient, ResponseFormatError, type IncomingResponse, type OutgoingRequest } from "./";
import { listAll } from "../sub-account/listing-cache";
import { ACCOUNT, ok, refusal, ScriptedTransport, tokenAnswer, viewA } from "../../test/support/client-fakes";

const id = (n: number) => `c${n.toString(36).padStart(15, "0")}`;
const items = Array.from({ length: 6 }, (_, i) => viewA(id(i)));
const pageOf = (request: OutgoingRequest) =>
  Number(new URLSearchParams(request.target.split("?")[1] ?? "").get("page"));

function clientOf(handler: (request: OutgoingRequest) => IncomingResponse, pageSize: number) {
  const transport = new ScriptedTransport((request) =>
    request.target.includes("/oauth/") ? tokenAnswer() : handler(request),
  );
  return EmbeddedClient.create(
    {
      baseUrl: "http://127.0.0.1:1",
      clientId: "c",
      clientSecret: "s",
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      profile: resolveProfile({}, "test"),
      pageSize,
    },
    { transport, sleep: async () => undefined },
  );
}

function assertRefusedWithDoctor(error: Error, shape: RegExp): void {
  assert.ok(error instanceof ResponseFormatError, String(error));
  assert.match(error.message, /^GET \/es\/v2\/connectors\/added: /);
  assert.match(error.message, shape);
  assert.match(error.message, /nothing is concluded from it/);
  assert.match(error.message, /pulumi-embedded-connectors doctor/);
}

describe("client: a list that moves between its pages is refused", () => {
  it("pages that partly overlap: refused, not the total reached by counting a duplicate (F1)", async () => {
    // Page 2 starts one item back (one inserted before the cursor): 6 read = the total, item 5 never read.
    const client = clientOf((request) => {
      const page = pageOf(request);
      const slice = page === 1 ? items.slice(0, 3) : page === 2 ? items.slice(2, 5) : [];
      return ok({ items: slice, page, pageSize: 3, total: items.length });
    }, 3);
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assertRefusedWithDoctor(error, /page 2 repeats 1 of its 3 items already read/);
    // The snapshot a refresh reads from refuses too: item 5 is never concluded gone.
    await assert.rejects(listAll(client, ACCOUNT), ResponseFormatError);
  });

  it("a total that shrinks on a later page: refused with the totals seen, not the list ended early (F2)", async () => {
    const client = clientOf((request) => {
      const page = pageOf(request);
      return ok({ items: items.slice((page - 1) * 2, page * 2), page, pageSize: 2, total: page === 1 ? 6 : 4 });
    }, 2);
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assertRefusedWithDoctor(error, /page 2 changes the list's total \(totals seen: 6, 4\)/);
  });

  it("a list that does not move is read whole, each item once", async () => {
    const client = clientOf((request) => {
      const page = pageOf(request);
      return ok({ items: items.slice((page - 1) * 4, page * 4), page, pageSize: 4, total: items.length });
    }, 4);
    const read = await collect(client.listAddedConnectors(ACCOUNT));
    assert.deepEqual(
      read.map((v) => v.connectorId),
      items.map((v) => v.connectorId),
    );
  });
});
