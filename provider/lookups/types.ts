// The public shapes of the lookup functions' arguments and results. They are written out
// rather than inferred from the client's zod schemas: an inferred type carries zod's
// `[x: string]: unknown` index signature (so `findConnectorOutput(…).connectorId` would be
// an `Output<unknown>`) and makes every consumer's compiler load zod's declarations.
// The compiler checks that the client's values fit them (the functions return them as these
// types) and that the filter value lists match the client's (lookups/program-context.ts).
import type * as pulumi from "@pulumi/pulumi";

/** Every field of T may be given as an Input (the `…Output` forms' arguments). */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Which side of a connection a connector is. */
export type SupportedType = "Source" | "Destination";

/** The `dataType` filter values of the service's specification. */
export type DataType =
  | "Custom Audiences"
  | "identity management"
  | "reporting"
  | "data store"
  | "Campaign"
  | "customer match"
  | "offline conversions"
  | "analytics"
  | "campaign posting"
  | "Audiences - Data API"
  | "audiences"
  | "custom file audiences"
  | "geo events"
  | "events"
  | "ads management"
  | "raw real-time conversion events"
  | "Conversions"
  | "audience DMP segments"
  | "Insights"
  | "transcoding"
  | "click conversions"
  | "ads analytics"
  | "ID match"
  | "raw offline conversion events"
  | "raw events data stream"
  | "Audiences - CRM API";

/** The `dataTypeCategory` filter values of the service's specification. */
export type DataTypeCategory =
  "audience activation" | "identity management" | "reporting" | "data store" | "campaign management" | "events";

/** The `platformType` filter values of the service's specification. */
export type PlatformType =
  | "Social Media Platform"
  | "CRM Platform"
  | "Demand-Side Platform (DSP)"
  | "Cloud Storage Provider"
  | "Media Management System"
  | "Identity Management"
  | "Supply-Side Platform (SSP)"
  | "Customer Data Platform (CDP)"
  | "E-Commerce Platform"
  | "Data Provider";

/** Filters of List Connectors and List Added Connectors, applied by the service. */
export interface ConnectorFilters {
  dataType?: DataType;
  dataTypeCategory?: DataTypeCategory;
  platformType?: PlatformType;
  supportedType?: SupportedType;
  /** Case-insensitive substring of the name. */
  name?: string;
}

/** What every view of a connector holds. */
export interface ConnectorSummary {
  /** The 16-character connector id (what `AddedConnector` takes). */
  connectorId: string;
  /** The platform's id; a platform often has a Source and a Destination connector. */
  platformId: string;
  /** The display name, e.g. "Amazon S3". */
  name: string;
  /** URL of the logo. */
  logo: string;
  /** E.g. "reporting", "Custom Audiences" (the service may add values). */
  dataType: string;
  /** E.g. "audience activation" (the service may add values). */
  dataTypeCategory: string;
  /** E.g. "Cloud Storage Provider" (the service may add values). */
  platformType: string;
  /**
   * `Source` or `Destination`; a service may send a value of its own for a connector usable on
   * both sides: it is kept as sent (docs/service-contract.md, "Assumption register").
   */
  supportedType: SupportedType | (string & {});
}

/** A connector of the catalogue as List Connectors returns it: the result of `findConnector`. */
export interface CatalogueConnector extends ConnectorSummary {
  /** Link to the connector's documentation, when the service has one. */
  docUrl?: string;
  /** Link to the connector's overview, when the service has one. */
  overviewUrl?: string;
  /** Whether initiating a transfer is applicable. */
  transfer: boolean;
}

/** A connector as Get Connector returns it: the result of `getConnector`. */
export interface GetConnectorResult extends ConnectorSummary {
  /** Link to the connector's documentation, when the service has one. */
  docUrl?: string;
  /** Link to the connector's overview, when the service has one. */
  overviewUrl?: string;
  /** The service's integration flag. */
  integrated: boolean;
  /** The service's status code of the connector. */
  status: number;
}

/** A connector added to a sub-account, as List Added Connectors returns it. */
export interface AddedConnectorSummary extends ConnectorSummary {
  /** Whether initiating a transfer is applicable. */
  transfer: boolean;
  /** Whether its secret configuration has been saved. */
  configured: boolean;
  /** The service's description of the connector. */
  description: string;
  /** Connections using it as their source. */
  srcConnections: number;
  /** Connections using it as their destination. */
  destConnections: number;
  /** Whether the connector is editable (the service's flag). */
  editable: boolean;
  /** The environment it was added from. */
  env: string;
}

/** A connector that pairs with a given one, as List Supported Connectors returns it. */
export interface SupportedConnector extends ConnectorSummary {
  /** Whether initiating a transfer is applicable. */
  transfer: boolean;
  /** Whether its secret configuration has been saved. */
  configured: boolean;
  /** The service's description of the connector. */
  description: string;
  /** Connections using it as their source. */
  srcConnections: number;
  /** Connections using it as their destination. */
  destConnections: number;
}

/** The descriptor of one configuration field. */
export interface ConfigurationField {
  /** The key to use in `ConnectorConfiguration.secretConfig`. */
  id: string;
  /** The field's display name. */
  label: string;
  /** What the field is for, when the service says. */
  description?: string;
  /** "Text", "Password", "Number", "Date", "Select", "Multi-Select" (the service may add types). */
  type: string;
  /** Whether `secretConfig` must set it. */
  required: boolean;
  /** Whether it cannot be set. */
  readonly: boolean;
  /** The saved value; never set for a Password field. */
  value?: string;
  /** Smallest accepted value of a Number field. */
  min?: number;
  /** Largest accepted value of a Number field. */
  max?: number;
  /** The allowed values of a Select or Multi-Select field. */
  options?: string[];
}

/** The result of `getConnectorConfiguration`: field descriptors and non-secret state of a configuration. */
export interface GetConnectorConfigurationResult {
  /** The sub-account asked about. */
  accountId: string;
  /** The connector asked about. */
  connectorId: string;
  /** The first secret configuration's id (the one ConnectorConfiguration saves). */
  configurationId: string | undefined;
  /** Whether the configuration has been saved. */
  configured: boolean;
  /** Unix seconds; 0 when never configured, or when the service does not send it. */
  lastUpdated: number;
  /** Name of the key in the service's secret manager. */
  secretName: string | undefined;
  /** Whether the connector is editable (the service's flag). */
  editable: boolean;
  /** The environment of the configuration. */
  env: string;
  /** Descriptors of the secret fields; Password fields never carry a value. */
  fields: ConfigurationField[];
  /** Descriptors of the connection-level fields. */
  connectionFields: ConfigurationField[];
}
