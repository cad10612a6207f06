// `fleet adopt`'s inputs and what it writes of a sub-account: the accounts file (CSV or JSON),
// the secrets map (sources only), and the stack file's connectors built from the service's
// answers: Password fields left to the service or mapped to a source, never a value.
import { strict as assert } from "node:assert";
import { parseAdoptList, parseSecretMap } from "./adopt-input";
import { adoptedConnectors } from "./adopt-read";
import type { ConnectorSnapshot } from "../generate";

type Field = NonNullable<ConnectorSnapshot["configuration"]>["fields"][number];
const field = (id: string, type: string, value?: string, readonly = false): Field =>
  ({ id, label: id, type, required: false, readonly, ...(value === undefined ? {} : { value }) }) as Field;

const A = "239a5bbdbe543163";
const B = "4b1f0c2e9d8a7f60";

describe("fleet adopt: the accounts file", () => {
  it("reads CSV with a header, comments and blank lines; the stack defaults to <customer>-<accountId>", () => {
    const list = parseAdoptList(`accountId,customer,stack\n# ours\n${A},acme,acme-eu\n\n${B},globex\n`, "a.csv");
    assert.deepEqual(list, [
      { accountId: A, customer: "acme", stack: "acme-eu" },
      { accountId: B, customer: "globex", stack: `globex-${B}` },
    ]);
  });

  it("reads JSON; without a customer the stack is the account id", () => {
    assert.deepEqual(parseAdoptList(JSON.stringify([{ accountId: A }]), "a.json"), [
      { accountId: A, customer: undefined, stack: A },
    ]);
  });

  it("refuses a bad id naming its line, a bad stack name, and a sub-account or stack listed twice", () => {
    assert.throws(
      () => parseAdoptList(`${A},acme\nnot-an-id,acme\n`, "a.csv"),
      /a\.csv, line 2: the account id must be/,
    );
    assert.throws(() => parseAdoptList(`${A},acme,bad/name\n`, "a.csv"), /line 1: the stack name may hold only/);
    assert.throws(
      () => parseAdoptList(`[{ accountId: "${A}" }]`, "a.json"),
      /^Error: a\.json does not parse as JSON \(.*\); write a JSON array of \{ accountId, customer, stack \}/,
    );
    assert.throws(
      () => parseSecretMap('{"segment":{"apiKey": hunter2-plain}}', "m.json"),
      (e: Error) => /^m\.json does not parse as JSON \(not valid JSON\)/.test(e.message) && !/hunter2/.test(e.message),
      "the parser's message quotes the text: a value typed where a source belongs",
    );
    assert.throws(
      () => parseAdoptList(`${A},acme\n${A},globex\n`, "a.csv"),
      /accountId 239a5bbdbe543163 is listed twice/,
    );
    assert.throws(() => parseAdoptList(`${A},acme,x\n${B},acme,x\n`, "a.csv"), /stack x is listed twice/);
  });
});

describe("fleet adopt: the secrets map", () => {
  it("takes sources and refuses a value, naming the connector and field but not the value", () => {
    assert.deepEqual(parseSecretMap('{"segment":{"apiKey":{"env":"ACME_KEY"}}}', "m.json"), {
      segment: { apiKey: { env: "ACME_KEY" } },
    });
    assert.throws(
      () => parseSecretMap('{"segment":{"apiKey":"hunter2-plain"}}', "m.json"),
      (e: Error) =>
        /connector "segment", field "apiKey" must be .* never a value/.test(e.message) &&
        !e.message.includes("hunter2"),
    );
  });
});

describe("fleet adopt: the stack file's connectors from the service's answers", () => {
  const snapshots: ConnectorSnapshot[] = [
    {
      connectorId: "48e6ff62fb2b1dfa",
      name: "Amazon S3",
      supportedType: "Source",
      configuration: {
        fields: [
          field("bucket", "Text", "exports"),
          field("secretAccessKey", "Password", "a-value-the-service-should-never-return"),
          field("fileFormats", "Multi-Select", "csv,json"),
          field("createdBy", "Text", "service", true),
        ],
      },
    },
    {
      connectorId: "5a5b5c5d5e5f5a5b",
      name: "Segment",
      supportedType: "Source",
      configuration: {
        fields: [field("apiKey", "Password"), field("batchSize", "Number", "500"), field("empty", "Text", "")],
      },
    },
    { connectorId: "6a6b6c6d6e6f6a6b", name: "Mixpanel", supportedType: "Source" },
  ];

  it("writes the values the service returns, each Password in heldByService, and adopts what is not configured as added only", () => {
    const adopted = adoptedConnectors(snapshots);
    assert.deepEqual(adopted.connectors, {
      "amazon-s3": {
        name: "Amazon S3",
        supportedType: "Source",
        values: { bucket: "exports", fileFormats: ["csv", "json"] },
        heldByService: ["secretAccessKey"],
      },
      segment: { name: "Segment", supportedType: "Source", values: { batchSize: 500 }, heldByService: ["apiKey"] },
      mixpanel: { name: "Mixpanel", supportedType: "Source", configured: false },
    });
    assert.deepEqual([adopted.held, adopted.mapped, adopted.unconfigured], [2, 0, ["Mixpanel (6a6b6c6d6e6f6a6b)"]]);
    assert.ok(!JSON.stringify(adopted).includes("a-value-the-service"), "a Password's value is never written");
  });

  it("maps a Password to the source given by connector key or catalogue name instead", () => {
    const adopted = adoptedConnectors(snapshots, {
      "Amazon S3": { secretAccessKey: { config: "s3Secret" } },
      segment: { apiKey: { env: "ACME_SEGMENT_API_KEY" } },
    });
    assert.deepEqual(adopted.connectors["amazon-s3"].secrets, { secretAccessKey: { config: "s3Secret" } });
    assert.equal(adopted.connectors["amazon-s3"].heldByService, undefined);
    assert.deepEqual(adopted.connectors.segment.secrets, { apiKey: { env: "ACME_SEGMENT_API_KEY" } });
    assert.deepEqual([adopted.held, adopted.mapped], [0, 2]);
  });

  it("a Password spelled `password` and masked, a masked Text and a profile's type: left to the service, counted", () => {
    const consoleStyle: ConnectorSnapshot[] = [
      {
        connectorId: "5a5b5c5d5e5f5a5b",
        name: "Segment",
        supportedType: "Source",
        configuration: {
          fields: [
            field("apiKey", "password", "********"),
            field("signingKey", "Text", "●●●●●●"),
            field("credential", "Credential", "shown-in-clear"),
            field("workspace", "Text", "acme"),
          ],
          profile: { semantics: { secretFieldTypes: ["Credential"] } },
        },
      },
    ];
    const adopted = adoptedConnectors(consoleStyle);
    assert.deepEqual(adopted.connectors.segment, {
      name: "Segment",
      supportedType: "Source",
      values: { workspace: "acme" },
      heldByService: ["apiKey", "signingKey", "credential"],
    });
    assert.equal(adopted.held, 3);
  });

  it("gives two connectors of one name distinct keys", () => {
    const twice: ConnectorSnapshot[] = [
      { ...snapshots[1], supportedType: "Source" },
      { ...snapshots[1], connectorId: "7a7b7c7d7e7f7a7b", supportedType: "Destination" },
    ];
    assert.deepEqual(Object.keys(adoptedConnectors(twice).connectors), ["segment", "segment-destination"]);
  });
});
