// What AddedConnector tells a user when the service refuses: each message names the
// connector, the sub-account and what to do next (README, "Troubleshooting").

/** Which host runs the provider: the advice differs (only the plugin's resources can be imported). */
export type ProviderHost = "dynamic" | "plugin";

export function alreadyAddedMessage(connectorId: string, accountId: string, name?: string, host: ProviderHost = "dynamic"): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  const adopt =
    host === "plugin"
      ? `To manage the existing one, import it (\`pulumi import embedded:index:AddedConnector <name> ${accountId}/${connectorId}\`) ` +
        `or set \`adoptExisting: true\` on this AddedConnector; `
      : `To manage the existing one, set \`adoptExisting: true\` on this AddedConnector ` +
        `(\`pulumi import\` does not work for dynamic-provider resources); `;
  return (
    `connector ${label} is already added to sub-account ${accountId}, outside this resource. ` +
    adopt +
    `or remove it from the sub-account first. If an earlier \`pulumi up\` of this stack was killed while adding it ` +
    `and ran on another machine (the record of its pending Add lives in $PULUMI_HOME), \`adoptExisting: true\` takes it back too.`
  );
}

export function inUseMessage(
  name: string | undefined,
  connectorId: string,
  accountId: string,
  src: number | undefined,
  dest: number | undefined,
): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  const counts = src === undefined && dest === undefined ? "" : ` (srcConnections=${src ?? "?"}, destConnections=${dest ?? "?"})`;
  return (
    `cannot remove connector ${label} from sub-account ${accountId}: it is used in connections${counts}. ` +
    `Delete those connections first, or set the resource option \`retainOnDelete: true\` and run \`pulumi up\` ` +
    `to record it, then delete the resource: the connector then stays in the sub-account when it leaves the stack ` +
    `(the option takes effect only once an \`up\` has recorded it).`
  );
}

/** A 409 from Remove that is not about connections: the service's own reason (the client redacted it). */
export function removeRefusedMessage(name: string | undefined, connectorId: string, accountId: string, reason: string): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  return (
    `removing connector ${label} from sub-account ${accountId} was refused by the service (409, not about connections): ` +
    `${reason}. Nothing was removed; resolve what the service names and run again.`
  );
}
