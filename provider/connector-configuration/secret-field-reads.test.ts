// What a read of ConnectorConfiguration takes as values, by the one secret-field rule: a Password
// spelled otherwise, a type the profile adds and a masked value are never read, digested or
// imported as values, and a masked value in secretConfig is refused before it is sent.
import assert from "node:assert/strict";
import type { ConnectorConfigurationView } from "../client";
import { digestKeyOf, hiddenFields, liveDigests, PASSWORD_MARK } from "./field-digests";
import { importedInputs, IMPORTED_FIELDS } from "./import";
import { validateSecretConfig, valuesOf } from "./rules";

const KEY = digestKeyOf("client-secret-of-the-test");
const profile = { semantics: { secretFieldTypes: ["Credential"] } };
const field = (id: string, type: string, value?: string) => ({
  id,
  label: id,
  type,
  required: false,
  readonly: false,
  ...(value === undefined ? {} : { value }),
});
const fields = [
  field("apiKey", "password", "********"),
  field("signingKey", "Text", "••••1234"),
  field("credential", "Credential", "shown-in-clear"),
  field("bucket", "Text", "exports"),
];
const view = {
  secretConfig: [
    { configurationId: "c1", name: "n", secretName: "s", configured: true, lastUpdated: 5, configuration: fields },
  ],
  connectionConfig: [],
  editable: true,
  env: "production",
  configured: true,
  lastUpdated: 5,
  secretName: "s",
  configuration: fields,
} as unknown as ConnectorConfigurationView;

describe("connector configuration: secret fields by the one rule", () => {
  it("a read takes no secret field's value, and digests none of them", () => {
    assert.deepEqual(valuesOf(view, profile), { bucket: "exports" });
    assert.deepEqual(hiddenFields(view, profile), ["apiKey", "signingKey", "credential"]);
    const stored = { apiKey: PASSWORD_MARK, signingKey: PASSWORD_MARK, credential: PASSWORD_MARK };
    const live = liveDigests(KEY, "a", "c", view, stored, profile);
    assert.deepEqual(Object.keys(live).sort(), ["apiKey", "bucket", "credential", "signingKey"]);
    for (const id of ["apiKey", "signingKey", "credential"]) assert.equal(live[id], PASSWORD_MARK, id);
    // Without the profile, its type is a plain one: its value is read.
    assert.deepEqual(valuesOf(view, undefined), { bucket: "exports", credential: "shown-in-clear" });
  });

  it("an import names the secret fields to declare, with no value", () => {
    const inputs = importedInputs(view, { connectorId: "c", accountId: "a", configurationId: "c1" }, {}, profile);
    assert.deepEqual((inputs[IMPORTED_FIELDS] as { passwords: string[] }).passwords, [
      "apiKey",
      "signingKey",
      "credential",
    ]);
  });

  it("check refuses a masked value in secretConfig, naming the field, and takes a value with a `*` in it", () => {
    const { failures } = validateSecretConfig("c", fields, { apiKey: "********", bucket: "a*b" });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["secretConfig.apiKey"],
    );
    assert.match(
      failures[0].reason,
      /field "apiKey" \(apiKey\) holds a masked value .* would overwrite the value the service holds/,
    );
  });
});
