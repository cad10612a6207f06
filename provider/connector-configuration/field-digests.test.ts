// The keyed per-field digests that replace the values in the state: under one key,
// stable across processes and versions, different per value, sub-account, connector and field,
// alike for the forms the service stores alike. The unsalted key pinned here is the one of states
// written before salts, which must keep reading alike.
import assert from "node:assert/strict";
import {
  canonicalValue,
  changedFields,
  digestKeyOf,
  digestsOfInputs,
  fieldDigest,
  matchesDigest,
} from "./field-digests";

const KEY = digestKeyOf("client-secret-of-the-test");

describe("field digests", () => {
  it("are fixed by the client secret and the value: the same in every process and version", () => {
    // Pinned: a digest that changed between versions would show every field as drift.
    assert.equal(KEY.id, "f73d4f816821");
    assert.equal(fieldDigest(KEY, "acct", "conn", "region", "string:eu-west-1"), "09cd23a9fea0b1ce");
  });

  it("change with the value, and differ per sub-account, connector and field", () => {
    const digest = (account: string, connector: string, field: string, value: unknown) =>
      digestsOfInputs(KEY, account, connector, { [field]: value }, new Set())[field];
    const base = digest("a", "c", "region", "eu-west-1");
    assert.match(base, /^[0-9a-f]{16}$/);
    for (const other of [
      digest("a", "c", "region", "us-east-1"),
      digest("b", "c", "region", "eu-west-1"),
      digest("a", "d", "region", "eu-west-1"),
      digest("a", "c", "zone", "eu-west-1"),
    ]) {
      assert.notEqual(other, base);
    }
    assert.equal(digest("a", "c", "region", "eu-west-1"), base);
  });

  it("are keyed by the client secret: another secret gives other digests and another key id", () => {
    const other = digestKeyOf("another-client-secret");
    assert.notEqual(other.id, KEY.id);
    assert.notEqual(fieldDigest(other, "a", "c", "f", "string:x"), fieldDigest(KEY, "a", "c", "f", "string:x"));
    assert.ok(!KEY.id.includes("client-secret") && KEY.key.length === 32);
  });

  it('digest the forms the service stores alike alike: "100.0" and 100, "a, b" and ["a", "b"]', () => {
    assert.equal(canonicalValue("100.0", "number"), canonicalValue(100, "number"));
    assert.equal(canonicalValue("a, b", "list"), canonicalValue(["a", "b"], "list"));
    assert.equal(canonicalValue("a,b", "list"), canonicalValue(["a", "b"], "list"));
    assert.notEqual(canonicalValue("b,a", "list"), canonicalValue(["a", "b"], "list"), "the service keeps the order");
    // A desired value as an older state holds it matches the live digest of its field's rule.
    const live = (rule: "number" | "list", value: unknown) =>
      fieldDigest(KEY, "a", "c", "f", canonicalValue(value, rule) as string);
    assert.ok(matchesDigest(KEY, "a", "c", "f", "100.0", live("number", "100")));
    assert.ok(matchesDigest(KEY, "a", "c", "f", 100, live("number", "100")));
    assert.ok(matchesDigest(KEY, "a", "c", "f", "page, track", live("list", "page,track")));
    assert.ok(matchesDigest(KEY, "a", "c", "f", ["page", "track"], live("list", "page,track")));
    // The rule is part of the canonical form: a Text "100.0" is not a Text "100".
    const text = fieldDigest(KEY, "a", "c", "f", canonicalValue("100", "string") as string);
    assert.ok(!matchesDigest(KEY, "a", "c", "f", "100.0", text));
    assert.equal(canonicalValue("", "string"), undefined, "an empty value is a missing one");
    assert.equal(canonicalValue([], "list"), undefined);
  });

  it("name the fields that differ, added and deleted ones too", () => {
    const changes = changedFields({ a: "1", b: "2", c: "3" }, { a: "1", b: "9", d: "4" });
    assert.deepEqual(
      [...changes],
      [
        ["b", "update"],
        ["c", "delete"],
        ["d", "add"],
      ],
    );
  });
});
