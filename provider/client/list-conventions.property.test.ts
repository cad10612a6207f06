// Random items served in any list convention the client reads (an envelope or none; a bare
// array or `{items}` with or without a total; page/pageSize, size/offset or no paging; a service
// that caps the page size lower than asked) read back the same, in order, none lost or doubled.
import assert from "node:assert/strict";
import fc from "fast-check";
import { resolveProfile } from "../../contract/profile";
import { collect, EmbeddedClient } from "./";
import { viewA } from "../../test/support/client-fakes";
import { ScriptedTransport } from "../../test/support/client-fakes";
import { listScript } from "../../test/support/profile-fake";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const PAGINGS = [
  { style: "page" as const },
  { style: "page" as const, page: "p", pageSize: "per_page" },
  { style: "offset" as const },
  { style: "offset" as const, offset: "start", size: "limit" },
  { style: "none" as const },
];

const id = (n: number) => `c${n.toString(36).padStart(15, "0")}`;

describe("property: every list convention reads back the items served", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);

  it("any convention, item count and page size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          count: fc.integer({ min: 0, max: 420 }),
          paging: fc.constantFrom(...PAGINGS),
          envelope: fc.boolean(),
          bare: fc.boolean(),
          total: fc.boolean(),
          pageSize: fc.integer({ min: 1, max: 200 }),
          cap: fc.integer({ min: 1, max: 250 }),
        }),
        async ({ count, paging, envelope, bare, total, pageSize, cap }) => {
          const profile = resolveProfile(
            { operations: { listAddedConnectors: { paging, envelope: { mode: envelope ? "present" : "absent" } } } },
            "property",
          );
          const op = profile.operations.listAddedConnectors;
          const items = Array.from({ length: count }, (_, i) => viewA(id(i)));
          // Without paging, the service sends the whole list (a cap would be a service ignoring pages).
          const serving = { envelope, bare, total, cap: paging.style === "none" ? Number.MAX_SAFE_INTEGER : cap };
          const transport = new ScriptedTransport(listScript(op, items, serving), 5_000);
          const client = EmbeddedClient.create(
            { baseUrl: "http://127.0.0.1:1", clientId: "c", clientSecret: "s", pageSize, profile },
            { transport },
          );
          const read = await collect(client.listAddedConnectors("a1b2c3d4e5f60718"));
          assert.deepEqual(
            read.map((v) => v.connectorId),
            items.map((v) => v.connectorId),
          );
        },
      ),
      propertyRuns(150),
    );
  });
});
