// Whose connector is it? An Add answers "already added" both for a connector someone else added
// and for one an earlier attempt of our own call added before its answer was lost. The answer
// alone cannot tell them apart, so ownership is decided per connector from what was there
// before our first Add (the baseline: one listing of the sub-account per process, then kept
// current with our own Adds):
// - "added" in the answer: ours;
// - "already added", not in the baseline, and the call was retried after an attempt that may
//   have been processed: ours (our earlier attempt added it);
// - anything else "already added": someone else's.
// A pending-Add record of this stack (add-journal.ts: an earlier process died mid-Add) never
// makes a connector ours: the service keeps no "added at" or "added by", so a connector there
// before our Add may as well be another stack's that was added after that process died. The
// record only names that run in the "already added" refusal, which `adoptExisting` answers.
// The one case this cannot see: someone else adds the same connector between our listing and
// an Add of ours whose first attempt got no answer.
import type { EmbeddedClient } from "../client";
import { listAll, type AddedSnapshot } from "../sub-account/listing-cache";
import { perClient } from "../runtime/per-client";
import type { AddJournal, PendingAdd } from "../runtime/pending-writes";

/** The part of the client the coalescer uses (tests pass fakes). */
export type AddingClient = Pick<EmbeddedClient, "addConnectors" | "listAddedConnectors" | "baseUrl">;

export interface OwnershipOptions {
  /** A listing of the sub-account that may be shared with reads (the added-connectors cache). */
  snapshot?: (client: AddingClient, accountId: string) => Promise<AddedSnapshot>;
  /** The pending-Add journal of this process's stack, when there is one. */
  journal?: () => AddJournal | undefined;
}

/** What the journal said and did before an Add. */
export interface AddClaims {
  /** Records of earlier processes of this stack that were adding these ids: for the refusal's message. */
  earlier: Map<string, PendingAdd>;
  /** Ids recorded now; their records go when the Add certainly did not make them ours. */
  recorded: Set<string>;
}

export class AddOwnership {
  private baselines = new WeakMap<AddingClient, Map<string, Promise<Set<string>>>>();
  private readonly snapshot: (client: AddingClient, accountId: string) => Promise<AddedSnapshot>;
  private readonly journalOf: () => AddJournal | undefined;

  constructor(options: OwnershipOptions = {}) {
    this.snapshot = options.snapshot ?? listAll;
    this.journalOf = options.journal ?? (() => undefined);
  }

  /** Forgets every baseline (tests; a new configuration). */
  reset(): void {
    this.baselines = new WeakMap();
  }

  /** The connectors present before our next Add (listed once per process; failures not kept). */
  baseline(client: AddingClient, accountId: string): Promise<Set<string>> {
    const map = perClient(this.baselines, client);
    let pending = map.get(accountId);
    if (!pending) {
      pending = this.snapshot(client, accountId).then((listing) => new Set(listing.keys()));
      map.set(accountId, pending);
      pending.catch(() => map.delete(accountId));
    }
    return pending;
  }

  /**
   * Before an Add of `ids`: the records earlier processes of this stack left for them (read
   * before they are overwritten), and a record for each id not present (only those can become ours).
   */
  begin(client: AddingClient, accountId: string, ids: readonly string[], present: ReadonlySet<string>): AddClaims {
    const journal = this.journalOf();
    const claims: AddClaims = { earlier: new Map(), recorded: new Set() };
    if (!journal) return claims;
    for (const id of ids) {
      const earlier = journal.pending(client.baseUrl, accountId, id);
      if (earlier) claims.earlier.set(id, earlier);
      if (present.has(id)) continue;
      journal.begin(client.baseUrl, accountId, id);
      claims.recorded.add(id);
    }
    return claims;
  }

  /** The connector was removed (by the provider's own delete): a later Add of it finds it absent. */
  forgetPresent(client: AddingClient, accountId: string, id: string): void {
    void this.baselines
      .get(client)
      ?.get(accountId)
      ?.then(
        (present) => present.delete(id),
        () => undefined,
      );
  }

  /** Nothing of ours was added, or the engine has the resource: the record is not needed. */
  settle(client: Pick<AddingClient, "baseUrl">, accountId: string, id: string): void {
    this.journalOf()?.settle(client.baseUrl, accountId, id);
  }
}
