// The process's snapshot of List Added Connectors, per client and sub-account. A refresh
// reads every AddedConnector at once; without this each read would page through the whole
// list again (N × ceil(N/200) calls). With it, all reads of one sub-account share one
// paginated listing. Writes through the provider invalidate the sub-account's snapshot, and
// the delete guard asks for a listing that started after it asked (fresh connection counts).
import type { AddedConnectorView, EmbeddedClient } from "../client";

export type AddedSnapshot = ReadonlyMap<string, AddedConnectorView>;

/** The part of the client the cache uses (tests pass fakes). */
export type ListingClient = Pick<EmbeddedClient, "listAddedConnectors">;

interface Listing {
  /** The write generation when the listing started; a later write makes it stale. */
  generation: number;
  promise: Promise<AddedSnapshot>;
}

interface Waiting {
  promise: Promise<AddedSnapshot>;
  resolve: (snapshot: AddedSnapshot) => void;
  reject: (error: unknown) => void;
  /** Starts the listing; called once, by whichever timer fires first. */
  begin: () => void;
  timer: NodeJS.Timeout;
  idleTimer: NodeJS.Timeout;
}

interface Entry {
  generation: number;
  /** The snapshot handed to plain reads: current unless a write happened since it started. */
  current?: Listing;
  /** A listing not started yet, for callers that need one newer than their call. */
  waiting?: Waiting;
}

export interface AddedConnectorsCacheOptions {
  /**
   * How long a fresh listing waits at most before it starts, so that the deletes the engine
   * sends together share it (default 10 ms). Any listing that starts after a caller asked is
   * fresh for that caller, so waiting never hands out older data.
   */
  freshWindowMs?: number;
  /** It starts earlier once no caller joined for this long (default 3 ms). */
  freshIdleMs?: number;
}

export class AddedConnectorsCache {
  // Keyed by the client object: another client (other credentials) has its own snapshots.
  private entries = new WeakMap<object, Map<string, Entry>>();
  private readonly freshWindowMs: number;
  private readonly freshIdleMs: number;
  /** Listings started (each is one or more List calls); for tests and the bench. */
  listings = 0;

  constructor(options: AddedConnectorsCacheOptions = {}) {
    this.freshWindowMs = options.freshWindowMs ?? 10;
    this.freshIdleMs = Math.min(options.freshIdleMs ?? 3, this.freshWindowMs);
  }

  private entry(client: object, accountId: string): Entry {
    let perClient = this.entries.get(client);
    if (!perClient) {
      perClient = new Map();
      this.entries.set(client, perClient);
    }
    let entry = perClient.get(accountId);
    if (!entry) {
      entry = { generation: 0 };
      perClient.set(accountId, entry);
    }
    return entry;
  }

  /** Every added connector of the sub-account, from the cached snapshot (listed once). */
  snapshot(client: ListingClient, accountId: string): Promise<AddedSnapshot> {
    const entry = this.entry(client, accountId);
    if (entry.current && entry.current.generation === entry.generation) return entry.current.promise;
    return this.start(client, accountId, entry);
  }

  /** A snapshot whose listing started after this call: what a decision to remove must rest on. */
  fresh(client: ListingClient, accountId: string): Promise<AddedSnapshot> {
    const entry = this.entry(client, accountId);
    const joined = entry.waiting;
    if (joined) {
      // One more caller of the burst: wait a little longer for the next (within the window).
      clearTimeout(joined.idleTimer);
      joined.idleTimer = setTimeout(joined.begin, this.freshIdleMs);
      return joined.promise;
    }
    let resolve!: (snapshot: AddedSnapshot) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<AddedSnapshot>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    let begun = false;
    const begin = () => {
      if (begun) return;
      begun = true;
      clearTimeout(waiting.timer);
      clearTimeout(waiting.idleTimer);
      if (entry.waiting === waiting) entry.waiting = undefined;
      this.start(client, accountId, entry).then(resolve, reject);
    };
    const waiting: Waiting = {
      promise,
      resolve,
      reject,
      begin,
      timer: setTimeout(begin, this.freshWindowMs),
      idleTimer: setTimeout(begin, this.freshIdleMs),
    };
    entry.waiting = waiting;
    return promise;
  }

  /** One connector's entry in the cached snapshot, or undefined when it is not added. */
  async find(client: ListingClient, accountId: string, connectorId: string): Promise<AddedConnectorView | undefined> {
    return (await this.snapshot(client, accountId)).get(connectorId);
  }

  /** One connector's entry in a fresh snapshot. */
  async findFresh(client: ListingClient, accountId: string, connectorId: string): Promise<AddedConnectorView | undefined> {
    return (await this.fresh(client, accountId)).get(connectorId);
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

async function listAll(client: ListingClient, accountId: string): Promise<AddedSnapshot> {
  const views = new Map<string, AddedConnectorView>();
  for await (const view of client.listAddedConnectors(accountId)) views.set(view.connectorId, view);
  return views;
}
