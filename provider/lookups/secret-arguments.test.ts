// A lookup's Output form given a secret argument
// (`pulumi.secret(...)`, `config.requireSecret(...)`) refuses naming that argument, never its
// value in any form, and without near matches (they would tell what the secret is like).
import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { findConnectorOutput, getConnectorOutput } from "..";
import { withoutArgumentValues } from "./secret-arguments";
import { assertNoCanary, canary, replayCanariesOnFailure } from "../../test/e2e/canaries";
import { rejection, useLookupFixture } from "../../test/support/provider-fixtures";

/** The Output's value as a Promise (its rejection, when the lookup refuses). */
function settled<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as { promise(): Promise<T> }).promise();
}

describe("lookup functions: secret arguments are named, never quoted", () => {
  replayCanariesOnFailure();
  useLookupFixture();
  const value = canary("lookup-argument");

  it("findConnectorOutput with a secret name: the refusal names the argument, no value, no near matches", async () => {
    const error = await rejection(
      settled(findConnectorOutput({ name: pulumi.secret(`Amazon S3 ${value}`), supportedType: "Source" })),
    );
    assert.match(error.message, /no connector named \(the secret argument name\) with supportedType Source/);
    assert.doesNotMatch(error.message, /near matches/);
    assertNoCanary(`${error.message}\n${error.stack ?? ""}`, value, "the refusal");
    // The same name given plainly is quoted, with its near matches.
    const plain = await rejection(settled(findConnectorOutput({ name: "Amazon S4", supportedType: "Source" })));
    assert.match(plain.message, /no connector named "Amazon S4".*near matches: "Amazon S3"/);
  });

  it("getConnectorOutput with a secret accountId: the service's refusal without the id", async () => {
    const account = `acct-${value}`;
    const error = await rejection(
      settled(getConnectorOutput({ connectorId: "0123456789abcdef", accountId: pulumi.secret(account) })),
    );
    assertNoCanary(`${error.message}\n${error.stack ?? ""}`, account, "the refusal");
  });

  it("withoutArgumentValues replaces a value in any case and its encodings, longest first", () => {
    const secret = new Set(["name", "accountId"]);
    const args = { name: "Ab/c d", accountId: "Ab/c d-2", supportedType: "Source" };
    const text = [
      "Ab/c d-2",
      "ab/C D",
      encodeURIComponent("Ab/c d"),
      Buffer.from("Ab/c d").toString("base64"),
      JSON.stringify("Ab/c d"),
    ].join(" | ");
    const out = withoutArgumentValues(text, args, secret);
    assert.equal(
      out,
      [
        "(the secret argument accountId)",
        "(the secret argument name)",
        "(the secret argument name)",
        "(the secret argument name)",
        '"(the secret argument name)"',
      ].join(" | "),
    );
    assert.equal(withoutArgumentValues("Source", args, secret), "Source", "a plain argument stays");
  });
});
