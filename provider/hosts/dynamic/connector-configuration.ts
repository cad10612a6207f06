// The ConnectorConfiguration resource: the secret configuration of an added connector.
import * as pulumi from "@pulumi/pulumi";

import { CONNECTOR_CONFIGURATION } from "../../schema/connector-configuration";
import type {
  ConnectorConfigurationArgs,
  ConnectorConfigurationOutputs,
  SecretConfigValue,
} from "../../schema/resource-types";
import { delegatingProvider } from "./delegating-provider";
import { dynamicResourceProps, withSecretOutputs } from "../program/resource-props";
import { warnOfNoDigestKey } from "../../settings/program-stack-config";

/** Loads connector-configuration/steps.js at call time (see delegating-provider.ts). */
export const connectorConfigurationProvider = delegatingProvider<typeof import("../../connector-configuration/steps")>(
  "pulumi-embedded-connectors/dist/provider/resources/connector-configuration-impl.js",
);

export type { ConnectorConfigurationArgs, ConnectorConfigurationOutputs, SecretConfigValue };

// The outputs are declared once, in ConnectorConfigurationOutputs (generated), and merged into both classes.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ConnectorConfiguration extends ConnectorConfigurationOutputs {}

/**
 * The secret configuration of a connector (the service's Configure Connector, a PUT of the
 * whole configuration). Detects out-of-band writes through `lastUpdated`. Deleting it leaves
 * the saved configuration in place (the service has no "unconfigure"; the provider writes a
 * warning to its log): removing the connector (its AddedConnector) drops the configuration.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ConnectorConfiguration extends pulumi.dynamic.Resource {
  constructor(name: string, args: ConnectorConfigurationArgs, opts?: pulumi.CustomResourceOptions) {
    // secretConfig is wrapped as a secret whatever the caller's options say (its outputs hold no value).
    const props = dynamicResourceProps(CONNECTOR_CONFIGURATION, args);
    warnOfNoDigestKey();
    super(
      connectorConfigurationProvider(),
      name,
      props,
      withSecretOutputs(CONNECTOR_CONFIGURATION, opts),
      "embedded-connectors",
      "ConnectorConfiguration",
    );
  }
}
