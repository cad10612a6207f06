// The SQLite repository: every statement of the service, nothing else.
// Callers wrap each mutating call in transaction() so it commits or not at all.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SCHEMA } from "./schema";

export interface CustomerRow {
  position: number;
  client_id: string;
  secret_salt: string;
  secret_hash: string;
  organization_account_id: string;
}
export interface AddedRow {
  account_id: string;
  connector_id: string;
  added_at: number;
  configured: number;
  last_updated: number;
  configuration_name: string | null;
  secret_name: string | null;
  secret_values: string;
}
export interface ConnectionRow {
  connection_id: string;
  account_id: string;
  source_connector_id: string;
  destination_connector_id: string;
}
export interface Counts {
  srcConnections: number;
  destConnections: number;
}
export type AccountOwner = { kind: "organization" | "sub"; position: number };

export class Repository {
  private readonly db: Database.Database;

  constructor(file: string) {
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    this.db.close();
  }

  // --- customers, accounts, tokens

  upsertCustomer(row: CustomerRow, subAccountIds: string[]): void {
    this.db
      .prepare(
        `INSERT INTO customers (position, client_id, secret_salt, secret_hash, organization_account_id)
         VALUES (@position, @client_id, @secret_salt, @secret_hash, @organization_account_id)
         ON CONFLICT(position) DO UPDATE SET client_id = excluded.client_id, secret_salt = excluded.secret_salt,
           secret_hash = excluded.secret_hash, organization_account_id = excluded.organization_account_id`,
      )
      .run(row);
    const insert = this.db.prepare("INSERT OR IGNORE INTO sub_accounts (account_id, customer_position) VALUES (?, ?)");
    for (const id of subAccountIds) insert.run(id, row.position);
  }

  /** Adds sub-accounts to the customer at `position` (ids already there are left as they are). */
  insertSubAccounts(position: number, subAccountIds: string[]): void {
    const insert = this.db.prepare("INSERT OR IGNORE INTO sub_accounts (account_id, customer_position) VALUES (?, ?)");
    for (const id of subAccountIds) insert.run(id, position);
  }

  customerByClientId(clientId: string): CustomerRow | undefined {
    return this.db.prepare("SELECT * FROM customers WHERE client_id = ?").get(clientId) as CustomerRow | undefined;
  }

  customers(): (CustomerRow & { subAccountIds: string[] })[] {
    const rows = this.db.prepare("SELECT * FROM customers ORDER BY position").all() as CustomerRow[];
    const subs = this.db.prepare("SELECT account_id FROM sub_accounts WHERE customer_position = ? ORDER BY rowid");
    return rows.map((r) => ({
      ...r,
      subAccountIds: (subs.all(r.position) as { account_id: string }[]).map((s) => s.account_id),
    }));
  }

  accountOwner(accountId: string): AccountOwner | undefined {
    const org = this.db.prepare("SELECT position FROM customers WHERE organization_account_id = ?").get(accountId) as
      { position: number } | undefined;
    if (org) return { kind: "organization", position: org.position };
    const sub = this.db
      .prepare("SELECT customer_position AS position FROM sub_accounts WHERE account_id = ?")
      .get(accountId) as { position: number } | undefined;
    return sub ? { kind: "sub", position: sub.position } : undefined;
  }

  insertToken(tokenHash: string, position: number, expiresAt: number): void {
    this.db
      .prepare("INSERT INTO tokens (token_hash, customer_position, expires_at) VALUES (?, ?, ?)")
      .run(tokenHash, position, expiresAt);
  }

  token(tokenHash: string): { position: number; clientId: string; expiresAt: number } | undefined {
    return this.db
      .prepare(
        `SELECT t.customer_position AS position, c.client_id AS clientId, t.expires_at AS expiresAt
         FROM tokens t JOIN customers c ON c.position = t.customer_position WHERE t.token_hash = ?`,
      )
      .get(tokenHash) as { position: number; clientId: string; expiresAt: number } | undefined;
  }

  /** Ends a token's life at `at` at the latest (fault injection). */
  expireToken(tokenHash: string, at: number): void {
    this.db.prepare("UPDATE tokens SET expires_at = MIN(expires_at, ?) WHERE token_hash = ?").run(at, tokenHash);
  }

  /** Expired tokens are kept a while so that a late caller hears "expired", not "unknown". */
  pruneTokens(expiredBefore: number): void {
    this.db.prepare("DELETE FROM tokens WHERE expires_at < ?").run(expiredBefore);
  }

  // --- added connectors and their configuration

  /** INSERT OR IGNORE: true when this call added the row. */
  addConnector(accountId: string, connectorId: string, now: number): boolean {
    return (
      this.db
        .prepare("INSERT OR IGNORE INTO added_connectors (account_id, connector_id, added_at) VALUES (?, ?, ?)")
        .run(accountId, connectorId, now).changes === 1
    );
  }

  added(accountId: string, connectorId: string): AddedRow | undefined {
    return this.db
      .prepare("SELECT * FROM added_connectors WHERE account_id = ? AND connector_id = ?")
      .get(accountId, connectorId) as AddedRow | undefined;
  }

  addedAll(accountId: string): AddedRow[] {
    return this.db.prepare("SELECT * FROM added_connectors WHERE account_id = ?").all(accountId) as AddedRow[];
  }

  countAdded(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM added_connectors").get() as { n: number }).n;
  }

  removeAdded(accountId: string, connectorId: string): void {
    this.db
      .prepare("DELETE FROM added_connectors WHERE account_id = ? AND connector_id = ?")
      .run(accountId, connectorId);
  }

  saveConfiguration(
    accountId: string,
    connectorId: string,
    c: { name: string | null; secretName: string | null; values: string; lastUpdated: number },
  ): void {
    this.db
      .prepare(
        `UPDATE added_connectors SET configured = 1, configuration_name = ?, secret_name = ?, secret_values = ?,
           last_updated = ? WHERE account_id = ? AND connector_id = ?`,
      )
      .run(c.name, c.secretName, c.values, c.lastUpdated, accountId, connectorId);
    this.db
      .prepare(
        `INSERT INTO configuration_clock (account_id, connector_id, last_updated) VALUES (?, ?, ?)
         ON CONFLICT(account_id, connector_id) DO UPDATE SET last_updated = excluded.last_updated`,
      )
      .run(accountId, connectorId, c.lastUpdated);
  }

  lastConfigured(accountId: string, connectorId: string): number {
    const row = this.db
      .prepare("SELECT last_updated FROM configuration_clock WHERE account_id = ? AND connector_id = ?")
      .get(accountId, connectorId) as { last_updated: number } | undefined;
    return row?.last_updated ?? 0;
  }

  // --- connections (admin API)

  counts(accountId: string, connectorId: string): Counts {
    return this.db
      .prepare(
        `SELECT COALESCE(SUM(source_connector_id = @c), 0) AS srcConnections,
                COALESCE(SUM(destination_connector_id = @c), 0) AS destConnections
         FROM connections WHERE account_id = @a`,
      )
      .get({ a: accountId, c: connectorId }) as Counts;
  }

  insertConnection(row: ConnectionRow): void {
    this.db
      .prepare(
        `INSERT INTO connections (connection_id, account_id, source_connector_id, destination_connector_id)
         VALUES (@connection_id, @account_id, @source_connector_id, @destination_connector_id)`,
      )
      .run(row);
  }

  connections(accountId: string): ConnectionRow[] {
    return this.db
      .prepare("SELECT * FROM connections WHERE account_id = ? ORDER BY rowid")
      .all(accountId) as ConnectionRow[];
  }

  deleteConnection(connectionId: string): boolean {
    return this.db.prepare("DELETE FROM connections WHERE connection_id = ?").run(connectionId).changes === 1;
  }

  /** Back to the seed: drops everything customers did (tokens stay valid). */
  resetData(): void {
    this.db.exec("DELETE FROM added_connectors; DELETE FROM configuration_clock; DELETE FROM connections;");
  }
}
