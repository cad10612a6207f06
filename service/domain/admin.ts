// The admin surface's rules: connections (which drive srcConnections /
// destConnections and the Remove guard), customers and their sub-accounts, reset.
import { randomBytes } from "node:crypto";
import type { Repository } from "../storage/repository";
import type { CatalogueConnector } from "./catalogue";
import { ApiError, badRequest, notFound } from "./errors";

type Side = CatalogueConnector["supportedType"];

/** The id of a customer's n-th sub-account (n from 1); given by the seed, so ids are stable. */
export type SubAccountIdOf = (customerPosition: number, n: number) => string;

/** The most sub-accounts one call may create (a guard against a typo, not a service limit). */
export const MAX_NEW_SUB_ACCOUNTS = 10_000;

export class Admin {
  /** Each catalogue connector's side (Source or Destination). */
  private readonly sides: ReadonlyMap<string, Side>;

  constructor(
    private readonly repo: Repository,
    catalogue: readonly CatalogueConnector[],
    private readonly subAccountIdOf: SubAccountIdOf,
  ) {
    this.sides = new Map(catalogue.map((c) => [c.connectorId, c.supportedType]));
  }

  createConnection(
    accountId: string,
    sourceConnectorId: string,
    destinationConnectorId: string,
  ): { connectionId: string } {
    return this.repo.transaction(() => {
      const owner = this.repo.accountOwner(accountId);
      if (!owner) throw notFound(`account ${accountId} not found`);
      if (owner.kind !== "sub") throw new ApiError(400, "connectors are managed only in sub-accounts");
      if (sourceConnectorId === destinationConnectorId) {
        throw badRequest(
          `a connection needs two different connectors: ${sourceConnectorId} is both its source and its destination`,
        );
      }
      for (const id of [sourceConnectorId, destinationConnectorId]) {
        if (!this.repo.added(accountId, id)) throw notFound(`connector ${id} is not added to this sub-account`);
      }
      const sourceSide = this.sides.get(sourceConnectorId);
      if (sourceSide !== "Source") {
        throw badRequest(
          `sourceConnectorId ${sourceConnectorId} is a ${sourceSide ?? "unknown"} connector; a connection's source must have supportedType Source`,
        );
      }
      const destinationSide = this.sides.get(destinationConnectorId);
      if (destinationSide !== "Destination") {
        throw badRequest(
          `destinationConnectorId ${destinationConnectorId} is a ${destinationSide ?? "unknown"} connector; a connection's destination must have supportedType Destination`,
        );
      }
      const connectionId = randomBytes(8).toString("hex");
      this.repo.insertConnection({
        connection_id: connectionId,
        account_id: accountId,
        source_connector_id: sourceConnectorId,
        destination_connector_id: destinationConnectorId,
      });
      return { connectionId };
    });
  }

  deleteConnection(connectionId: string): { deleted: string } {
    const deleted = this.repo.transaction(() => this.repo.deleteConnection(connectionId));
    if (!deleted) throw notFound(`connection ${connectionId} not found`);
    return { deleted: connectionId };
  }

  customers(): { clientId: string; organizationAccountId: string; subAccountIds: string[] }[] {
    return this.repo.customers().map((c) => ({
      clientId: c.client_id,
      organizationAccountId: c.organization_account_id,
      subAccountIds: c.subAccountIds,
    }));
  }

  /**
   * Gives customer `clientId` sub-accounts until it has `count` (never removes any), with the
   * ids the seed would give them, so a database made with --sub-accounts N holds the same ids.
   */
  ensureSubAccounts(clientId: string, count: number): { clientId: string; subAccountIds: string[] } {
    if (!Number.isInteger(count) || count < 1 || count > MAX_NEW_SUB_ACCOUNTS) {
      throw badRequest(`count must be an integer from 1 to ${MAX_NEW_SUB_ACCOUNTS}, got ${count}`);
    }
    return this.repo.transaction(() => {
      const customer = this.repo.customers().find((c) => c.client_id === clientId);
      if (!customer) throw notFound(`customer ${clientId} not found; see GET /_admin/customers`);
      const have = customer.subAccountIds.length;
      const ids = Array.from({ length: Math.max(0, count - have) }, (_, i) =>
        this.subAccountIdOf(customer.position, have + i + 1),
      );
      this.repo.insertSubAccounts(customer.position, ids);
      return { clientId, subAccountIds: [...customer.subAccountIds, ...ids] };
    });
  }

  reset(): void {
    this.repo.transaction(() => this.repo.resetData());
  }
}
