// The process's snapshot of List Added Connectors, per client and sub-account. A refresh
// reads every AddedConnector at once; without this each read would page through the whole
// list again (N × ceil(N/200) calls). With it, all reads of one sub-account share one
// paginated listing. Writes through the provider invalidate the sub-account's snapshot. The
// delete guard does not use it: Remove itself refuses (409) while connections use a connector.
import type { AddedConnectorView, EmbeddedClient } from "../client";
import { perClient } from "../runtime/per-client";

export type AddedSnapshot = ReadonlyMap<string, AddedConnectorView>;

/** The part of the client the cache uses (tests pass fakes). */
export type ListingClient = Pick<EmbeddedClient, "listAddedConnectors">;

interface Listing {
  /** The write generation when the listing started; a later write makes it stale. */
  generation: number;
  promise: Promise<AddedSnapshot>;
}

interface Entry {
  generation: number;
  /** The snapshot handed to reads: current unless a write happened since it started. */
  current?: Listing;
}

export class AddedConnectorsCache {
  // Keyed by the client object: another client (other credentials) has its own snapshots.
  private entries = new WeakMap<object, Map<string, Entry>>();
  /** Listings started (each is one or more List calls); for tests and the bench. */
  listings = 0;
  /** The confirming listing made for each snapshot in which a read missed (findConfirmed). */
  private confirmations = new WeakMap<Promise<AddedSnapshot>, Promise<AddedSnapshot>>();

  private entry(client: object, accountId: string): Entry {
    const entries = perClient(this.entries, client);
    let entry = entries.get(accountId);
    if (!entry) {
      entry = { generation: 0 };
      entries.set(accountId, entry);
    }
    return entry;
  }

  /** Every added connector of the sub-account, from the cached snapshot (listed once). */
  snapshot(client: ListingClient, accountId: string): Promise<AddedSnapshot> {
    const entry = this.entry(client, accountId);
    if (entry.current && entry.current.generation === entry.generation) return entry.current.promise;
    return this.start(client, accountId, entry);
  }

  /** One connector's entry in the cached snapshot, or undefined when it is not added. */
  async find(client: ListingClient, accountId: string, connectorId: string): Promise<AddedConnectorView | undefined> {
    return (await this.snapshot(client, accountId)).get(connectorId);
  }

  /**
   * Like find, but a connector missing from the snapshot is looked for once more in a fresh
   * listing before it is called gone: a connector added or removed by someone else while the
   * snapshot was paged shifts the pages, and one connector can then fall between two of them.
   * Every read that misses in the same snapshot shares that one confirming listing.
   */
  async findConfirmed(
    client: ListingClient,
    accountId: string,
    connectorId: string,
  ): Promise<AddedConnectorView | undefined> {
    const snapshot = this.snapshot(client, accountId);
    const found = (await snapshot).get(connectorId);
    if (found) return found;
    let confirming = this.confirmations.get(snapshot);
    if (!confirming) {
      this.listings++;
      confirming = listAll(client, accountId);
      this.confirmations.set(snapshot, confirming);
      const mine = confirming;
      mine.catch(() => {
        if (this.confirmations.get(snapshot) === mine) this.confirmations.delete(snapshot);
      });
    }
    return (await confirming).get(connectorId);
  }

  /**
   * A write to the sub-account is starting or has ended: later reads list again. Called on
   * both sides of a write, so a listing that overlapped the write is never kept.
   */
  invalidate(client: object, accountId: string): void {
    const entry = this.entry(client, accountId);
    entry.generation++;
    entry.current = undefined;
  }

  /** Forgets everything (tests; a new configuration). */
  clear(): void {
    this.entries = new WeakMap();
    this.confirmations = new WeakMap();
    this.listings = 0;
  }

  private start(client: ListingClient, accountId: string, entry: Entry): Promise<AddedSnapshot> {
    const generation = entry.generation;
    this.listings++;
    const promise = listAll(client, accountId);
    const listing: Listing = { generation, promise };
    // A listing started now is the newest there is: plain reads may share it.
    entry.current = listing;
    promise.catch(() => {
      // Failures are not cached: the next read tries again.
      if (entry.current === listing) entry.current = undefined;
    });
    return promise;
  }
}

/** Every added connector of the sub-account, listed now (all pages), bypassing every cache. */
export async function listAll(client: ListingClient, accountId: string): Promise<AddedSnapshot> {
  const views = new Map<string, AddedConnectorView>();
  for await (const view of client.listAddedConnectors(accountId, {}, { allAtOnce: true }))
    views.set(view.connectorId, view);
  return views;
}
