// Get Connector Configuration and Configure: descriptors for non-added
// connectors, full validation (one error per field, nothing saved), Password
// never returned, lastUpdated strictly increasing.
import assert from "node:assert/strict";
import { byName, expectEnvelope, harness, oauthBody, q, type Harness } from "../test/support/service";

type Field = { id: string; type: string; value?: string; readonly: boolean };
type Config = {
  secretConfig: {
    configurationId: string;
    configured: boolean;
    lastUpdated: number;
    name: string;
    secretName: string;
    configuration: Field[];
  }[];
  connectionConfig: { configurationId: string; configuration: Field[] }[];
  configured: boolean;
  lastUpdated: number;
  secretName: string;
  configuration: Field[];
};

const fb = byName("Facebook Custom Audiences");
const s3 = byName("Amazon S3");

describe("service: connector configuration", () => {
  let h: Harness;
  let url: string;
  beforeEach(async () => {
    h = await harness();
    url = `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`;
  });
  afterEach(() => h.close());

  const addFb = async () =>
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
  const get = async () => expectEnvelope<Config>(await h.call("GET", url), 200).response;
  const put = (payload: unknown) => h.call("PUT", url, { payload });

  it("works for a connector that is not added: descriptors, configured false, lastUpdated 0, no values", async () => {
    const c = await get();
    assert.equal(c.configured, false);
    assert.equal(c.lastUpdated, 0);
    assert.equal(c.secretConfig.length, 1);
    assert.equal(c.secretConfig[0].configurationId, fb.secretConfiguration.configurationId);
    assert.deepEqual(c.configuration, c.secretConfig[0].configuration);
    assert.equal(c.secretName, c.secretConfig[0].secretName);
    assert.ok(c.connectionConfig.length > 0);
    for (const f of c.configuration) assert.equal(f.value, f.readonly ? f.value : undefined, f.id);
    assert.ok(c.configuration.find((f) => f.readonly)?.value, "readonly fields show their fixed value");
    expectEnvelope(await h.call("GET", `/es/v2/connectors/ffffffffffffffff/configuration${q(h.account)}`), 404);
  });

  it("Configure: 404 when the connector is not added, nothing saved", async () => {
    expectEnvelope(await put(oauthBody(fb)), 404, /not added to this sub-account/);
    expectEnvelope(
      await h.call("PUT", `/es/v2/connectors/ffffffffffffffff/configuration${q(h.account)}`, {
        payload: oauthBody(fb),
      }),
      404,
    );
    assert.equal((await get()).configured, false);
  });

  it("Configure saves the values, returns them except Password, and sets lastUpdated", async () => {
    await addFb();
    const body = expectEnvelope<Config>(await put({ ...oauthBody(fb), name: "Prod FB", secretName: "vault/fb" }), 200);
    const saved = body.response;
    assert.equal(saved.configured, true);
    assert.equal(saved.lastUpdated, Math.floor(h.clock.now / 1000));
    assert.equal(saved.secretName, "vault/fb");
    assert.equal(saved.secretConfig[0].name, "Prod FB");
    const values = Object.fromEntries(saved.configuration.map((f) => [f.id, f.value]));
    assert.equal(values.adAccountId, "act_123");
    assert.equal(values.apiVersion, "v19.0");
    assert.equal(values.permissions, "read,audiences");
    assert.equal(values.dailyUploadLimit, "500");
    assert.equal(values.tokenIssuedOn, "2029-12-31");
    assert.equal(values.clientSecret, undefined);
    assert.deepEqual(await get(), saved);
    // The password appears nowhere, in any answer.
    for (const res of [
      await h.call("GET", url),
      await h.call("GET", `/es/v2/connectors/added${q(h.account)}`),
      await h.call("GET", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`),
    ])
      assert.ok(!res.body.includes("s3cr3t-value"));
    const added = expectEnvelope<{ items: { configured: boolean }[] }>(
      await h.call("GET", `/es/v2/connectors/added${q(h.account)}`),
      200,
    );
    assert.equal(added.response.items[0].configured, true);
  });

  it("PUT replaces the whole configuration; a comma-separated Multi-Select and numeric strings are accepted", async () => {
    await addFb();
    expectEnvelope(await put(oauthBody(fb)), 200);
    const replaced = expectEnvelope<Config>(
      await put(oauthBody(fb, { permissions: "write,conversions", dailyUploadLimit: "7", tokenIssuedOn: undefined })),
      200,
    ).response;
    const values = Object.fromEntries(replaced.configuration.map((f) => [f.id, f.value]));
    assert.equal(values.permissions, "write,conversions");
    assert.equal(values.dailyUploadLimit, "7");
    assert.equal(values.tokenIssuedOn, undefined);
  });

  it("lastUpdated strictly increases: +1 while the clock stands still, the clock when it moves on", async () => {
    await addFb();
    const stamps: number[] = [];
    for (let i = 0; i < 3; i++) stamps.push(expectEnvelope<Config>(await put(oauthBody(fb)), 200).response.lastUpdated);
    const t = Math.floor(h.clock.now / 1000);
    assert.deepEqual(stamps, [t, t + 1, t + 2]);
    h.clock.now += 10_000;
    assert.equal(expectEnvelope<Config>(await put(oauthBody(fb)), 200).response.lastUpdated, t + 10);
    // Even across Remove and re-add, a new configuration never goes back in time.
    expectEnvelope(await h.call("DELETE", `/es/v2/connectors/${fb.connectorId}${q(h.account)}`), 200);
    await addFb();
    assert.equal(expectEnvelope<Config>(await put(oauthBody(fb)), 200).response.lastUpdated, t + 11);
  });

  it("400 with one error per field for every kind of violation, and nothing saved", async () => {
    await addFb();
    const good = expectEnvelope<Config>(await put(oauthBody(fb)), 200).response;
    const res = await put({
      configurationId: "0000000000000000",
      secretConfig: {
        clientSecret: "new",
        apiVersion: "v1",
        permissions: ["read", "admin"],
        dailyUploadLimit: 100001,
        tokenIssuedOn: "yesterday",
        authEndpoint: "https://evil.example.com",
        mystery: "x",
      },
    });
    const body = expectEnvelope(res, 400, /invalid configuration/);
    const byField = Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]));
    assert.deepEqual(Object.keys(byField).sort(), [
      "configurationId",
      "secretConfig.adAccountId",
      "secretConfig.apiVersion",
      "secretConfig.authEndpoint",
      "secretConfig.dailyUploadLimit",
      "secretConfig.mystery",
      "secretConfig.permissions",
      "secretConfig.tokenIssuedOn",
    ]);
    assert.match(byField["secretConfig.adAccountId"], /required/);
    assert.match(byField["secretConfig.authEndpoint"], /read-only/);
    assert.match(byField["secretConfig.mystery"], /unknown/);
    assert.match(byField["secretConfig.dailyUploadLimit"], /at most 100000/);
    assert.doesNotMatch(res.body, /"new"/);
    assert.deepEqual(await get(), good);
  });

  it("400 for Number below min, a non-string Text, and a body that is not a Configure body", async () => {
    await addFb();
    const low = expectEnvelope(await put(oauthBody(fb, { dailyUploadLimit: 0, adAccountId: 42 })), 400);
    assert.deepEqual((low.errors ?? []).map((e) => e.field).sort(), [
      "secretConfig.adAccountId",
      "secretConfig.dailyUploadLimit",
    ]);
    expectEnvelope(await put({ secretConfig: {} }), 400);
    expectEnvelope(
      await put({ configurationId: fb.secretConfiguration.configurationId, secretConfig: { a: { nested: 1 } } }),
      400,
    );
    assert.equal((await get()).configured, false);
  });

  it("validates storage connectors' own fields (Select region, Password secretAccessKey)", async () => {
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [s3.connectorId] } }),
      200,
    );
    const s3url = `/es/v2/connectors/${s3.connectorId}/configuration${q(h.account)}`;
    const payload = {
      configurationId: s3.secretConfiguration.configurationId,
      secretConfig: {
        bucket: "b",
        accessKeyId: "AKIA",
        secretAccessKey: "xyz-secret",
        region: "eu-west-1",
        fileFormats: ["csv"],
      },
    };
    const res = await h.call("PUT", s3url, { payload });
    expectEnvelope(res, 200);
    assert.ok(!res.body.includes("xyz-secret"));
    const bad = expectEnvelope(
      await h.call("PUT", s3url, {
        payload: { ...payload, secretConfig: { ...payload.secretConfig, region: "mars-1" } },
      }),
      400,
    );
    assert.deepEqual(
      (bad.errors ?? []).map((e) => e.field),
      ["secretConfig.region"],
    );
  });
});
