// What a read of ConnectorConfiguration takes as values, by the one secret-field rule: a Password
// spelled otherwise, a type the profile adds and a masked value are never read, digested or
// imported as values, and a masked value in secretConfig is refused before it is sent.
import assert from "node:assert/strict";
import { configuredView, CONSOLE_FIELDS, CREDENTIAL_PROFILE } from "../../test/support/console-fields";
import { digestKeyOf, hiddenFields, liveDigests, PASSWORD_MARK } from "./field-digests";
import { importedInputs, IMPORTED_FIELDS } from "./import";
import { validateSecretConfig, valuesOf } from "./rules";

const KEY = digestKeyOf("client-secret-of-the-test");
const profile = CREDENTIAL_PROFILE;
const fields = CONSOLE_FIELDS;
const view = configuredView();

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
