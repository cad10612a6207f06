// The AddedConnector resource: a catalogue connector added to a sub-account.
import * as pulumi from "@pulumi/pulumi";

import type { SupportedType } from "../functions/types";
import { delegatingProvider } from "./delegating-provider";

/** Loads ./added-connector-impl.js at call time (see delegating-provider.ts). */
export const addedConnectorProvider = delegatingProvider<typeof import("./added-connector-impl")>(
  "pulumi-embedded-connectors/dist/provider/resources/added-connector-impl.js",
);

export interface AddedConnectorArgs {
  /** The 16-character id of the catalogue connector to add. Required. Changing it replaces the resource. */
  connectorId: pulumi.Input<string>;
  /**
   * The sub-account to add it to. Default: stack config `embedded:accountId`, else the
   * environment variable `EMBEDDED_ACCOUNT_ID`. Changing it replaces the resource.
   */
  accountId?: pulumi.Input<string>;
  /**
   * Take over a connector that is already added to the sub-account instead of failing.
   * Default: false (an already-added connector is an error: `pulumi import` does not work
   * for dynamic-provider resources, so this is the way to adopt one). Changing it alone
   * changes nothing on the service.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/**
 * A connector of the catalogue, added to a sub-account (the service's Add Connector).
 * Deleting it removes the connector from the sub-account, which the service refuses while
 * connections use it: delete those first, or set `retainOnDelete: true`.
 * Id: `<accountId>/<connectorId>`.
 */
export class AddedConnector extends pulumi.dynamic.Resource {
  /** The 16-character catalogue id of the connector (pass it to `ConnectorConfiguration`). */
  declare readonly connectorId: pulumi.Output<string>;
  /** The sub-account it is added to (the argument, else `embedded:accountId`). */
  declare readonly accountId: pulumi.Output<string>;
  /** Whether an already-added connector was taken over (the argument; default false). */
  declare readonly adoptExisting: pulumi.Output<boolean>;
  /** The platform's id; a platform often has a Source and a Destination connector. */
  declare readonly platformId: pulumi.Output<string>;
  /** The display name, e.g. "Amazon S3". */
  declare readonly name: pulumi.Output<string>;
  /** URL of the logo. */
  declare readonly logo: pulumi.Output<string>;
  /** E.g. "reporting", "Custom Audiences". */
  declare readonly dataType: pulumi.Output<string>;
  /** E.g. "audience activation". */
  declare readonly dataTypeCategory: pulumi.Output<string>;
  /** E.g. "Cloud Storage Provider". */
  declare readonly platformType: pulumi.Output<string>;
  /** `Source` or `Destination`. */
  declare readonly supportedType: pulumi.Output<SupportedType>;
  /** Whether initiating a transfer is applicable. */
  declare readonly transfer: pulumi.Output<boolean>;
  /** Whether its configuration is saved, as of the last add or refresh (see ConnectorConfiguration.configured). */
  declare readonly configured: pulumi.Output<boolean>;
  /** The service's description of the connector. */
  declare readonly description: pulumi.Output<string>;
  /** Connections using the connector as source, as last read. */
  declare readonly srcConnections: pulumi.Output<number>;
  /** Connections using the connector as destination, as last read. */
  declare readonly destConnections: pulumi.Output<number>;
  /** Whether the connector is editable (the service's flag). */
  declare readonly editable: pulumi.Output<boolean>;
  /** The environment the connector was added from. */
  declare readonly env: pulumi.Output<string>;

  constructor(name: string, args: AddedConnectorArgs, opts?: pulumi.CustomResourceOptions) {
    const props: pulumi.Inputs = {
      connectorId: args.connectorId,
      accountId: args.accountId,
      adoptExisting: args.adoptExisting,
      // Outputs only: undefined here so that they are registered as outputs.
      platformId: undefined, name: undefined, logo: undefined, dataType: undefined, dataTypeCategory: undefined,
      platformType: undefined, supportedType: undefined, transfer: undefined, configured: undefined,
      description: undefined, srcConnections: undefined, destConnections: undefined, editable: undefined, env: undefined,
    };
    super(addedConnectorProvider(), name, props, opts, "embedded-connectors", "AddedConnector");
  }
}
