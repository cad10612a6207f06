// The one rule of what is a secret field: type names in any letter case, the names a profile
// adds, and masked values (never taken as values), each with its reason.
import assert from "node:assert/strict";
import {
  isMaskedValue,
  isSecretField,
  readableValue,
  secretFieldIds,
  secretVerdict,
  type SecretTypesSource,
} from "./secret-fields";

const profile: SecretTypesSource = { semantics: { secretFieldTypes: ["Credential", "API Key"] } };

describe("secret-fields: what is a secret field", () => {
  it("a Password or Secret type, in any letter case, is secret, saying so", () => {
    for (const type of ["Password", "password", "PASSWORD", "pAsSwOrD", " Password ", "Secret", "secret", "SECRET"]) {
      const verdict = secretVerdict({ type }, undefined);
      assert.equal(verdict.secret, true, type);
      assert.match(verdict.reason, /^type ".*" \((password|secret), in any letter case\)$/, type);
    }
    assert.deepEqual(secretVerdict({ type: "password" }, undefined), {
      secret: true,
      reason: 'type "password" (password, in any letter case)',
    });
  });

  it("other types are not, by themselves: the spec's, unknown ones, near words, none", () => {
    for (const type of [
      "Text",
      "Number",
      "Date",
      "Select",
      "Multi-Select",
      "Token",
      "Key",
      "Hidden",
      "Passwords",
      "SecretText",
    ]) {
      assert.deepEqual(secretVerdict({ type, value: "x" }, undefined), { secret: false, reason: `type "${type}"` });
    }
    assert.deepEqual(secretVerdict({}, undefined), { secret: false, reason: "type (no type)" });
    assert.equal(isSecretField({ type: 42 }, undefined), false);
  });

  it("a type the profile adds is secret, in any letter case, and only under that profile", () => {
    assert.deepEqual(secretVerdict({ type: "credential" }, profile), {
      secret: true,
      reason: 'type "credential" (the service profile\'s semantics.secretFieldTypes)',
    });
    assert.equal(isSecretField({ type: "API KEY" }, profile), true);
    assert.equal(isSecretField({ type: "Credential" }, undefined), false);
    assert.equal(isSecretField({ type: "Credential" }, { semantics: {} }), false);
  });

  it("a masked value makes any field secret: asterisks, bullets, a short visible tail", () => {
    for (const value of [
      "********",
      "***",
      "••••",
      "●●●●●●",
      "∙∙∙∙",
      "····",
      "****1234",
      "••••abcd",
      "**** **** 1234",
      " ******** ",
    ]) {
      assert.equal(isMaskedValue(value), true, value);
      assert.deepEqual(secretVerdict({ type: "Text", value }, undefined), {
        secret: true,
        reason: 'type "Text", but its value is masked',
      });
    }
  });

  it("values that hold mask characters but are values are not masked", () => {
    for (const value of ["a*b", "*", "**", "*.csv", "sk-****-abcdef", "****12345", "1234****", "", "text", "a • b"]) {
      assert.equal(isMaskedValue(value), false, value);
    }
    for (const value of [12, ["****"], null, undefined]) assert.equal(isMaskedValue(value), false, String(value));
  });

  it("readableValue leaves out a secret field's value and a mask, and keeps the others", () => {
    assert.equal(readableValue({ type: "password", value: "sent-anyway" }, undefined), undefined);
    assert.equal(readableValue({ type: "Text", value: "********" }, undefined), undefined);
    assert.equal(readableValue({ type: "Text", value: "a*b" }, undefined), "a*b");
    const fields = [
      { id: "a", type: "Text", value: "x" },
      { id: "b", type: "PASSWORD" },
      { id: "c", type: "Credential" },
      { id: "d", type: "Text", value: "••••" },
    ];
    assert.deepEqual(secretFieldIds(fields, profile), ["b", "c", "d"]);
    assert.deepEqual(secretFieldIds(fields, undefined), ["b", "d"]);
  });
});
