// The AddedConnector resource: a catalogue connector added to a sub-account.
import * as pulumi from "@pulumi/pulumi";

import { ADDED_CONNECTOR } from "../../schema/added-connector";
import type { AddedConnectorArgs, AddedConnectorOutputs } from "../../schema/resource-types";
import { dynamicResourceProps } from "../program/resource-props";
import { delegatingProvider } from "./delegating-provider";

/** Loads added-connector/steps.js at call time (see delegating-provider.ts). */
export const addedConnectorProvider = delegatingProvider<typeof import("../../added-connector/steps")>(
  "pulumi-embedded-connectors/dist/provider/resources/added-connector-impl.js",
);

export type { AddedConnectorArgs, AddedConnectorOutputs };

// The outputs are declared once, in AddedConnectorOutputs (generated), and merged into both classes.
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
