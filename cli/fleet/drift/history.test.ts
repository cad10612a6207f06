// The drift history: a drift that appears is `new`, then `unchanged` with its first-seen kept,
// then `resolved`; a failed check proves nothing gone; stacks not checked are left as they were;
// the file store round-trips and refuses another project's history. Names only.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { emptyHistory, observe } from "./history";
import { fileHistory } from "./history-store";
import type { StackReport } from "../report";

const URN = "urn:pulumi:acme-eu::embedded-fleet::embedded:index:ConnectorConfiguration::s3";
const at = (iso: string) => new Date(iso);

function report(
  properties: string[] | undefined,
  status: StackReport["status"] = properties ? "drifted" : "clean",
): StackReport {
  return {
    stack: "acme-eu",
    status,
    durationMs: 1,
    resources: properties
      ? [{ urn: URN, type: "embedded:index:ConnectorConfiguration", name: "s3", operation: "update", properties }]
      : [],
  };
}

describe("fleet drift: history and events", () => {
  it("new, then unchanged (first seen kept, since reported), then resolved", () => {
    const first = observe(
      emptyHistory("embedded-fleet"),
      [report(["fieldDigests.bucket"])],
      at("2026-12-01T02:00:00Z"),
    );
    assert.deepEqual(
      first.events.map((e) => [e.event, e.field, e.firstSeen]),
      [["new", "fieldDigests.bucket", "2026-12-01T02:00:00.000Z"]],
    );
    const second = observe(first.history, [report(["fieldDigests.bucket", "lastUpdated"])], at("2026-12-02T02:00:00Z"));
    assert.deepEqual(
      second.events.map((e) => [e.event, e.field, e.firstSeen, e.lastSeen]),
      [
        ["new", "lastUpdated", "2026-12-02T02:00:00.000Z", "2026-12-02T02:00:00.000Z"],
        ["unchanged", "fieldDigests.bucket", "2026-12-01T02:00:00.000Z", "2026-12-02T02:00:00.000Z"],
      ],
    );
    assert.equal(second.stacks[0].resources[0].since, "2026-12-01T02:00:00.000Z", "how long it has stood");
    const third = observe(second.history, [report(undefined)], at("2026-12-03T02:00:00Z"));
    assert.deepEqual(third.events.map((e) => [e.event, e.field]).sort(), [
      ["resolved", "fieldDigests.bucket"],
      ["resolved", "lastUpdated"],
    ]);
    assert.deepEqual(third.history.stacks, {});
  });

  it("a failed check keeps the records and makes no event; other stacks are left alone", () => {
    const first = observe(emptyHistory("p"), [report(["drift"])], at("2026-12-01T02:00:00Z"));
    first.history.stacks["other-stack"] = [
      { resource: "u", type: "t", name: "n", field: "f", acknowledged: false, firstSeen: "x", lastSeen: "x" },
    ];
    const failed = observe(
      first.history,
      [{ ...report(undefined), status: "failed", error: "boom" }],
      at("2026-12-02T02:00:00Z"),
    );
    assert.deepEqual(failed.events, []);
    assert.deepEqual(failed.history, first.history);
  });

  it("a resource gone and an unmanaged connector are fields of their own", () => {
    const gone: StackReport = {
      ...report(["x"]),
      resources: [{ urn: URN, type: "embedded:index:AddedConnector", name: "s3", operation: "delete", properties: [] }],
      unmanaged: [{ accountId: "a1", connectorId: "c1", name: "Segment" }],
    };
    const seen = observe(emptyHistory("p"), [gone], at("2026-12-01T02:00:00Z"));
    assert.deepEqual(
      seen.events.map((e) => [e.type, e.field, e.resource]),
      [
        ["unmanaged connector", "(unmanaged)", "unmanaged:a1/c1"],
        ["AddedConnector", "(gone)", URN],
      ],
    );
    assert.equal(seen.stacks[0].unmanaged?.[0].since, "2026-12-01T02:00:00.000Z");
  });

  it("the file store round-trips, and refuses another project's or a broken file", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-history-"));
    const file = path.join(dir, "h.json");
    const store = fileHistory(file, "p");
    assert.deepEqual(await store.read(), emptyHistory("p"));
    const seen = observe(emptyHistory("p"), [report(["drift"])], at("2026-12-01T02:00:00Z"));
    await store.write(seen.history);
    assert.deepEqual(await store.read(), seen.history);
    await assert.rejects(
      fileHistory(file, "q").read(),
      /drift history of project "p", not q; give --history another file/,
    );
    await fs.writeFile(file, "{");
    await assert.rejects(store.read(), /does not parse as JSON; move it away/);
    await fs.rm(dir, { recursive: true });
  });
});
