// The ConnectorConfiguration resource: the secret configuration of an added connector.
import * as pulumi from "@pulumi/pulumi";

import { CONNECTOR_CONFIGURATION } from "../../schema/connector-configuration";
import type { SameKeys } from "../../schema/property";
import { delegatingProvider } from "./delegating-provider";
import { dynamicResourceProps, withSecretOutputs } from "../program/resource-props";
import { warnOfNoDigestKey } from "../../settings/program-stack-config";

/** Loads connector-configuration/steps.js at call time (see delegating-provider.ts). */
export const connectorConfigurationProvider = delegatingProvider<typeof import("../../connector-configuration/steps")>(
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
   * Take over a configuration already saved on the connector that this stack did not write
   * (overwriting it, Password fields included). Default: false: creating over a saved
   * configuration is an error naming the connector and the sub-account
   * (docs/configuration-ownership.md). Changing it alone changes nothing.
   */
  adoptExisting?: pulumi.Input<boolean>;
  /**
   * Password fields whose values the service holds and this stack does not (a customer's own
   * key): never sent, so never cleared, and never in the state; each a Password field of the
   * connector, absent from secretConfig. Where the service replaces the whole configuration on
   * Configure (the contract's), a change that writes is refused at preview
   * (docs/configuration-ownership.md). Default: none.
   */
  heldByService?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Field id → value, validated against the connector's live field descriptors at preview
   * ("" and [] count as missing). Required. Always stored as a secret, whatever is passed.
   */
  secretConfig: pulumi.Input<Record<string, pulumi.Input<SecretConfigValue>>>;
}

/** The outputs of a ConnectorConfiguration, the dynamic resource's and the plugin's alike. */
export interface ConnectorConfigurationOutputs {
  /** The added connector's 16-character id. */
  readonly connectorId: pulumi.Output<string>;
  /** The sub-account (the argument, else `embedded:accountId`). */
  readonly accountId: pulumi.Output<string>;
  /** The secret configuration written (the argument, else the first one's id). */
  readonly configurationId: pulumi.Output<string>;
  /** Name of the configuration, when given. */
  readonly name: pulumi.Output<string | undefined>;
  /** Name of the key in the service's secret manager, when given. */
  readonly secretName: pulumi.Output<string | undefined>;
  /** Whether a create may take over a configuration this stack did not write, as given. */
  readonly adoptExisting: pulumi.Output<boolean | undefined>;
  /** Whether the service reports the configuration saved (current after every write and refresh). */
  readonly configured: pulumi.Output<boolean>;
  /** The service's lastUpdated (Unix seconds) as last read. */
  readonly lastUpdated: pulumi.Output<number>;
  /** The lastUpdated our last write produced; a different lastUpdated means an out-of-band write. */
  readonly appliedLastUpdated: pulumi.Output<number>;
  /**
   * Field id → keyed digest of its value, for every field of the applied secretConfig but a
   * Password (marked, never digested); a refresh recomputes those of the fields the service
   * returns. Keyed by a key derived from the client secret and the resource's salt (the
   * dynamic resource's `digestSalt`; the plugin's hidden secret input): no value can be
   * recovered from a digest. Not a secret: a drift display names `fieldDigests.<field>`.
   */
  readonly fieldDigests: pulumi.Output<Record<string, string>>;
  /** A short id of the digests' key: another client secret, another id (one update re-writes the configuration). */
  readonly digestKeyId: pulumi.Output<string>;
  /**
   * The dynamic resource's random salt of the digests' key, drawn at create (printed under
   * `pulumi up --debug`: docs/secrets.md). The plugin sets none: its salt is a hidden secret input.
   */
  readonly digestSalt: pulumi.Output<string | undefined>;
  /**
   * "salt+digestKey" when the dynamic resource's digests are keyed by `embedded:digestKey` too
   * (never the key); absent otherwise.
   */
  readonly digestRecipe: pulumi.Output<string | undefined>;
  /**
   * Empty when the service holds what this resource last wrote; else (after a refresh) when it
   * was changed out of band and which fields, by name; a changed Password is told in words.
   */
  readonly drift: pulumi.Output<string>;
}

// The interfaces name exactly the definition's inputs and outputs (a mismatch fails to compile);
// secretConfig and heldByService are inputs only (schema/connector-configuration.ts, `inputOnly`).
const interfacesMatchDefinition: [
  SameKeys<ConnectorConfigurationArgs, typeof CONNECTOR_CONFIGURATION.inputs>,
  SameKeys<
    ConnectorConfigurationOutputs,
    Omit<typeof CONNECTOR_CONFIGURATION.inputs, "secretConfig" | "heldByService"> &
      typeof CONNECTOR_CONFIGURATION.outputs
  >,
] = [true, true];
void interfacesMatchDefinition;

// The outputs are declared once, in ConnectorConfigurationOutputs, and merged into both classes.
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
