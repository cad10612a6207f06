// The delete guard's refusal, one text whichever resource the engine deletes first: the
// AddedConnector (its Remove refused, 409) or its ConnectorConfiguration (which refuses first, in
// a run that removes the connector too, so that nothing of a refused destroy leaves the stack).

/** Connections that use a connector, as the sub-account's listing counts them. */
export interface InUse {
  name: string | undefined;
  connectorId: string;
  accountId: string;
  src: number | undefined;
  dest: number | undefined;
}

/** `"Name" (id)`, or the id alone. */
export function connectorLabel(name: string | undefined, connectorId: string): string {
  return name ? `"${name}" (${connectorId})` : connectorId;
}

/**
 * The refusal. `byConfiguration`: the ConnectorConfiguration refused before anything was deleted,
 * so the option must be recorded on both resources.
 */
export function inUseText({ name, connectorId, accountId, src, dest }: InUse, byConfiguration = false): string {
  const counts =
    src === undefined && dest === undefined ? "" : ` (srcConnections=${src ?? "?"}, destConnections=${dest ?? "?"})`;
  const head = `cannot remove connector ${connectorLabel(name, connectorId)} from sub-account ${accountId}: it is used in connections${counts}`;
  if (!byConfiguration)
    return (
      `${head}. Delete those connections first, or set the resource option \`retainOnDelete: true\` and run ` +
      `\`pulumi up\` to record it, then delete the resource: the connector then stays in the sub-account when it ` +
      `leaves the stack (the option takes effect only once an \`up\` has recorded it).`
    );
  return (
    `${head}; nothing was deleted (its ConnectorConfiguration refused first), and the stack is as it was. Delete ` +
    `those connections first, or set the resource option \`retainOnDelete: true\` on the AddedConnector and on its ` +
    `ConnectorConfiguration and run \`pulumi up\` to record it, then delete the resources: the connector and its ` +
    `configuration then stay in the sub-account when they leave the stack.`
  );
}
