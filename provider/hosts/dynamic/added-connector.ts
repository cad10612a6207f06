// The AddedConnector resource: a catalogue connector added to a sub-account.
import * as pulumi from "@pulumi/pulumi";

import type { SupportedType } from "../../lookups/types";
import { ADDED_CONNECTOR } from "../../schema/added-connector";
import type { SameKeys } from "../../schema/property";
import { dynamicResourceProps } from "../program/resource-props";
import { delegatingProvider } from "./delegating-provider";

/** Loads added-connector/steps.js at call time (see delegating-provider.ts). */
export const addedConnectorProvider = delegatingProvider<typeof import("../../added-connector/steps")>(
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
   * Default: false (an already-added connector is an error; `pulumi import` works only for the
   * plugin's resources, so with this dynamic resource this is the way to adopt one). Changing
   * it alone changes nothing on the service.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/** The outputs of an AddedConnector, the dynamic resource's and the plugin's alike. */
export interface AddedConnectorOutputs {
  /** The 16-character catalogue id of the connector (pass it to `ConnectorConfiguration`). */
  readonly connectorId: pulumi.Output<string>;
  /** The sub-account it is added to (the argument, else `embedded:accountId`). */
  readonly accountId: pulumi.Output<string>;
  /** Whether an already-added connector was taken over (the argument; default false). */
  readonly adoptExisting: pulumi.Output<boolean>;
  /** The platform's id; a platform often has a Source and a Destination connector. */
  readonly platformId: pulumi.Output<string>;
  /** The display name, e.g. "Amazon S3". */
  readonly name: pulumi.Output<string>;
  /** URL of the logo. */
  readonly logo: pulumi.Output<string>;
  /** E.g. "reporting", "Custom Audiences". */
  readonly dataType: pulumi.Output<string>;
  /** E.g. "audience activation". */
  readonly dataTypeCategory: pulumi.Output<string>;
  /** E.g. "Cloud Storage Provider". */
  readonly platformType: pulumi.Output<string>;
  /** `Source` or `Destination`. */
  readonly supportedType: pulumi.Output<SupportedType>;
  /** Whether initiating a transfer is applicable. */
  readonly transfer: pulumi.Output<boolean>;
  /** Whether its configuration was saved when it was added or imported; not refreshed (ConnectorConfiguration.configured is live). */
  readonly configured: pulumi.Output<boolean>;
  /** The service's description of the connector. */
  readonly description: pulumi.Output<string>;
  /** Connections using the connector as source, as last read. */
  readonly srcConnections: pulumi.Output<number>;
  /** Connections using the connector as destination, as last read. */
  readonly destConnections: pulumi.Output<number>;
  /** Whether the connector is editable (the service's flag). */
  readonly editable: pulumi.Output<boolean>;
  /** The environment the connector was added from. */
  readonly env: pulumi.Output<string>;
}

// The interfaces name exactly the definition's inputs and outputs (a mismatch fails to compile).
const interfacesMatchDefinition: [
  SameKeys<AddedConnectorArgs, typeof ADDED_CONNECTOR.inputs>,
  SameKeys<AddedConnectorOutputs, typeof ADDED_CONNECTOR.inputs & typeof ADDED_CONNECTOR.outputs>,
] = [true, true];
void interfacesMatchDefinition;

// The outputs are declared once, in AddedConnectorOutputs, and merged into both classes.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface AddedConnector extends AddedConnectorOutputs {}

/**
 * A connector of the catalogue, added to a sub-account (the service's Add Connector).
 * Deleting it removes the connector from the sub-account, which the service refuses while
 * connections use it: delete those first, or set `retainOnDelete: true`.
 * Id: `<accountId>/<connectorId>`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AddedConnector extends pulumi.dynamic.Resource {
  constructor(name: string, args: AddedConnectorArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      addedConnectorProvider(),
      name,
      dynamicResourceProps(ADDED_CONNECTOR, args),
      opts,
      "embedded-connectors",
      "AddedConnector",
    );
  }
}
