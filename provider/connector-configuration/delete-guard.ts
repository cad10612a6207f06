// The configuration's side of the delete guard (docs/behaviour.md). The engine deletes a
// connector's ConnectorConfiguration before its AddedConnector; when connections use the
// connector, the AddedConnector's Remove is refused, and a configuration already dropped from
// the state would leave the stack changed by a destroy that was refused. So the configuration's
// delete, in a run that removes its connector too, refuses first for the same reason.
import type { AddedConnectorView } from "../client";
import { failure } from "../client/service-failures";
import { currentClient } from "../runtime/runtime";
import { addedListing } from "../sub-account/process";
import { inUseText } from "../sub-account/in-use-message";

/**
 * Throws when connections use the connector (its added view's counts, from the run's one listing
 * of the sub-account). A connector that is gone, or a view without counts, lets the delete go on:
 * the AddedConnector's Remove stays the guard that decides, atomically.
 */
export async function refuseWhileConnectorInUse(accountId: string, connectorId: string): Promise<void> {
  const { client } = currentClient();
  let snapshot: ReadonlyMap<string, AddedConnectorView>;
  try {
    snapshot = await addedListing().snapshot(client, accountId);
  } catch (error) {
    throw failure(
      `reading sub-account ${accountId} to check connector ${connectorId}'s connections before deleting its configuration failed`,
      error,
    );
  }
  const view = snapshot.get(connectorId);
  if (!view) return;
  const { srcConnections: src, destConnections: dest } = view;
  if ((src ?? 0) + (dest ?? 0) === 0) return;
  // The engine starts no other delete once one has failed: name the sub-account's other connectors
  // in use too, so that one refused destroy tells every connection to delete.
  const others = [...snapshot.values()]
    .filter(
      (other) => other.connectorId !== connectorId && (other.srcConnections ?? 0) + (other.destConnections ?? 0) > 0,
    )
    .map(
      (other) =>
        `${other.name ? `"${other.name}" ` : ""}[${other.connectorId}] (srcConnections=${other.srcConnections ?? "?"}, ` +
        `destConnections=${other.destConnections ?? "?"})`,
    );
  const also = others.length
    ? ` Other connectors of sub-account ${accountId} used in connections, which a destroy refuses the same way: ${others.join(", ")}.`
    : "";
  throw new Error(inUseText({ name: view.name, connectorId, accountId, src, dest }, true) + also);
}
