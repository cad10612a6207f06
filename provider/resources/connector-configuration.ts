// The ConnectorConfiguration resource: the secret configuration of an added connector.
import * as pulumi from "@pulumi/pulumi";

import { delegatingProvider } from "./delegating-provider";

/** Loads ./connector-configuration-impl.js at call time (see delegating-provider.ts). */
export const connectorConfigurationProvider = delegatingProvider<typeof import("./connector-configuration-impl")>(
  "pulumi-embedded-connectors/dist/provider/resources/connector-configuration-impl.js",
);

/**
 * A value of a configuration field: Text, Password, Date, Select → string; Number → number (or
 * a numeric string); Multi-Select → list (or a comma-separated string). Check stores the
 * service's form (a number, a list), so either way reads back without a diff.
 */
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
   * Field id → value, validated against the connector's live field descriptors at preview
   * ("" and [] count as missing). Required. Always stored as a secret, whatever is passed.
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
  /** The added connector's 16-character id. */
  declare readonly connectorId: pulumi.Output<string>;
  /** The sub-account (the argument, else `embedded:accountId`). */
  declare readonly accountId: pulumi.Output<string>;
  /** The secret configuration written (the argument, else the first one's id). */
  declare readonly configurationId: pulumi.Output<string>;
  /** Name of the configuration, when given. */
  declare readonly name: pulumi.Output<string | undefined>;
  /** Name of the key in the service's secret manager, when given. */
  declare readonly secretName: pulumi.Output<string | undefined>;
  /** Whether the service reports the configuration saved (current after every write and refresh). */
  declare readonly configured: pulumi.Output<boolean>;
  /** The service's lastUpdated (Unix seconds) as last read. */
  declare readonly lastUpdated: pulumi.Output<number>;
  /** The lastUpdated our last write produced; a different lastUpdated means an out-of-band write. */
  declare readonly appliedLastUpdated: pulumi.Output<number>;
  /**
   * The non-Password field values, as the service returns them (strings; Multi-Select
   * comma-separated). A secret, like secretConfig they come from; compared on every diff, so a
   * value changed out of band shows as an update.
   */
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
    // values echoes secretConfig: secret by default, whatever the caller's options say.
    const additionalSecretOutputs = [...new Set([...(opts?.additionalSecretOutputs ?? []), "fingerprint", "values"])];
    super(connectorConfigurationProvider(), name, props, { ...opts, additionalSecretOutputs }, "embedded-connectors", "ConnectorConfiguration");
  }
}
