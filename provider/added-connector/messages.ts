// What AddedConnector tells a user when the service refuses: each message names the
// connector, the sub-account and what to do next (README, "Troubleshooting").

import { PENDING_ADD_MAX_AGE_MS, type PendingAdd } from "../runtime/pending-writes";
import type { ProviderHost } from "../runtime/runtime";
import { inUseText } from "../sub-account/in-use-message";

/**
 * The connector is there and the Add did not make it this resource's. `pending`: the record an
 * earlier, killed run of this stack left of its Add of it (add-journal.ts), which cannot tell
 * whether that run added it or someone else did since.
 */
export function alreadyAddedMessage(
  connectorId: string,
  accountId: string,
  name?: string,
  host: ProviderHost = "dynamic",
  pending?: PendingAdd,
): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  const importIt = `import it (\`pulumi import embedded:index:AddedConnector <name> ${accountId}/${connectorId}\`)`;
  if (pending) {
    const adopt =
      host === "plugin"
        ? `set \`adoptExisting: true\` on this AddedConnector or ${importIt}`
        : `set \`adoptExisting: true\` on this AddedConnector`;
    return (
      `connector ${label} is already added to sub-account ${accountId}, outside this resource. ` +
      `A pending-Add record of stack ${pending.owner} (written ${pending.startedAt} by process ${pending.pid}, file ${pending.file}) ` +
      `says an earlier run of this stack was adding it when it stopped, but the service cannot tell whether that run added it ` +
      `or someone else did since, so it is not taken over. If that earlier run added it, ${adopt}. ` +
      `Otherwise it belongs to another stack or person: declare another connector, or remove it from there first. ` +
      `The record expires ${PENDING_ADD_MAX_AGE_MS / 3_600_000} h after it was written.`
    );
  }
  const adopt =
    host === "plugin"
      ? `To manage the existing one, ${importIt} or set \`adoptExisting: true\` on this AddedConnector; `
      : `To manage the existing one, set \`adoptExisting: true\` on this AddedConnector ` +
        `(\`pulumi import\` does not work for dynamic-provider resources); `;
  return (
    `connector ${label} is already added to sub-account ${accountId}, outside this resource. ` +
    adopt +
    `or remove it from the sub-account first. If an earlier \`pulumi up\` of this stack was killed while adding it, ` +
    `\`adoptExisting: true\` takes it back too.`
  );
}

export function inUseMessage(
  name: string | undefined,
  connectorId: string,
  accountId: string,
  src: number | undefined,
  dest: number | undefined,
): string {
  return inUseText({ name, connectorId, accountId, src, dest });
}

/** A 409 from Remove that is not about connections: the service's own reason (the client redacted it). */
export function removeRefusedMessage(
  name: string | undefined,
  connectorId: string,
  accountId: string,
  reason: string,
): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  return (
    `removing connector ${label} from sub-account ${accountId} was refused by the service (409, not about connections): ` +
    `${reason}. Nothing was removed; resolve what the service names and run again.`
  );
}
