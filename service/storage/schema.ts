// The SQLite schema. The catalogue is code (seed/), so only per-customer state
// lives here. UNIQUE/PRIMARY KEY on (account_id, connector_id) is what makes
// concurrent adds of the same id produce one row.
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS customers (
  position INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  secret_salt TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  organization_account_id TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS sub_accounts (
  account_id TEXT PRIMARY KEY,
  customer_position INTEGER NOT NULL REFERENCES customers(position)
);
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY,
  customer_position INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS added_connectors (
  account_id TEXT NOT NULL,
  connector_id TEXT NOT NULL,
  added_at INTEGER NOT NULL,
  configured INTEGER NOT NULL DEFAULT 0,
  last_updated INTEGER NOT NULL DEFAULT 0,
  configuration_name TEXT,
  secret_name TEXT,
  secret_values TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (account_id, connector_id)
);
-- Survives Remove, so lastUpdated keeps increasing across remove and re-add.
CREATE TABLE IF NOT EXISTS configuration_clock (
  account_id TEXT NOT NULL,
  connector_id TEXT NOT NULL,
  last_updated INTEGER NOT NULL,
  PRIMARY KEY (account_id, connector_id)
);
CREATE TABLE IF NOT EXISTS connections (
  connection_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  source_connector_id TEXT NOT NULL,
  destination_connector_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS connections_by_account ON connections(account_id);
`;
