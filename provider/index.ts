// The package's public API: `import … from "pulumi-embedded-connectors"`. Its declarations
// must not reach provider/client/schemas (zod): a consumer's compiler would load zod's.
export { AddedConnector, type AddedConnectorArgs, type AddedConnectorOutputs } from "./hosts/dynamic/added-connector";
export {
  ConnectorConfiguration,
  type ConnectorConfigurationArgs,
  type ConnectorConfigurationOutputs,
  type SecretConfigValue,
} from "./hosts/dynamic/connector-configuration";
/** The same resources and functions as the native Pulumi plugin `embedded` (README, "The plugin"). */
export * as embedded from "./hosts/sdk";
export {
  findConnector,
  findConnectorOutput,
  getConnector,
  getConnectorOutput,
  listConnectors,
  listConnectorsOutput,
  type FindConnectorArgs,
  type FindConnectorResult,
  type GetConnectorArgs,
  type ListConnectorsArgs,
  type ListConnectorsResult,
} from "./lookups/catalogue";
export {
  getConnectorConfiguration,
  getConnectorConfigurationOutput,
  listAddedConnectors,
  listAddedConnectorsOutput,
  listSupportedConnectors,
  listSupportedConnectorsOutput,
  type GetConnectorConfigurationArgs,
  type GetConnectorConfigurationResult,
  type ListAddedConnectorsArgs,
  type ListAddedConnectorsResult,
  type ListSupportedConnectorsArgs,
  type ListSupportedConnectorsResult,
} from "./lookups/sub-account";
export type {
  AddedConnectorSummary,
  CatalogueConnector,
  ConfigurationField,
  ConnectorFilters,
  ConnectorSummary,
  DataType,
  DataTypeCategory,
  GetConnectorResult,
  InputArgs,
  PlatformType,
  SupportedConnector,
  SupportedType,
} from "./lookups/types";
// The settings a program may want to inspect; how they are read is the provider's business.
export { SETTINGS, SettingsError, resolveSettings, type ProviderSettings, type SettingName } from "./settings/resolve";
export {
  AuthenticationError,
  ConflictError,
  EmbeddedApiError,
  ForbiddenError,
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  ValidationError,
  type ErrorKind,
  type FieldError,
} from "./client/errors";
