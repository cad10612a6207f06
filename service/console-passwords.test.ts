// buildApp's `consolePasswords`: a Password answered as many consoles do (type `password`, a set
// one's value `********`), the real value still never shown; the admin overview keeps the
// contract's style; the admin `holds` check tells which value the service holds.
import assert from "node:assert/strict";
import { byName, expectEnvelope, harness, q, type Harness } from "../test/support/service";

type Field = { id: string; type: string; value?: string };
type View = { configuration: Field[]; secretConfig: { configuration: Field[] }[] };

const s3 = byName("Amazon S3");
const REAL = "real-secret-access-key";
const body = (secretAccessKey: string) => ({
  configurationId: s3.secretConfiguration.configurationId,
  secretConfig: { bucket: "b", accessKeyId: "AKIA", secretAccessKey, region: "eu-west-1", fileFormats: ["csv"] },
});

describe("service: consolePasswords (a Password spelled `password`, masked)", () => {
  let h: Harness;
  let url: string;
  beforeEach(async () => {
    h = await harness({ consolePasswords: true });
    url = `/es/v2/connectors/${s3.connectorId}/configuration${q(h.account)}`;
    expectEnvelope(
      await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [s3.connectorId] } }),
      200,
    );
  });
  afterEach(() => h.close());

  const key = (view: View) => view.configuration.find((f) => f.id === "secretAccessKey");
  const holds = async (secretAccessKey: string) =>
    expectEnvelope<Record<string, boolean>>(
      await h.admin("POST", `/_admin/configurations/${s3.connectorId}/holds${q(h.account)}`, {
        secretConfig: { secretAccessKey, bucket: "b" },
      }),
      200,
    ).response;

  it("spells the type `password`, with no value until one is set, then `********`, never the value", async () => {
    const before = expectEnvelope<View>(await h.call("GET", url), 200).response;
    assert.deepEqual([key(before)?.type, key(before)?.value], ["password", undefined]);
    const put = await h.call("PUT", url, { payload: body(REAL) });
    assert.ok(!put.body.includes(REAL));
    const after = expectEnvelope<View>(await h.call("GET", url), 200).response;
    assert.deepEqual([key(after)?.type, key(after)?.value], ["password", "********"]);
    assert.deepEqual(after.secretConfig[0].configuration, after.configuration);
    assert.equal(after.configuration.find((f) => f.id === "bucket")?.type, "Text");
  });

  it("keeps the overview in the contract's style, and stores a `********` it is sent, as a console would", async () => {
    expectEnvelope(await h.call("PUT", url, { payload: body(REAL) }), 200);
    assert.deepEqual(await holds(REAL), { secretAccessKey: true, bucket: true });
    const overview = (await h.admin("GET", "/_admin/overview")).json() as {
      response: { customers: { subAccounts: { connectors: { fields: (Field & { set?: boolean })[] }[] }[] }[] };
    };
    const fields = overview.response.customers[0].subAccounts[0].connectors[0].fields;
    assert.deepEqual(
      fields.find((f) => f.id === "secretAccessKey"),
      {
        ...s3.secretConfiguration.fields.find((f) => f.id === "secretAccessKey"),
        set: true,
      },
    );
    expectEnvelope(await h.call("PUT", url, { payload: body("********") }), 200);
    assert.deepEqual(await holds(REAL), { secretAccessKey: false, bucket: true });
    assert.deepEqual(await holds("********"), { secretAccessKey: true, bucket: true });
  });

  it("off by default: the contract's `Password`, no value", async () => {
    const plain = await harness();
    try {
      const view = expectEnvelope<View>(await plain.call("GET", url), 200).response;
      assert.deepEqual([key(view)?.type, key(view)?.value], ["Password", undefined]);
    } finally {
      await plain.close();
    }
  });
});
