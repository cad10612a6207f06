// getConnectorConfiguration never hands on a secret field's value, by the one rule: a Password
// spelled `password` with its mask, a masked Text, a type the client's profile adds.
import assert from "node:assert/strict";
import type { EmbeddedClient } from "../client";
import { configuredView, CREDENTIAL_PROFILE } from "../../test/support/console-fields";
import { getConnectorConfiguration } from "./lookups";

describe("lookups: getConnectorConfiguration and secret fields", () => {
  it("leaves out every secret field's value, and keeps the others", async () => {
    const client = {
      profile: CREDENTIAL_PROFILE,
      getConfiguration: async () => configuredView(),
    } as unknown as EmbeddedClient;
    const result = await getConnectorConfiguration({ client, accountId: () => "a" }, { connectorId: "c" });
    assert.deepEqual(
      result.fields.map((f) => [f.id, f.value]),
      [
        ["apiKey", undefined],
        ["signingKey", undefined],
        ["credential", undefined],
        ["bucket", "exports"],
      ],
    );
  });
});
