// The admin routes the web page uses (service/routes/admin-configurations.ts) and the page's
// guards, without a browser: a merge changes only the fields it is sent (a Password is kept
// without being resent) and refuses what Configure refuses, saving nothing; the overview tells
// a Password only as set; the page is off unless asked for and answers loopback callers only.
import assert from "node:assert/strict";
import { buildApp } from "../app";
import { isLoopback } from "./ui";
import { ADMIN_KEY, byName, expectEnvelope, harness, q, type Harness } from "../../test/support/service";

const s3 = byName("Amazon S3");
type Field = { id: string; value?: string; set?: boolean };
type View = { lastUpdated: number; configuration: Field[] };
type Overview = {
  customers: { subAccounts: { accountId: string; connectors: { connectorId: string; fields: Field[] }[] }[] }[];
};

const PROGRAM = {
  bucket: "acme-exports",
  accessKeyId: "AKIAEXAMPLE",
  secretAccessKey: "not-a-real-key",
  region: "eu-west-1",
  startDate: "2024-01-01",
};

describe("service: the admin merge of a configuration and the web page's guards", () => {
  let h: Harness;
  const merge = (secretConfig: object, accountId = h.account) =>
    h.admin("PATCH", `/_admin/configurations/${s3.connectorId}${q(accountId)}`, { secretConfig });
  const read = async () =>
    expectEnvelope<View>(await h.call("GET", `/es/v2/connectors/${s3.connectorId}/configuration${q(h.account)}`), 200)
      .response;
  const values = (view: View) => Object.fromEntries(view.configuration.map((f) => [f.id, f.value]));

  beforeEach(async () => {
    h = await harness();
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [s3.connectorId] } }),
      200,
    );
  });
  afterEach(() => h.close());

  const configure = async () =>
    expectEnvelope(
      await h.call("PUT", `/es/v2/connectors/${s3.connectorId}/configuration${q(h.account)}`, {
        payload: { configurationId: s3.secretConfiguration.configurationId, secretConfig: PROGRAM },
      }),
      200,
    );

  it("changes only the fields sent, keeps the Password, and moves lastUpdated", async () => {
    await configure();
    const before = await read();
    h.clock.now += 5_000;
    const merged = expectEnvelope<View>(await merge({ bucket: "changed-by-hand", startDate: "" }), 200).response;
    assert.ok(merged.lastUpdated > before.lastUpdated);
    const expected = { ...values(before), bucket: "changed-by-hand", startDate: undefined };
    assert.deepEqual(values(await read()), expected, "bucket changed, the optional startDate cleared, the rest kept");
    // The Password was kept: a merge of it alone is accepted and the others stay.
    expectEnvelope(await merge({ secretAccessKey: "rotated" }), 200);
    assert.deepEqual(values(await read()), expected);
  });

  it("refuses what Configure refuses, with every field named, and saves nothing", async () => {
    await configure();
    const before = await read();
    h.clock.now += 5_000;
    const refused = expectEnvelope(
      await merge({ bucket: "", region: "mars-1", nope: "x", endpoint: "https://x" }),
      400,
      /invalid configuration/,
    );
    assert.deepEqual(refused.errors?.map((e) => e.field).sort(), [
      "secretConfig.bucket",
      "secretConfig.endpoint",
      "secretConfig.nope",
      "secretConfig.region",
    ]);
    assert.deepEqual(await read(), before, "nothing saved");
  });

  it("a connector never configured needs every required field, as Configure does", async () => {
    const refused = expectEnvelope(await merge({ bucket: "only-this" }), 400);
    assert.deepEqual(
      refused.errors?.map((e) => e.field),
      ["secretConfig.accessKeyId", "secretConfig.secretAccessKey", "secretConfig.region"],
    );
    expectEnvelope(await merge({ ...PROGRAM, startDate: undefined }), 200);
  });

  it("the overview tells a Password as set, neither its value nor its digest", async () => {
    const unset = expectEnvelope<Overview>(await h.admin("GET", "/_admin/overview"), 200).response;
    const s3Of = (o: Overview) =>
      o.customers[0].subAccounts
        .find((s) => s.accountId === h.account)
        ?.connectors.find((c) => c.connectorId === s3.connectorId);
    assert.equal(s3Of(unset)?.fields.find((f) => f.id === "secretAccessKey")?.set, false);
    await configure();
    const res = await h.admin("GET", "/_admin/overview");
    const password = s3Of(expectEnvelope<Overview>(res, 200).response)?.fields.find((f) => f.id === "secretAccessKey");
    assert.deepEqual([password?.set, password?.value], [true, undefined]);
    assert.doesNotMatch(res.body, /sha256:|not-a-real-key/);
  });

  it("the admin routes need the admin key; Remove keeps the delete guard", async () => {
    const anonymous = await h.app.inject({ method: "GET", url: "/_admin/overview" });
    expectEnvelope(anonymous, 401, /x-admin-key/);
    const facebook = byName("Facebook Custom Audiences").connectorId;
    await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [facebook] } });
    const link = { accountId: h.account, sourceConnectorId: s3.connectorId, destinationConnectorId: facebook };
    expectEnvelope(await h.admin("POST", "/_admin/connections", link), 200);
    const remove = () => h.admin("DELETE", `/_admin/connectors/${s3.connectorId}${q(h.account)}`);
    const refused = expectEnvelope(await remove(), 409, /used in connections/);
    assert.deepEqual(refused.response, { srcConnections: 1, destConnections: 0 });
  });

  it("the web page is off unless asked for, and needs an admin key when asked for", async () => {
    expectEnvelope(await h.app.inject({ method: "GET", url: "/ui" }), 404, /route not found/);
    const withUi = buildApp({ ui: true, adminKey: ADMIN_KEY });
    try {
      const page = await withUi.inject({ method: "GET", url: "/ui" });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers["content-security-policy"]), /default-src 'none'.*form-action 'none'/);
      assert.equal(page.headers["referrer-policy"], "no-referrer");
    } finally {
      await withUi.close();
    }
    assert.throws(() => buildApp({ ui: true }), /the web page \(ui\) needs an admin key/);
  });

  it("the page answers loopback callers only", () => {
    for (const address of ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
      assert.ok(isLoopback(address), address);
    for (const address of ["10.0.0.7", "::ffff:192.168.1.2", "fe80::1", "1127.0.0.1", undefined])
      assert.ok(!isLoopback(address), String(address));
  });
});
