// The program of the GitOps recipe: the desired connectors of one sub-account
// (`embedded:accountId`) live in connectors.json, changed only by pull request. The
// workflow previews on pull requests, applies on main and, on a schedule, fails when the
// sub-account drifted from the last apply (`pulumi preview --refresh --expect-no-changes`).
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

interface DesiredConnector {
  key: string;
  name: string;
  supportedType: "Source" | "Destination";
  /** Non-secret field values, reviewed in the pull request. */
  values: Record<string, ec.SecretConfigValue>;
  /** Field id → name of the secret stack config key holding its value. */
  secrets: Record<string, string>;
}

const config = new pulumi.Config();
const desired = JSON.parse(fs.readFileSync(path.join(__dirname, "connectors.json"), "utf8")) as {
  connectors: DesiredConnector[];
};

export const connectors: Record<
  string,
  pulumi.Output<{ connectorId: string; configured: boolean; lastUpdated: number }>
> = {};
for (const spec of desired.connectors) {
  const found = ec.findConnectorOutput({ name: spec.name, supportedType: spec.supportedType });
  const added = new ec.AddedConnector(spec.key, { connectorId: found.connectorId });
  const secretConfig: Record<string, pulumi.Input<ec.SecretConfigValue>> = { ...spec.values };
  for (const [field, key] of Object.entries(spec.secrets)) secretConfig[field] = config.requireSecret(key);
  const configuration = new ec.ConnectorConfiguration(spec.key, { connectorId: added.connectorId, secretConfig });
  connectors[spec.key] = pulumi
    .all([added.connectorId, configuration.configured, configuration.lastUpdated])
    .apply(([connectorId, configured, lastUpdated]) => ({ connectorId, configured, lastUpdated }));
}
