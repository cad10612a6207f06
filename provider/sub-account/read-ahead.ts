// The configuration reads of a refresh, fetched ahead. A refresh reads every resource, at most
// `--parallel` at once. An AddedConnector read is answered from the process's listing of its
// sub-account at once, but a ConnectorConfiguration read needs its own Get Connector
// Configuration (lastUpdated and the values exist only there), and each of those kept an
// engine worker waiting: the largest part of what refresh cost above its floor
// (bench/analysis.md). The listing already says which connectors are configured, so once a
// process reads its first configuration of a sub-account, it fetches the configurations of the
// connectors this stack read as AddedConnectors and the listing shows as configured, and the
// engine's later reads take them as they come. Only connectors of this stack are fetched (an
// AddedConnector read proves the stack holds it), each once, and only in a process that reads
// configurations (a refresh): a preview or an `up` makes no such call.
import type { ConnectorConfigurationView, EmbeddedClient } from "../client";
import { perClient } from "../runtime/per-client";

export type ConfigurationClient = Pick<EmbeddedClient, "getConfiguration">;

interface SubAccount {
  /** This process's AddedConnector reads: connector → configured, as the listing said. */
  added: Map<string, boolean>;
  /** Set by the first ConnectorConfiguration read: from then on, configurations are fetched ahead. */
  reading: boolean;
  /** Connectors whose configuration was read already: never fetched ahead again. */
  read: Set<string>;
  /** Fetched ahead and not read yet. */
  ahead: Map<string, Promise<ConnectorConfigurationView>>;
}

export class ConfigurationReadAhead {
  private subAccounts = new WeakMap<object, Map<string, SubAccount>>();
  /** Gets started ahead of their read (tests read it). */
  fetchedAhead = 0;

  /** An AddedConnector read found the connector in the sub-account's listing. */
  notedAdded(client: ConfigurationClient, accountId: string, connectorId: string, configured: boolean): void {
    const sub = this.subAccount(client, accountId);
    sub.added.set(connectorId, configured);
    if (sub.reading && configured) this.fetchAhead(client, sub, accountId, connectorId);
  }

  /** A ConnectorConfiguration read: its configuration as fetched ahead, else fetched now. */
  read(client: ConfigurationClient, accountId: string, connectorId: string): Promise<ConnectorConfigurationView> {
    const sub = this.subAccount(client, accountId);
    sub.read.add(connectorId);
    const ahead = sub.ahead.get(connectorId);
    sub.ahead.delete(connectorId);
    // This read's own Get goes first: behind the Gets fetched ahead, it would keep its engine
    // worker waiting for all of them.
    const own = ahead ?? client.getConfiguration(accountId, connectorId);
    if (!sub.reading) {
      sub.reading = true;
      for (const [id, configured] of sub.added) if (configured) this.fetchAhead(client, sub, accountId, id);
    }
    return own;
  }

  /** A write to the connector (configure, remove): what was fetched ahead of it is stale. */
  forget(client: object, accountId: string, connectorId: string): void {
    this.subAccounts.get(client)?.get(accountId)?.ahead.delete(connectorId);
  }

  /** Forgets everything (tests; a new configuration). */
  clear(): void {
    this.subAccounts = new WeakMap();
    this.fetchedAhead = 0;
  }

  private subAccount(client: object, accountId: string): SubAccount {
    const subAccounts = perClient(this.subAccounts, client);
    let sub = subAccounts.get(accountId);
    if (!sub) {
      sub = { added: new Map(), reading: false, read: new Set(), ahead: new Map() };
      subAccounts.set(accountId, sub);
    }
    return sub;
  }

  private fetchAhead(client: ConfigurationClient, sub: SubAccount, accountId: string, connectorId: string): void {
    if (sub.read.has(connectorId) || sub.ahead.has(connectorId)) return;
    const pending = client.getConfiguration(accountId, connectorId);
    // The read that takes it reports a failure; one never read must not be an unhandled rejection.
    pending.catch(() => undefined);
    sub.ahead.set(connectorId, pending);
    this.fetchedAhead++;
  }
}
