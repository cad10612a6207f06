// ConnectorConfiguration of the plugin `embedded` (type `embedded:index:ConnectorConfiguration`):
// the same resource as the dynamic one, run by the plugin (one definition).
import * as pulumi from "@pulumi/pulumi";
import { CONNECTOR_CONFIGURATION } from "../../schema/connector-configuration";
import { token } from "../../schema/package-schema";
import type { ConnectorConfigurationArgs, ConnectorConfigurationOutputs } from "../../schema/resource-types";
import { resourceProps, withSecretOutputs } from "../program/resource-props";
import { withPluginOptions } from "./provider";

// The outputs are declared once (ConnectorConfigurationOutputs) and merged into this class.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ConnectorConfiguration extends ConnectorConfigurationOutputs {}

/**
 * The secret configuration of a connector, managed by the plugin `embedded`. Import an existing
 * one with `pulumi import embedded:index:ConnectorConfiguration <name> <accountId>/<connectorId>`:
 * it brings the values the service returns, never Password values (add those to `secretConfig`;
 * the next `up` writes the configuration once). `secretConfig` is an input only: no output
 * carries its values (`fieldDigests` shows which field changed, by name).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ConnectorConfiguration extends pulumi.CustomResource {
  /** The type token in the state. */
  static readonly __pulumiType = token(CONNECTOR_CONFIGURATION.name);

  /** The configuration of `<accountId>/<connectorId>` as it is now, read by the plugin (no change is made). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ConnectorConfiguration {
    // With an id, the arguments are not read: the plugin reads the resource instead.
    return new ConnectorConfiguration(name, {} as ConnectorConfigurationArgs, { ...opts, id });
  }

  constructor(name: string, args: ConnectorConfigurationArgs, opts: pulumi.CustomResourceOptions = {}) {
    const props = resourceProps(CONNECTOR_CONFIGURATION, opts.id ? undefined : args);
    super(
      ConnectorConfiguration.__pulumiType,
      name,
      props,
      withPluginOptions(withSecretOutputs(CONNECTOR_CONFIGURATION, opts)),
    );
  }
}
