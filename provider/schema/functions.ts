// The lookup functions and the object types of their results, described once (see property.ts).
import { DATA_TYPE_CATEGORIES, DATA_TYPES, PLATFORM_TYPES, SUPPORTED_TYPES } from "../../contract/values";
import { SETTINGS } from "../settings/table";
import type { FunctionDefinition, ObjectTypeDefinition, Properties } from "./property";

const accountId = {
  type: "string",
  description: `Sub-account. Default: the provider's \`accountId\` (\`${SETTINGS.accountId.key}\`, else ${SETTINGS.accountId.env}).`,
} as const;

/** What every view of a connector holds. */
const summary = {
  connectorId: {
    type: "string",
    required: true,
    description: "The 16-character connector id (what `AddedConnector` takes).",
  },
  platformId: {
    type: "string",
    required: true,
    description: "The platform's id; a platform often has a Source and a Destination connector.",
  },
  name: { type: "string", required: true, description: 'The display name, e.g. "Amazon S3".' },
  logo: { type: "string", required: true, description: "URL of the logo." },
  dataType: {
    type: "string",
    required: true,
    description: 'E.g. "reporting", "Custom Audiences" (the service may add values).',
  },
  dataTypeCategory: {
    type: "string",
    required: true,
    description: 'E.g. "audience activation" (the service may add values).',
  },
  platformType: {
    type: "string",
    required: true,
    description: 'E.g. "Cloud Storage Provider" (the service may add values).',
  },
  supportedType: { type: { enum: SUPPORTED_TYPES }, required: true, description: "`Source` or `Destination`." },
} as const satisfies Properties;

const links = {
  docUrl: { type: "string", description: "Link to the connector's documentation, when the service has one." },
  overviewUrl: { type: "string", description: "Link to the connector's overview, when the service has one." },
} as const satisfies Properties;

const usage = {
  transfer: { type: "boolean", required: true, description: "Whether initiating a transfer is applicable." },
  configured: { type: "boolean", required: true, description: "Whether its secret configuration has been saved." },
  description: { type: "string", required: true, description: "The service's description of the connector." },
  srcConnections: { type: "integer", required: true, description: "Connections using it as their source." },
  destConnections: { type: "integer", required: true, description: "Connections using it as their destination." },
} as const satisfies Properties;

const filters = {
  dataType: { type: { enum: DATA_TYPES }, description: "Only connectors of this data type." },
  dataTypeCategory: {
    type: { enum: DATA_TYPE_CATEGORIES },
    description: "Only connectors of this data type category.",
  },
  platformType: { type: { enum: PLATFORM_TYPES }, description: "Only connectors of this platform type." },
  supportedType: { type: { enum: SUPPORTED_TYPES }, description: "Only sources, or only destinations." },
  name: { type: "string", description: "Case-insensitive substring of the name." },
} as const satisfies Properties;

export const CATALOGUE_CONNECTOR = {
  name: "CatalogueConnector",
  description: "A connector of the catalogue as List Connectors returns it: the result of `findConnector`.",
  properties: { ...summary, ...links, transfer: usage.transfer },
} as const satisfies ObjectTypeDefinition;

export const ADDED_CONNECTOR_SUMMARY = {
  name: "AddedConnectorSummary",
  description: "A connector added to a sub-account, as List Added Connectors returns it.",
  properties: {
    ...summary,
    ...usage,
    editable: {
      type: "boolean",
      required: true,
      description: "Whether the connector is editable (the service's flag).",
    },
    env: { type: "string", required: true, description: "The environment it was added from." },
  },
} as const satisfies ObjectTypeDefinition;

export const SUPPORTED_CONNECTOR = {
  name: "SupportedConnector",
  description: "A connector that pairs with a given one, as List Supported Connectors returns it.",
  properties: { ...summary, ...usage },
} as const satisfies ObjectTypeDefinition;

export const CONFIGURATION_FIELD = {
  name: "ConfigurationField",
  description: "The descriptor of one configuration field.",
  properties: {
    id: { type: "string", required: true, description: "The key to use in `ConnectorConfiguration.secretConfig`." },
    label: { type: "string", required: true, description: "The field's display name." },
    description: { type: "string", description: "What the field is for, when the service says." },
    type: {
      type: "string",
      required: true,
      description: '"Text", "Password", "Number", "Date", "Select", "Multi-Select" (the service may add types).',
    },
    required: { type: "boolean", required: true, description: "Whether `secretConfig` must set it." },
    readonly: { type: "boolean", required: true, description: "Whether it cannot be set." },
    value: {
      type: "string",
      secret: true,
      description:
        "The saved value, a secret: set only by the TypeScript package's own Output form " +
        "(`getConnectorConfigurationOutput`, run in the program), whose result is then secret. The plugin's lookups (every " +
        "language) and every Promise form leave it out. Never set for a Password field.",
    },
    min: { type: "number", description: "Smallest accepted value of a Number field." },
    max: { type: "number", description: "Largest accepted value of a Number field." },
    options: { type: { array: "string" }, description: "The allowed values of a Select or Multi-Select field." },
  },
} as const satisfies ObjectTypeDefinition;

export const OBJECT_TYPES = [
  CATALOGUE_CONNECTOR,
  ADDED_CONNECTOR_SUMMARY,
  SUPPORTED_CONNECTOR,
  CONFIGURATION_FIELD,
] as const;

const listOf = (type: ObjectTypeDefinition) => ({ array: { ref: type.name } }) as const;

export const GET_CONNECTOR = {
  name: "getConnector",
  description: "One connector of the catalogue (Get Connector, view G).",
  inputs: { connectorId: { type: "string", required: true, description: "The 16-character connector id." }, accountId },
  outputs: {
    ...summary,
    ...links,
    integrated: { type: "boolean", required: true, description: "The service's integration flag." },
    status: { type: "integer", required: true, description: "The service's status code of the connector." },
  },
} as const satisfies FunctionDefinition;

export const LIST_CONNECTORS = {
  name: "listConnectors",
  description: "The catalogue (List Connectors, view L), filtered by the service (no filter: everything), all pages.",
  inputs: { ...filters, accountId },
  outputs: {
    accountId: { type: "string", required: true, description: "The sub-account whose catalogue this is." },
    connectors: {
      type: listOf(CATALOGUE_CONNECTOR),
      required: true,
      description: "Every page, in the service's order.",
    },
  },
} as const satisfies FunctionDefinition;

export const FIND_CONNECTOR = {
  name: "findConnector",
  description: "The one catalogue connector with this exact name and side; an error listing near matches otherwise.",
  inputs: {
    name: { type: "string", required: true, description: "The exact connector name (case-sensitive)." },
    supportedType: {
      type: { enum: SUPPORTED_TYPES },
      required: true,
      description: "`Source` or `Destination`: a platform often has one of each.",
    },
    accountId,
  },
  outputs: CATALOGUE_CONNECTOR.properties,
} as const satisfies FunctionDefinition;

export const LIST_ADDED_CONNECTORS = {
  name: "listAddedConnectors",
  description: "The connectors added to a sub-account (List Added Connectors), all pages.",
  inputs: { ...filters, accountId },
  outputs: {
    accountId: { type: "string", required: true, description: "The sub-account listed." },
    connectors: {
      type: listOf(ADDED_CONNECTOR_SUMMARY),
      required: true,
      description: "Every page (view A), with connection counts.",
    },
  },
} as const satisfies FunctionDefinition;

export const LIST_SUPPORTED_CONNECTORS = {
  name: "listSupportedConnectors",
  description: "The connectors that can be paired with a given one (List Supported Connectors), all pages.",
  inputs: {
    connectorId: {
      type: "string",
      required: true,
      description: "The given connector: a source (→ its destinations) or a destination (→ its sources).",
    },
    accountId,
  },
  outputs: {
    accountId: { type: "string", required: true, description: "The sub-account asked about." },
    connectorId: { type: "string", required: true, description: "The given connector." },
    connectors: {
      type: listOf(SUPPORTED_CONNECTOR),
      required: true,
      description: "The connectors that can be paired with it (view S), all pages.",
    },
  },
} as const satisfies FunctionDefinition;

export const GET_CONNECTOR_CONFIGURATION = {
  name: "getConnectorConfiguration",
  description:
    "Field descriptors and state of a connector's configuration. Through the plugin, no saved value: an Invoke response " +
    "is printed as it is by `pulumi up --debug`. Password fields never carry a value.",
  inputs: {
    connectorId: { type: "string", required: true, description: "Any catalogue connector, added or not." },
    accountId,
  },
  outputs: {
    accountId: { type: "string", required: true, description: "The sub-account asked about." },
    connectorId: { type: "string", required: true, description: "The connector asked about." },
    configurationId: {
      type: "string",
      description: "The first secret configuration's id (the one ConnectorConfiguration saves).",
    },
    configured: { type: "boolean", required: true, description: "Whether the configuration has been saved." },
    lastUpdated: { type: "integer", required: true, description: "Unix seconds; 0 when never configured." },
    secretName: { type: "string", description: "Name of the key in the service's secret manager." },
    editable: {
      type: "boolean",
      required: true,
      description: "Whether the connector is editable (the service's flag).",
    },
    env: { type: "string", required: true, description: "The environment of the configuration." },
    fields: {
      type: listOf(CONFIGURATION_FIELD),
      required: true,
      description:
        "Descriptors of the secret fields, with their saved values (a secret; Output form only); Password fields never carry a value.",
    },
    connectionFields: {
      type: listOf(CONFIGURATION_FIELD),
      required: true,
      description: "Descriptors of the connection-level fields.",
    },
  },
} as const satisfies FunctionDefinition;

export const FUNCTIONS = [
  GET_CONNECTOR,
  LIST_CONNECTORS,
  FIND_CONNECTOR,
  LIST_ADDED_CONNECTORS,
  LIST_SUPPORTED_CONNECTORS,
  GET_CONNECTOR_CONFIGURATION,
] as const;
