// Whose configuration is it? The service keeps one configuration per added
// connector, with no owner: a Configure by any stack of the customer overwrites it, Password
// included. So a create (never an update: the state says the resource wrote it) first reads
// the connector's configuration, and refuses when one is saved, unless:
// - `adoptExisting: true` (the explicit take-over; `pulumi import` is the other);
// - a pending-Configure record of this stack (add-journal.ts, keyed `configuration:<id>`) says
//   an earlier process of this stack was writing it when it stopped, or its create failed with
//   an outcome the provider could not know: that write was ours, and the user is not locked out.
//   Unlike an Add's record (add-ownership.ts), this one does take the configuration back: the
//   worst case is overwriting a write made since our interrupted one, which that interrupted
//   write was doing anyway, and nothing on the service is deleted by it.
// A connector this stack adds in the same run has no configuration (an Add starts unconfigured),
// so the usual program (AddedConnector, then its ConnectorConfiguration) creates without a flag.
import type { ConnectorConfigurationView } from "../client";
import type { AddJournal } from "../runtime/pending-writes";
import type { ProviderHost } from "../runtime/runtime";
import { descriptorsOf } from "./rules";

/** The journal key of a connector's configuration (distinct from its Add's). */
export const configurationKey = (connectorId: string): string => `configuration:${connectorId}`;

export interface OwnershipDecision {
  /** The configuration found saved (a refusal), or undefined when the create may write. */
  refusal?: string;
  /** The connector's field ids, for the names a refusal of the write may show. */
  fieldIds: string[];
  /** The first secret configuration's id, as the service holds it. */
  configurationId?: string;
}

/** What a create may do, given the live configuration of its connector. */
export function decideCreate(
  view: ConnectorConfigurationView,
  where: { accountId: string; connectorId: string; baseUrl: string },
  adoptExisting: boolean,
  journal: AddJournal | undefined,
  host: ProviderHost,
): OwnershipDecision {
  const fieldIds = descriptorsOf(view).map((field) => field.id);
  const configurationId = view.secretConfig[0]?.configurationId;
  if (!view.configured || adoptExisting) return { fieldIds, configurationId };
  const earlier = journal?.pending(where.baseUrl, where.accountId, configurationKey(where.connectorId));
  if (earlier) return { fieldIds, configurationId };
  return {
    fieldIds,
    configurationId,
    refusal: configuredElsewhereMessage(where.connectorId, where.accountId, view.lastUpdated, host),
  };
}

/** The refusal: names the connector, the sub-account, and the ways on. */
export function configuredElsewhereMessage(
  connectorId: string,
  accountId: string,
  lastUpdated: number | undefined,
  host: ProviderHost,
): string {
  const saved =
    lastUpdated !== undefined && Number.isFinite(lastUpdated) && lastUpdated > 0
      ? new Date(lastUpdated * 1000).toISOString()
      : "";
  const importIt =
    host === "plugin"
      ? ` or import it (\`pulumi import embedded:index:ConnectorConfiguration <name> ${accountId}/${connectorId}\`)`
      : "";
  return (
    `connector ${connectorId} of sub-account ${accountId} already has a saved configuration` +
    (saved ? ` (last written ${saved})` : "") +
    ` that this stack did not write; creating this ConnectorConfiguration would overwrite it, Password fields ` +
    `included, so nothing was written. If this stack should manage it, set \`adoptExisting: true\` on this ` +
    `ConnectorConfiguration${importIt}. If another stack or person manages it, leave it to them: declare another ` +
    `connector, or have them remove it first. (A ConnectorConfiguration removed from this program or renamed leaves ` +
    `its configuration saved, since the service cannot unconfigure: taking it back needs \`adoptExisting: true\` too.)`
  );
}
