// Random items served in any supported list convention and page size read
// back the same. The local service serves a random profile (bare array or items at a path,
// with or without a total and a next offset, paging by page/pageSize, size/offset or
// limit/offset under its own names) over a catalogue of random length; the provider's client,
// given that profile and a random page size, must read every connector once, in order.
import assert from "node:assert/strict";
import fc from "fast-check";
import { resolveProfile } from "../../contract/profile";
import { closeClients, collect, getClient } from "./";
import { startLocalService } from "../../harness/local-service";
import { catalogueWithExtra } from "../../service/seed/catalogue";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const paging = fc.constantFrom(
  { style: "page", page: "page", pageSize: "pageSize" },
  { style: "page", page: "p", pageSize: "per_page" },
  { style: "offset", offset: "offset", size: "size" },
  { style: "offset", offset: "offset", size: "limit" },
  { style: "offset", offset: "start", size: "count" },
);
const container = fc.record({
  items: fc.constantFrom("", "items", "data.items", "results"),
  total: fc.boolean(),
  next: fc.boolean(),
});
const envelope = fc.constantFrom("present", "absent");

describe("property: lists served in any convention read back the same", function () {
  this.timeout(240_000);
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  after(async () => closeClients());

  it("every connector once, in the service's order", async () => {
    await fc.assert(
      fc.asyncProperty(
        paging,
        container,
        envelope,
        fc.integer({ min: 0, max: 160 }),
        fc.integer({ min: 1, max: 60 }),
        async (pagingStyle, list, mode, extra, pageSize) => {
          const where = list.items === "" ? "" : list.items.split(".").slice(0, -1).join(".");
          const at = (key: string) => (where ? `${where}.${key}` : key);
          const profile = resolveProfile(
            {
              defaults: {
                paging: pagingStyle,
                envelope: { mode },
                list: {
                  items: list.items,
                  total: list.items !== "" && list.total ? at("total") : null,
                  next: list.items !== "" && list.next ? at("next") : null,
                },
              },
            },
            "property",
          );
          const service = await startLocalService({ profile, extraConnectors: extra });
          try {
            const { clientId, clientSecret, subAccountIds } = service.customers[0];
            const client = getClient({ baseUrl: service.baseUrl, clientId, clientSecret, pageSize, profile });
            const read = await collect(client.listConnectors(subAccountIds[0] as string));
            const expected = [...catalogueWithExtra(extra)]
              .sort((a, b) => a.name.localeCompare(b.name) || a.connectorId.localeCompare(b.connectorId))
              .map((c) => c.connectorId);
            assert.deepEqual(
              read.map((c) => c.connectorId),
              expected,
            );
          } finally {
            await closeClients();
            await service.stop();
          }
        },
      ),
      propertyRuns(25),
    );
  });
});
