// The plugin `embedded` from TypeScript: `import { embedded } from "pulumi-embedded-connectors"`.
// The same resources and functions as the package's dynamic ones, run by the plugin
// (type tokens `embedded:index:*`), with explicit providers and `pulumi import`.
export { Provider, type ProviderArgs } from "./provider";
export { AddedConnector } from "./added-connector";
export { ConnectorConfiguration } from "./connector-configuration";
export * from "./functions";
