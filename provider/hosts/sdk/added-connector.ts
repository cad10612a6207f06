// AddedConnector of the plugin `embedded` (type `embedded:index:AddedConnector`): the same
// resource as the dynamic one, run by the plugin, so that `pulumi import`, explicit providers
// and Pulumi YAML work. Arguments and outputs are the dynamic resource's (one definition).
import * as pulumi from "@pulumi/pulumi";
import { ADDED_CONNECTOR } from "../../schema/added-connector";
import { token } from "../../schema/package-schema";
import type { AddedConnectorArgs, AddedConnectorOutputs } from "../../schema/resource-types";
import { resourceProps } from "../program/resource-props";
import { withPluginOptions } from "./provider";

// The outputs are declared once (AddedConnectorOutputs) and merged into this class.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface AddedConnector extends AddedConnectorOutputs {}

/**
 * A connector of the catalogue, added to a sub-account, managed by the plugin `embedded`.
 * Deleting it removes the connector from the sub-account, which the service refuses while
 * connections use it. Id: `<accountId>/<connectorId>`; adopt an existing one with
 * `pulumi import embedded:index:AddedConnector <name> <accountId>/<connectorId>`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AddedConnector extends pulumi.CustomResource {
  /** The type token in the state. */
  static readonly __pulumiType = token(ADDED_CONNECTOR.name);

  /** The connector `<accountId>/<connectorId>` as it is now, read by the plugin (no change is made). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): AddedConnector {
    // With an id, the arguments are not read: the plugin reads the resource instead.
    return new AddedConnector(name, {} as AddedConnectorArgs, { ...opts, id });
  }

  constructor(name: string, args: AddedConnectorArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      AddedConnector.__pulumiType,
      name,
      resourceProps(ADDED_CONNECTOR, opts.id ? undefined : args),
      withPluginOptions(opts),
    );
  }
}
