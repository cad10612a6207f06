// getConnectorConfiguration never hands on a secret field's value, by the one rule: a Password
// spelled `password` with its mask, a masked Text, a type the client's profile adds.
import assert from "node:assert/strict";
import type { ConnectorConfigurationView, EmbeddedClient } from "../client";
import { getConnectorConfiguration } from "./lookups";

const field = (id: string, type: string, value: string) => ({
  id,
  label: id,
  type,
  required: false,
  readonly: false,
  value,
});
const fields = [
  field("apiKey", "password", "********"),
  field("hint", "Text", "••••1234"),
  field("credential", "Credential", "sent-in-clear"),
  field("bucket", "Text", "exports"),
];
const view = {
  secretConfig: [
    { configurationId: "c1", name: "n", secretName: "s", configured: true, lastUpdated: 1, configuration: fields },
  ],
  connectionConfig: [],
  editable: true,
  env: "production",
  configured: true,
  lastUpdated: 1,
  secretName: "s",
  configuration: fields,
} as unknown as ConnectorConfigurationView;

describe("lookups: getConnectorConfiguration and secret fields", () => {
  it("leaves out every secret field's value, and keeps the others", async () => {
    const client = {
      profile: { semantics: { secretFieldTypes: ["credential"] } },
      getConfiguration: async () => view,
    } as unknown as EmbeddedClient;
    const result = await getConnectorConfiguration({ client, accountId: () => "a" }, { connectorId: "c" });
    assert.deepEqual(
      result.fields.map((f) => [f.id, f.value]),
      [
        ["apiKey", undefined],
        ["hint", undefined],
        ["credential", undefined],
        ["bucket", "exports"],
      ],
    );
  });
});
