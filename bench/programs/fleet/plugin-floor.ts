// The engine floor of a native plugin: resources of the plugin `embeddedfloor` (built from
// bench/plugin-floor and installed into the bench's PULUMI_HOME by bench/plugin-floor/install.ts),
// whose operations do nothing, with the same shapes as floor.ts and as the plugin `embedded`'s
// resources. The ratio plugin / plugin-floor is then what the plugin's own work adds.
import * as pulumi from "@pulumi/pulumi";
import { CONFIGURATION_SECRET_OUTPUTS, configurationOutputs, connectorOutputs } from "./floor-outputs";

/** The version bench/plugin-floor/install.ts installs: the package's, like the plugin `embedded`. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const version = (require("pulumi-embedded-connectors/package.json") as { version: string }).version;

export class PluginFloorAddedConnector extends pulumi.CustomResource {
  declare readonly connectorId: pulumi.Output<string>;

  constructor(name: string, args: { connectorId: pulumi.Input<string> }) {
    const props: pulumi.Inputs = { ...args, accountId: "floor", adoptExisting: false };
    for (const key of Object.keys(connectorOutputs(""))) props[key] = undefined;
    super("embeddedfloor:index:AddedConnector", name, props, { version });
  }
}

export class PluginFloorConfiguration extends pulumi.CustomResource {
  constructor(
    name: string,
    args: {
      connectorId: pulumi.Input<string>;
      secretConfig: pulumi.Input<Record<string, pulumi.Input<string | number>>>;
    },
  ) {
    const props: pulumi.Inputs = {
      ...args,
      accountId: "floor",
      name: undefined,
      secretName: undefined,
      secretConfig: pulumi.secret(args.secretConfig),
    };
    for (const key of Object.keys(configurationOutputs({}))) props[key] = undefined;
    super("embeddedfloor:index:ConnectorConfiguration", name, props, {
      version,
      additionalSecretOutputs: CONFIGURATION_SECRET_OUTPUTS,
    });
  }
}
