// The drift history: a drift that appears is `new`, then `unchanged` with its first-seen kept,
// then `resolved`; a failed check proves nothing gone; stacks not checked are left as they were;
// the file store round-trips and refuses another project's history. Names only.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { emptyHistory, observe } from "./history";
import { fileHistory, openHistory } from "./history-store";
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

  it("a drifted resource now gone is no resolution of its fields: only its `(gone)` is told", () => {
    const first = observe(emptyHistory("p"), [report(["fieldDigests.bucket"])], at("2026-12-01T02:00:00Z"));
    const gone: StackReport = {
      ...report([]),
      resources: [
        { urn: URN, type: "embedded:index:ConnectorConfiguration", name: "s3", operation: "delete", properties: [] },
      ],
    };
    const second = observe(first.history, [gone], at("2026-12-02T02:00:00Z"));
    assert.deepEqual(
      second.events.map((e) => [e.event, e.field]),
      [["new", "(gone)"]],
    );
    assert.deepEqual(
      second.history.stacks["acme-eu"].map((r) => r.field),
      ["(gone)"],
    );
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

  it("an unmanaged connector resolves only when its sub-account was listed in full, not from a listing not made", () => {
    const stray = { accountId: "a1", connectorId: "c9", name: "Segment" };
    const seen = observe(emptyHistory("p"), [{ ...report(undefined), unmanaged: [stray] }], at("2026-12-01T02:00:00Z"));
    const notListed: StackReport[] = [
      { ...report(undefined), discoveryNotRun: "sub-account a1: its listing failed: HTTP 503" }, // refused
      { ...report(undefined), unmanaged: [], discoveryNotRun: "sub-account a1 is also b's" }, // not judged
      report(undefined), // --no-discovery
    ];
    for (const stack of notListed) {
      const next = observe(seen.history, [stack], at("2026-12-02T02:00:00Z"));
      assert.deepEqual(next.events, [], JSON.stringify(stack));
      assert.deepEqual(next.history, seen.history, "kept as last seen");
    }
    const listed = observe(seen.history, [{ ...report(undefined), unmanaged: [] }], at("2026-12-02T02:00:00Z"));
    assert.deepEqual(
      listed.events.map((e) => [e.event, e.resource]),
      [["resolved", "unmanaged:a1/c9"]],
    );
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
    const edited = JSON.parse(JSON.stringify(seen.history));
    edited.stacks["acme-eu"][0].firstSeen = "garbage";
    await fs.writeFile(file, JSON.stringify(edited));
    assert.deepEqual((await store.read()).stacks["acme-eu"], [], "a record with no time is dropped, not shown as NaN");
    await fs.writeFile(file, "{");
    await assert.rejects(store.read(), /does not parse as JSON; move it away/);
    await fs.rm(dir, { recursive: true });
  });

  it("--history backend with --shard keeps the shard's own object beside the checkpoints", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-history-"));
    await fs.mkdir(path.join(dir, ".pulumi"));
    await fs.writeFile(path.join(dir, ".pulumi", "meta.yaml"), "version: 1\n");
    const env = { ...process.env, PULUMI_BACKEND_URL: `file://${dir}` };
    const seen = observe(emptyHistory("p"), [report(["drift"])], at("2026-12-01T02:00:00Z"));
    for (const shard of ["1/2", "2/2"]) {
      const store = await openHistory("backend", dir, "p", env, shard);
      assert.ok("write" in store, JSON.stringify(store));
      await store.write(shard === "1/2" ? seen.history : emptyHistory("p"));
    }
    const kept = path.join(dir, ".pulumi", "embedded-fleet", "drift-history");
    assert.deepEqual((await fs.readdir(kept)).sort(), ["p.shard-1-of-2.json", "p.shard-2-of-2.json"]);
    const first = await openHistory("backend", dir, "p", env, "1/2");
    assert.ok("read" in first);
    assert.deepEqual(await first.read(), seen.history, "one shard's write left the other's alone");
    await fs.rm(dir, { recursive: true });
  });
});
