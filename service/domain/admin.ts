// The admin surface's rules: connections (which drive srcConnections /
// destConnections and the Remove guard), customers, reset.
import { randomBytes } from "node:crypto";
import type { Repository } from "../storage/repository";
import { ApiError, notFound } from "./errors";

export class Admin {
  constructor(private readonly repo: Repository) {}

  createConnection(accountId: string, sourceConnectorId: string, destinationConnectorId: string): { connectionId: string } {
    return this.repo.transaction(() => {
      const owner = this.repo.accountOwner(accountId);
      if (!owner) throw notFound(`account ${accountId} not found`);
      if (owner.kind !== "sub") throw new ApiError(400, "connectors are managed only in sub-accounts");
      for (const id of [sourceConnectorId, destinationConnectorId]) {
        if (!this.repo.added(accountId, id)) throw notFound(`connector ${id} is not added to this sub-account`);
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

  reset(): void {
    this.repo.transaction(() => this.repo.resetData());
  }
}
