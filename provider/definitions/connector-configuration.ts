// ConnectorConfiguration, described once (see property.ts): the secret configuration of an added connector.
import type { ResourceDefinition } from "./property";

export const CONNECTOR_CONFIGURATION = {
  name: "ConnectorConfiguration",
  description:
    "The secret configuration of a connector (the service's Configure Connector, a PUT of the whole configuration). " +
    "Detects out-of-band writes through `lastUpdated`. Deleting it leaves the saved configuration in place (the " +
    "service has no \"unconfigure\"; the provider logs a warning): removing the connector (its AddedConnector) drops " +
    "the configuration. Id: `<accountId>/<connectorId>`.",
  inputs: {
    connectorId: {
      type: "string",
      required: true,
      replaceOnChange: true,
      description: "The 16-character id of an added connector (pass the AddedConnector's `connectorId`). Changing it replaces the resource.",
    },
    accountId: {
      type: "string",
      replaceOnChange: true,
      description:
        "The sub-account. Default: the provider's `accountId` (stack config `embedded:accountId`, else the " +
        "environment variable `EMBEDDED_ACCOUNT_ID`). Changing it replaces the resource.",
    },
    configurationId: {
      type: "string",
      description: "Default: the first secret configuration's id (the only one the service can save).",
    },
    name: { type: "string", description: "Name of the configuration. Default: the service's." },
    secretName: { type: "string", description: "Name of the key in the service's secret manager. Default: the service's." },
    secretConfig: {
      type: { map: { oneOf: ["string", "number", { array: "string" }] } },
      required: true,
      secret: true,
      // Not an output: outputs reach the program in clear (`pulumi up --debug` prints them);
      // the state keeps it among the inputs, and `fingerprint` shows a change.
      inputOnly: true,
      description:
        "Field id → value (Text, Password, Date, Select: a string; Number: a number or a numeric string; " +
        "Multi-Select: a list, or a comma-separated string), validated against the connector's live field " +
        'descriptors at preview ("" and [] count as missing). Always stored as a secret, whatever is passed; an input only ' +
        "(not an output: the `fingerprint` output shows that it changed).",
    },
  },
  outputs: {
    configured: {
      type: "boolean",
      description: "Whether the service reports the configuration saved (current after every write and refresh).",
    },
    lastUpdated: { type: "integer", description: "The service's lastUpdated (Unix seconds) as last read." },
    appliedLastUpdated: {
      type: "integer",
      description: "The lastUpdated our last write produced; a different lastUpdated means an out-of-band write.",
    },
    values: {
      type: { map: "string" },
      secret: true,
      description:
        "The non-Password field values, as the service returns them (strings; Multi-Select comma-separated). A " +
        "secret, like the secretConfig they come from; compared on every diff, so a value changed out of band " +
        "shows as an update.",
    },
    fingerprint: {
      type: "string",
      secret: true,
      description: "Keyed hash of the applied secretConfig (secret): shows a changed value without storing it.",
    },
  },
} as const satisfies ResourceDefinition;
