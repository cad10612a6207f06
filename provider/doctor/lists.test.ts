// How doctor reads a list answer. The profile's `list.items`
// first; else the one array that could be the list (a non-empty one before a decoy `warnings: []`);
// a total not reached makes a list unproven; and `--write-check` removes a connector only after
// it saw it absent from a complete list and then present.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { listOf } from "./shapes";
import { runDoctor, startStub, type Stub, type StubAnswer, type StubRequest } from "../../test/support/doctor-stub";

const ok = (response: unknown): StubAnswer => ({
  status: 200,
  body: { statusCode: 200, statusMessage: "OK", response },
});
const target = (s: Stub) => ({
  baseUrl: s.baseUrl,
  clientId: "stub-client",
  clientSecret: "stub-secret-0123456789",
  accountId: "a1b2c3d4e5f60718",
});

/** An Add that answers with no body to speak of (no `added`, no `alreadyAdded`). */
function silentAdd(s: () => Stub, r: StubRequest): StubAnswer | undefined {
  if (r.method !== "POST" || r.path !== "/es/v2/connectors") return undefined;
  for (const id of (JSON.parse(r.body) as { connectorIds: string[] }).connectorIds) s().added.add(id);
  return { status: 200, body: { statusCode: 200, statusMessage: "OK" } };
}

/** `--write-check` on a stub whose added list answers `list(ids added)`, with a silent Add. */
async function writeCheckWith(list: (added: string[]) => unknown, initial: string[]) {
  const box: { stub?: Stub } = {};
  const s = () => box.stub as Stub;
  const stub = await startStub({
    added: initial,
    intercept: (r) =>
      silentAdd(s, r) ??
      (r.method === "GET" && r.path === "/es/v2/connectors/added" ? ok(list([...s().added])) : undefined),
  });
  box.stub = stub;
  try {
    const { code, text } = await runDoctor(target(stub), { writeCheck: true });
    const writes = stub.requests.filter(
      (r) => r.method === "DELETE" || (r.method === "POST" && !r.path.includes("token")),
    );
    return { code, text, writes: writes.map((r) => `${r.method} ${r.path} ${r.body}`), added: [...stub.added] };
  } finally {
    await stub.close();
  }
}

const items = (ids: string[]) => ids.map((connectorId) => ({ connectorId }));

describe("doctor: reading a list answer", function () {
  this.timeout(30_000);

  it("F6 --write-check with a decoy `warnings: []` before `items`: the connector the sub-account had is kept", async () => {
    const run = await writeCheckWith((ids) => ({ warnings: [], items: items(ids), total: ids.length }), ["c0"]);
    assert.match(run.text, /the added list, read whole: 1 connector\(s\)/, run.text);
    assert.ok(run.added.includes("c0"), `c0, there before doctor ran, is still added\n${run.text}`);
    assert.ok(!run.writes.some((w) => /\/c0\b|"c0"/.test(w)), `no write touches c0: ${run.writes.join("; ")}`);
  });

  it("F6 --write-check never removes a connector it did not see appear in the complete list", async () => {
    // A silent Add, and a list that never shows c1: doctor cannot tell it added c1, so leaves it.
    const run = await writeCheckWith((ids) => ({ items: items(ids.filter((id) => id !== "c1")), total: 1 }), ["c0"]);
    assert.ok(!run.writes.some((w) => w.startsWith("DELETE")), `no Remove: ${run.writes.join("; ")}`);
    assert.match(run.text, /left connector c1 in sub-account a1b2c3d4e5f60718: doctor did not see it added/);
    assert.equal(run.code, 1, run.text);
  });

  it("F7 --write-check refuses a list whose `next: null` comes before its total is reached: nothing written", async () => {
    const run = await writeCheckWith(
      (ids) => ({ items: items(ids.filter((id) => id !== "c0")), total: ids.length, next: null }),
      ["c0", "c1"],
    );
    assert.match(
      run.text,
      /refused: the added list could not be read whole \(GET \/es\/v2\/connectors\/added: the list ended after 1 item\(s\) but its total says 2; run `doctor` without --write-check/,
    );
    assert.deepEqual(run.writes, [], "no Add, no Remove");
    assert.deepEqual(run.added.sort(), ["c0", "c1"]);
    assert.equal(run.code, 1, run.text);
  });

  it("F7b --write-check refuses an empty first page whose total says 1: nothing written", async () => {
    const run = await writeCheckWith((ids) => ({ items: [], total: ids.length }), ["c0"]);
    assert.match(run.text, /the list ended after 0 item\(s\) but its total says 1/);
    assert.deepEqual(run.writes, [], "no Add, no Remove");
    assert.equal(run.code, 1, run.text);
  });

  it("F9 lists with a decoy `warnings: []`: the built-in profile reads them, and no `list.items: warnings` is written", async () => {
    const all = Array.from({ length: 120 }, (_, i) => `c${i}`);
    const stub = await startStub({
      catalogue: 120,
      added: ["c1", "c2", "c3"],
      intercept: (r) => {
        if (r.method !== "GET" || !/^\/es\/v2\/connectors(\/added|\/supported)?$/.test(r.path)) return undefined;
        const ids = r.path.endsWith("/added") ? ["c1", "c2", "c3"] : all;
        const [size, page] = [Number(r.query.get("pageSize") ?? 50), Number(r.query.get("page") ?? 1)];
        const shown = ids.slice((page - 1) * size, page * size).map((connectorId) => ({ connectorId, name: "n" }));
        return ok({ warnings: [], items: shown, total: ids.length });
      },
    });
    const dir = mkdtempSync(path.join(tmpdir(), "doctor-lists-"));
    try {
      const file = path.join(dir, "suggested.json");
      const { code, text } = await runDoctor(target(stub), { writeProfile: file });
      assert.match(text, /result: the profile reads every route/, text);
      assert.ok(!readFileSync(file, "utf8").includes("warnings"), readFileSync(file, "utf8"));
      assert.equal(code, 0, text);
    } finally {
      await stub.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("F9 without a profile: a non-empty array wins over an empty one; two that could be the list are refused", () => {
    const one = [{ connectorId: "c0" }];
    assert.equal(listOf({ warnings: [], data: one, total: 1 }).items, "data");
    assert.equal(listOf({ errors: [], items: [] }).items, undefined);
    assert.deepEqual(listOf({ a: one, b: one }).ambiguous, ["a", "b"]);
    assert.equal(listOf({ meta: [{ rel: "self" }], items: one }).items, "items", "the one array of connectors");
  });
});
