// The plugin `embedded` without its TypeScript SDK's help: an AddedConnector and a
// ConnectorConfiguration registered as raw `pulumi.CustomResource`s, every input plain (no
// `pulumi.secret`, no `additionalSecretOutputs`), so that whatever is secret in the state is so
// because the plugin said it. The configuration is read from
// the environment variable E2E_SECRET_CONFIG (JSON), not from config, so that no value goes
// through the program's config either. The plugin's getConnectorConfigurationOutput of the
// configured connector is exported as `lookup` (the SDK's Output form, which must be secret).
//
//   connectorId: (config) the connector to add and configure
import * as pulumi from "@pulumi/pulumi";
import { embedded } from "pulumi-embedded-connectors";
import { PLUGIN_VERSION } from "pulumi-embedded-connectors/dist/provider/schema/plugin-release.js";

const config = new pulumi.Config();
const connectorId = config.require("connectorId");
const secretConfig = JSON.parse(process.env.E2E_SECRET_CONFIG ?? "{}") as Record<string, unknown>;

const added = new pulumi.CustomResource(
  "embedded:index:AddedConnector",
  "added",
  { connectorId },
  { version: PLUGIN_VERSION },
);
const configuration = new pulumi.CustomResource(
  "embedded:index:ConnectorConfiguration",
  "configuration",
  { connectorId, secretConfig },
  { version: PLUGIN_VERSION, dependsOn: [added] },
);

export const configurationId = configuration.id;
// After the configuration is written (its id, not secret, waits for it), the lookup sees its values.
export const lookup = embedded.getConnectorConfigurationOutput({
  connectorId: configuration.id.apply(() => connectorId),
});
