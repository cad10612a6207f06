// What the web page shows (GET /_admin/overview): every customer, its sub-accounts, the
// connectors added to each with their configuration, and the connections. A Password shows
// only whether it is set: neither its value nor its digest leaves the service.
import type { Repository } from "../storage/repository";
import type { Connectors } from "./connectors";
import { storedValues } from "./configuration";
import type { Strict } from "../../contract/views";

export type OverviewField = Strict<"FieldDescriptor"> & { set?: boolean };

export interface OverviewConnector {
  connectorId: string;
  name: string;
  supportedType: string;
  configured: boolean;
  lastUpdated: number;
  srcConnections: number;
  destConnections: number;
  fields: OverviewField[];
}

export interface Overview {
  customers: {
    clientId: string;
    organizationAccountId: string;
    subAccounts: {
      accountId: string;
      connectors: OverviewConnector[];
      connections: { connectionId: string; sourceConnectorId: string; destinationConnectorId: string }[];
    }[];
  }[];
}

function connectorOf(repo: Repository, connectors: Connectors, accountId: string, connectorId: string) {
  const row = repo.added(accountId, connectorId);
  const view = connectors.heldConfiguration(accountId, connectorId);
  const stored = storedValues(row);
  const c = connectors.catalogue(connectorId);
  return {
    connectorId,
    name: c.name,
    supportedType: c.supportedType,
    configured: view.configured,
    lastUpdated: view.lastUpdated,
    ...repo.counts(accountId, connectorId),
    fields: view.configuration.map((f) => (f.type === "Password" ? { ...f, set: stored[f.id] !== undefined } : f)),
  };
}

export function overview(repo: Repository, connectors: Connectors): Overview {
  return {
    customers: repo.customers().map((customer) => ({
      clientId: customer.client_id,
      organizationAccountId: customer.organization_account_id,
      subAccounts: customer.subAccountIds.map((accountId) => ({
        accountId,
        connectors: repo
          .addedAll(accountId)
          .map((row) => connectorOf(repo, connectors, accountId, row.connector_id))
          .sort((a, b) => a.name.localeCompare(b.name)),
        connections: repo.connections(accountId).map((c) => ({
          connectionId: c.connection_id,
          sourceConnectorId: c.source_connector_id,
          destinationConnectorId: c.destination_connector_id,
        })),
      })),
    })),
  };
}
