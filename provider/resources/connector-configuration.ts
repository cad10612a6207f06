// The ConnectorConfiguration resource: the secret configuration of an added connector.
import * as pulumi from "@pulumi/pulumi";

import { delegatingProvider } from "./delegating-provider";

/** Loads ./connector-configuration-impl.js at call time (see delegating-provider.ts). */
export const connectorConfigurationProvider = delegatingProvider<typeof import("./connector-configuration-impl")>(
  "pulumi-embedded-connectors/dist/provider/resources/connector-configuration-impl.js",
);

/** A value of a configuration field: Text, Password, Date, Select → string; Number → number; Multi-Select → list. */
export type SecretConfigValue = string | number | string[];

export interface ConnectorConfigurationArgs {
  /** The 16-character id of an added connector. Required. Changing it replaces the resource. */
  connectorId: pulumi.Input<string>;
  /**
   * The sub-account. Default: stack config `embedded:accountId`, else the environment
   * variable `EMBEDDED_ACCOUNT_ID`. Changing it replaces the resource.
   */
  accountId?: pulumi.Input<string>;
  /** Default: the first secret configuration's id (the only one the service can save). */
  configurationId?: pulumi.Input<string>;
  /** Name of the configuration. Default: the service's. */
  name?: pulumi.Input<string>;
  /** Name of the key in the service's secret manager. Default: the service's. */
  secretName?: pulumi.Input<string>;
  /**
   * Field id → value, validated against the connector's live field descriptors at preview.
   * Required. Always stored as a secret, whatever is passed.
   */
  secretConfig: pulumi.Input<Record<string, pulumi.Input<SecretConfigValue>>>;
}

/**
 * The secret configuration of a connector (the service's Configure Connector, a PUT of the
 * whole configuration). Detects out-of-band writes through `lastUpdated`. Deleting it leaves
 * the saved configuration in place (the service has no "unconfigure"; the provider writes a
 * warning to its log): removing the connector (its AddedConnector) drops the configuration.
 */
export class ConnectorConfiguration extends pulumi.dynamic.Resource {
  declare readonly connectorId: pulumi.Output<string>;
  declare readonly accountId: pulumi.Output<string>;
  declare readonly configurationId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly secretName: pulumi.Output<string | undefined>;
  declare readonly configured: pulumi.Output<boolean>;
  /** The service's lastUpdated (Unix seconds) as last read. */
  declare readonly lastUpdated: pulumi.Output<number>;
  /** The lastUpdated our last write produced; a different lastUpdated means an out-of-band write. */
  declare readonly appliedLastUpdated: pulumi.Output<number>;
  /** The non-Password field values, as the service returns them (strings; Multi-Select comma-separated). */
  declare readonly values: pulumi.Output<Record<string, string>>;
  /** Keyed hash of the applied secretConfig (secret): shows a changed value without storing it. */
  declare readonly fingerprint: pulumi.Output<string>;

  constructor(name: string, args: ConnectorConfigurationArgs, opts?: pulumi.CustomResourceOptions) {
    const props: pulumi.Inputs = {
      connectorId: args.connectorId,
      accountId: args.accountId,
      configurationId: args.configurationId,
      name: args.name,
      secretName: args.secretName,
      secretConfig: pulumi.secret(args.secretConfig),
      configured: undefined, lastUpdated: undefined, appliedLastUpdated: undefined, values: undefined,
      fingerprint: undefined, fingerprintSalt: undefined,
    };
    const secretOutputs: pulumi.CustomResourceOptions = { additionalSecretOutputs: ["fingerprint"] };
    super(connectorConfigurationProvider, name, props, pulumi.mergeOptions(opts, secretOutputs), "embedded-connectors", "ConnectorConfiguration");
  }
}
