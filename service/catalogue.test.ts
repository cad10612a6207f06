// The seed and the read-only catalogue routes: Get, List (filters, pages,
// bad query values), List Supported (pairing).
import assert from "node:assert/strict";
import { pairs } from "./domain/catalogue";
import { CATALOGUE } from "./seed/catalogue";
import { DATA_TYPES, DATA_TYPE_CATEGORIES, FIELD_TYPES, PLATFORM_TYPES, SUPPORTED_TYPES } from "../contract/values";
import { seedCustomers } from "./seed/customers";
import { byName, expectEnvelope, harness, q, type Harness } from "../test/support/service";

type Page<T> = { items: T[]; page: number; pageSize: number; total: number };
type Item = Record<string, unknown> & { connectorId: string; name: string };

describe("service: seed", () => {
  it("has at least 60 connectors covering every enum value of the specification", () => {
    assert.ok(CATALOGUE.length >= 60);
    const seen = (key: "dataType" | "dataTypeCategory" | "platformType" | "supportedType") =>
      new Set(CATALOGUE.map((c) => c[key]));
    assert.deepEqual([...seen("dataType")].sort(), [...DATA_TYPES].sort());
    assert.deepEqual([...seen("dataTypeCategory")].sort(), [...DATA_TYPE_CATEGORIES].sort());
    assert.deepEqual([...seen("platformType")].sort(), [...PLATFORM_TYPES].sort());
    assert.deepEqual([...seen("supportedType")].sort(), [...SUPPORTED_TYPES].sort());
  });

  it("gives every connector a secret configuration with every descriptor type and a required/readonly mix", () => {
    for (const c of CATALOGUE) {
      const fields = c.secretConfiguration.fields;
      assert.deepEqual([...new Set(fields.map((f) => f.type))].sort(), [...FIELD_TYPES].sort(), c.name);
      assert.ok(fields.some((f) => f.required) && fields.some((f) => !f.required), c.name);
      assert.ok(
        fields.some((f) => f.readonly),
        c.name,
      );
      for (const f of fields.filter((x) => x.type === "Number")) assert.ok(f.min !== undefined && f.max !== undefined);
      for (const f of fields.filter((x) => x.type.endsWith("Select"))) assert.ok((f.options ?? []).length > 1);
      assert.ok(c.connectionConfig.length > 0);
    }
  });

  it("uses stable 16-character lowercase hex ids and unique names", () => {
    const ids = CATALOGUE.flatMap((c) => [c.connectorId, c.platformId, c.secretConfiguration.configurationId]);
    for (const id of ids) assert.match(id, /^[0-9a-f]{16}$/);
    assert.equal(new Set(CATALOGUE.map((c) => c.connectorId)).size, CATALOGUE.length);
    assert.equal(new Set(CATALOGUE.map((c) => c.name)).size, CATALOGUE.length);
    // Derived from names: the same on every run and machine.
    assert.equal(byName("Amazon S3").connectorId, "48e6ff62fb2b1dfa");
    const customers = seedCustomers();
    assert.deepEqual(customers, seedCustomers());
    assert.equal(customers.length, 2);
    for (const c of customers) assert.ok(c.subAccountIds.length >= 2);
  });

  it("pairs every connector with at least one on the other side", () => {
    for (const c of CATALOGUE)
      assert.ok(
        CATALOGUE.some((o) => pairs(c, o)),
        c.name,
      );
  });
});

describe("service: catalogue routes", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it("Get Connector returns view G", async () => {
    const c = byName("Facebook Custom Audiences");
    const body = expectEnvelope<Item>(await h.call("GET", `/es/v2/connectors/${c.connectorId}${q(h.account)}`), 200);
    assert.equal(body.statusMessage, "OK");
    assert.equal(body.response.name, "Facebook Custom Audiences");
    for (const k of [
      "platformId",
      "logo",
      "dataType",
      "dataTypeCategory",
      "platformType",
      "supportedType",
      "integrated",
      "status",
    ]) {
      assert.ok(k in body.response, k);
    }
    for (const k of ["transfer", "configured", "secretConfiguration", "description"])
      assert.ok(!(k in body.response), k);
  });

  it("Get Connector: unknown id 404", async () => {
    expectEnvelope(await h.call("GET", `/es/v2/connectors/ffffffffffffffff${q(h.account)}`), 404, /not found/);
  });

  it("List Connectors pages through the whole catalogue in a stable order", async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const body = expectEnvelope<Page<Item>>(
        await h.call("GET", `/es/v2/connectors${q(h.account, { page, pageSize: 25 })}`),
        200,
      );
      assert.equal(body.response.total, CATALOGUE.length);
      assert.equal(body.response.pageSize, 25);
      if (body.response.items.length === 0) break;
      seen.push(...body.response.items.map((i) => i.connectorId));
      assert.ok("transfer" in body.response.items[0] && !("integrated" in body.response.items[0]));
    }
    assert.equal(new Set(seen).size, CATALOGUE.length);
    const first = expectEnvelope<Page<Item>>(await h.call("GET", `/es/v2/connectors${q(h.account)}`), 200);
    assert.equal(first.response.pageSize, 50);
    assert.equal(first.response.page, 1);
  });

  it("List Connectors filters by each enum and by a case-insensitive name substring", async () => {
    const cases: [string, string][] = [
      ["dataType", "customer match"],
      ["dataTypeCategory", "identity management"],
      ["platformType", "Cloud Storage Provider"],
      ["supportedType", "Source"],
    ];
    for (const [key, value] of cases) {
      const body = expectEnvelope<Page<Item>>(
        await h.call("GET", `/es/v2/connectors${q(h.account, { [key]: value, pageSize: 200 })}`),
        200,
      );
      const expected = CATALOGUE.filter((c) => (c as unknown as Record<string, string>)[key] === value).length;
      assert.ok(expected > 0);
      assert.equal(body.response.total, expected, key);
      for (const item of body.response.items) assert.equal(item[key], value);
    }
    const byNamePart = expectEnvelope<Page<Item>>(
      await h.call("GET", `/es/v2/connectors${q(h.account, { name: "aMaZoN s3" })}`),
      200,
    );
    assert.deepEqual(byNamePart.response.items.map((i) => i.name).sort(), ["Amazon S3", "Amazon S3 Export"]);
  });

  for (const [what, extra] of [
    ["pageSize > 200", { pageSize: 201 }],
    ["pageSize 0", { pageSize: 0 }],
    ["page 0", { page: 0 }],
    ["page not a number", { page: "two" }],
    ["an unknown dataType", { dataType: "everything" }],
    ["an unknown supportedType", { supportedType: "Both" }],
  ] as const) {
    it(`List Connectors: 400 for ${what}`, async () => {
      const body = expectEnvelope(await h.call("GET", `/es/v2/connectors${q(h.account, extra)}`), 400);
      assert.ok((body.errors ?? []).length > 0);
    });
  }

  it("List Supported Connectors gives the other side by the pairing rule, with usage fields", async () => {
    const source = byName("Salesforce CRM");
    const body = expectEnvelope<Page<Item>>(
      await h.call(
        "GET",
        `/es/v2/connectors/supported${q(h.account, { connectorId: source.connectorId, pageSize: 200 })}`,
      ),
      200,
    );
    const expected = CATALOGUE.filter((c) => pairs(source, c))
      .map((c) => c.connectorId)
      .sort();
    assert.deepEqual(body.response.items.map((i) => i.connectorId).sort(), expected);
    assert.equal(body.response.total, expected.length);
    for (const item of body.response.items) {
      assert.equal(item.supportedType, "Destination");
      for (const k of ["transfer", "configured", "description", "srcConnections", "destConnections"])
        assert.ok(k in item, k);
    }
  });

  it("List Supported Connectors: 404 unknown connector, 400 without connectorId", async () => {
    expectEnvelope(
      await h.call("GET", `/es/v2/connectors/supported${q(h.account, { connectorId: "ffffffffffffffff" })}`),
      404,
    );
    expectEnvelope(await h.call("GET", `/es/v2/connectors/supported${q(h.account)}`), 400);
  });
});
