// AddedConnector, described once (see property.ts): a catalogue connector added to a sub-account.
import { SETTINGS } from "../settings/table";
import type { ResourceDefinition } from "./property";

export const ADDED_CONNECTOR = {
  name: "AddedConnector",
  description:
    "A connector of the catalogue, added to a sub-account (the service's Add Connector). Deleting it removes the " +
    "connector from the sub-account, which the service refuses while connections use it: delete those first, or " +
    "set `retainOnDelete: true`. Id: `<accountId>/<connectorId>`.",
  inputs: {
    connectorId: {
      type: "string",
      required: true,
      replaceOnChange: true,
      idPart: true,
      description: "The 16-character id of the catalogue connector to add. Changing it replaces the resource.",
    },
    accountId: {
      type: "string",
      replaceOnChange: true,
      idPart: true,
      description:
        "The sub-account to add it to. Default: the provider's `accountId` " +
        `(stack config \`${SETTINGS.accountId.key}\`, else the environment variable \`${SETTINGS.accountId.env}\`). ` +
        "Changing it replaces the resource.",
    },
    adoptExisting: {
      type: "boolean",
      default: false,
      description:
        "Take over a connector that is already added to the sub-account instead of failing. Default: false (an " +
        "already-added connector is an error; adopt it with this flag, or with `pulumi import` when using the " +
        "plugin). Changing it alone changes nothing on the service.",
    },
  },
  outputs: {
    platformId: {
      type: "string",
      description: "The platform's id; a platform often has a Source and a Destination connector.",
    },
    name: { type: "string", description: 'The display name, e.g. "Amazon S3".' },
    logo: { type: "string", description: "URL of the logo." },
    dataType: { type: "string", description: 'E.g. "reporting", "Custom Audiences".' },
    dataTypeCategory: { type: "string", description: 'E.g. "audience activation".' },
    platformType: { type: "string", description: 'E.g. "Cloud Storage Provider".' },
    supportedType: { type: { enum: ["Source", "Destination"] }, description: "`Source` or `Destination`." },
    transfer: { type: "boolean", description: "Whether initiating a transfer is applicable." },
    configured: {
      type: "boolean",
      description:
        "Whether its configuration was saved when it was added or imported; not refreshed (a configuration saved " +
        "after the add is no drift). ConnectorConfiguration.configured is the live one.",
    },
    description: { type: "string", description: "The service's description of the connector." },
    srcConnections: { type: "integer", description: "Connections using the connector as source, as last read." },
    destConnections: { type: "integer", description: "Connections using the connector as destination, as last read." },
    editable: { type: "boolean", description: "Whether the connector is editable (the service's flag)." },
    env: { type: "string", description: "The environment the connector was added from." },
  },
} as const satisfies ResourceDefinition;
