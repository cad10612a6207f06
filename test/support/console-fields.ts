// A configuration as a console-style service answers it (a Password spelled `password` and masked,
// a masked Text, a type only a profile makes secret, a plain Text), for the secret-field tests.
import type { ConnectorConfigurationView } from "../../provider/client";

type Descriptor = ConnectorConfigurationView["configuration"][number];

export const descriptor = (id: string, type: string, value?: string): Descriptor => ({
  id,
  label: id,
  type,
  required: false,
  readonly: false,
  ...(value === undefined ? {} : { value }),
});

/** The profile that makes `Credential` secret. */
export const CREDENTIAL_PROFILE = { semantics: { secretFieldTypes: ["Credential"] } };

export const CONSOLE_FIELDS: Descriptor[] = [
  descriptor("apiKey", "password", "********"),
  descriptor("signingKey", "Text", "••••1234"),
  descriptor("credential", "Credential", "shown-in-clear"),
  descriptor("bucket", "Text", "exports"),
];

/** A configured connector's view holding `fields`. */
export function configuredView(fields: Descriptor[] = CONSOLE_FIELDS): ConnectorConfigurationView {
  const first = { configurationId: "c1", name: "n", secretName: "s", configured: true, lastUpdated: 5 };
  return {
    secretConfig: [{ ...first, configuration: fields }],
    connectionConfig: [],
    editable: true,
    env: "production",
    configured: true,
    lastUpdated: 5,
    secretName: "s",
    configuration: fields,
  } as ConnectorConfigurationView;
}
