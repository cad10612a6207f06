// SubAccountBaseline: a reusable component that applies one declared set of connectors
// and their configurations to one sub-account. Copy this file into your own program.
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

/** One connector of the baseline, found by its exact catalogue name and side. */
export interface BaselineConnector {
  /** Short key, unique in the baseline: names the resources and the secret config keys. */
  key: string;
  name: string;
  supportedType: "Source" | "Destination";
  /** Non-secret field values shared by every sub-account (a sub-account's file may override them). */
  values?: Record<string, ec.SecretConfigValue>;
  /** Field ids (Password fields) whose values come from secret stack config. */
  secretFields?: string[];
  /** Leave the connector in the sub-account when it leaves the stack. */
  retainOnDelete?: boolean;
}

export interface SubAccountBaselineArgs {
  accountId: string;
  connectors: BaselineConnector[];
  /** Per connector key: values that override or complete the baseline's. */
  values?: Record<string, Record<string, ec.SecretConfigValue>>;
  /** Per connector key and secret field id: the secret value (usually config.requireSecret). */
  secrets: Record<string, Record<string, pulumi.Input<string>>>;
}

export class SubAccountBaseline extends pulumi.ComponentResource {
  /** Connector key → the added connector's id. */
  public readonly connectorIds: pulumi.Output<Record<string, string>>;
  /** Connector key → whether the service reports the connector configured after our write. */
  public readonly configured: pulumi.Output<Record<string, boolean>>;

  constructor(name: string, args: SubAccountBaselineArgs, opts?: pulumi.ComponentResourceOptions) {
    super("examples:embedded:SubAccountBaseline", name, {}, opts);
    const ids: Record<string, pulumi.Output<string>> = {};
    const configured: Record<string, pulumi.Output<boolean>> = {};
    for (const spec of args.connectors) {
      // Names, not ids, in the reviewed files: the lookup fails at preview on a typo.
      const found = ec.findConnectorOutput({
        name: spec.name,
        supportedType: spec.supportedType,
        accountId: args.accountId,
      });
      const added = new ec.AddedConnector(
        `${name}-${spec.key}`,
        { connectorId: found.connectorId, accountId: args.accountId },
        { parent: this, retainOnDelete: spec.retainOnDelete },
      );
      ids[spec.key] = added.connectorId;
      const secretConfig: Record<string, pulumi.Input<ec.SecretConfigValue>> = {
        ...spec.values,
        ...args.values?.[spec.key],
      };
      for (const field of spec.secretFields ?? []) {
        const value = args.secrets[spec.key]?.[field];
        if (value === undefined) throw new Error(`sub-account ${args.accountId}: no secret for ${spec.key}.${field}`);
        secretConfig[field] = value;
      }
      const configuration = new ec.ConnectorConfiguration(
        `${name}-${spec.key}`,
        { connectorId: added.connectorId, accountId: args.accountId, secretConfig },
        { parent: this },
      );
      configured[spec.key] = configuration.configured;
    }
    this.connectorIds = pulumi.output(ids);
    this.configured = pulumi.output(configured);
    this.registerOutputs({ connectorIds: this.connectorIds, configured: this.configured });
  }
}
