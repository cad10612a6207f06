// Coalesced Add Connector calls. The engine runs independent creates concurrently (up to its
// --parallel), but generates them one at a time: on the machine of BENCHMARKS.md creates of
// an `up` reach the provider 15–40 ms apart. The service's Add takes up to 50 ids at once.
// Creates for the same client and sub-account go out as one Add while they keep coming (each
// within `idleMs` of the last, the first waiting at most `windowMs`). Every open batch goes
// out at once when the creates waiting in them are all the engine's steps in this process and
// as many as it runs at once (engine-steps.ts): no other create can arrive before an Add
// answers, so waiting longer gains nothing. Each create still gets its own result and error:
// - the answer is split per id, and whether an "already added" id is ours is decided per id
//   (add-ownership.ts), never from the call as a whole;
// - Add is atomic, so an unknown id makes the whole batch fail (404): the batch is then split
//   in halves and re-sent until only the ids at fault fail (a bisection: about 2·log2(50)
//   extra calls for one bad id, not 50);
// - an error that is not about particular ids (network, 5xx after retries, 401, 403, 429)
//   reaches every member; when it may hide a processed Add (no answer, 5xx, a malformed
//   answer), a fresh listing says which ids were added before anyone fails, and if that
//   listing fails too, the outcome is unknown (AddOutcomeUnknownError).
import {
  checkId,
  mayHaveBeenApplied,
  MAX_ADD_IDS,
  ResponseFormatError,
  type AddConnectorsResult,
  type AddedConnectorView,
} from "../client";
import { DEFAULT_ADD_WINDOW_MS } from "../settings/resolve";
import type { PendingAdd } from "../runtime/pending-writes";
import { AddOwnership, type AddClaims, type AddingClient, type OwnershipOptions } from "./ownership";
import { listAll, type AddedSnapshot } from "../sub-account/listing-cache";
import type { EngineSteps } from "../runtime/engine-steps";
import { perClient } from "../runtime/per-client";
import { statusOf } from "../client/service-failures";

export type { AddingClient } from "./ownership";

/** What one create learns from the (possibly shared) Add. */
export interface AddOutcome {
  /** The connector's view, when the Add (or the listing that confirmed it) gave one. */
  view?: AddedConnectorView;
  /** True when this stack added the connector (now, or in an attempt whose answer was lost). */
  owned: boolean;
  /** When not owned: the record an earlier, killed run of this stack left of its Add of it. */
  pending?: PendingAdd;
}

/**
 * The Add may or may not have added the connector, and no listing could say which. `listing`:
 * why the listing that was to tell failed (a paging refusal, an unreadable answer), named in the
 * message with its route, so that the cause is the real one, not "not in the list".
 */
export class AddOutcomeUnknownError extends Error {
  constructor(
    readonly accountId: string,
    readonly connectorId: string,
    cause: unknown,
    readonly listing?: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const listed =
      listing === undefined
        ? ""
        : `; reading the sub-account's added list to tell failed: ${listing instanceof Error ? listing.message : String(listing)}`;
    super(`the outcome of adding connector ${connectorId} to sub-account ${accountId} is unknown: ${reason}${listed}`, {
      cause,
    });
    this.name = "AddOutcomeUnknownError";
  }
}

export interface AddCoalescerOptions {
  /**
   * How long the first create of a batch waits for others at most (default 500 ms; each
   * `add` may pass its own, from the `addWindowMs` setting). 0: every Add goes out alone.
   */
  windowMs?: number;
  /**
   * A batch also goes out once no create joined it for this long (default 60 ms, at most the
   * window): longer than the engine's gap between two creates, so a steady stream keeps
   * filling the batch, and short enough that a batch capped by --parallel where `steps`
   * cannot tell (other providers' steps, a --parallel below its default) does not wait long.
   */
  idleMs?: number;
  /** The engine's steps in this process (runtime.ts passes engineSteps()); none: no early send. */
  steps?: EngineSteps;
  /** Most ids per Add (default and service maximum 50). */
  maxBatch?: number;
  /** Called before and after every Add (the added-connectors cache invalidates the sub-account). */
  onWrite?: (client: AddingClient, accountId: string) => void;
  /** Where the baseline listing comes from and the pending-Add journal (add-ownership.ts). */
  ownership?: OwnershipOptions;
}

interface Member {
  connectorId: string;
  resolve: (outcome: AddOutcome) => void;
  reject: (error: unknown) => void;
}

/** What a batch knew before its first Add: the ids present, and the journal's earlier records and its own. */
interface Ownership {
  present: Set<string>;
  claims: AddClaims;
}

interface Batch {
  client: AddingClient;
  accountId: string;
  idleMs: number;
  members: Member[];
  ids: Set<string>;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

export const DEFAULT_ADD_IDLE_MS = 60;

export class AddCoalescer {
  private readonly windowMs: number;
  private readonly idleMs: number;
  private readonly maxBatch: number;
  private readonly onWrite: (client: AddingClient, accountId: string) => void;
  readonly ownership: AddOwnership;
  private readonly steps?: EngineSteps;
  /** Open batches per client, then sub-account. */
  private open = new WeakMap<AddingClient, Map<string, Batch>>();
  /** Every open batch, and how many members wait in them (for `steps`). */
  private readonly openBatches = new Set<Batch>();
  private waiting = 0;
  /** The `steps` rule's check is scheduled for the end of this turn (once, however many join). */
  private checkScheduled = false;
  /** Adds on their way per client, then `accountId/connectorId`: a second Add of an id waits for the first. */
  private inFlight = new WeakMap<AddingClient, Map<string, Promise<void>>>();
  /** Add calls sent, bisection included; for tests and the bench. */
  calls = 0;

  constructor(options: AddCoalescerOptions = {}) {
    this.windowMs = options.windowMs ?? DEFAULT_ADD_WINDOW_MS;
    this.idleMs = Math.min(options.idleMs ?? DEFAULT_ADD_IDLE_MS, this.windowMs);
    this.maxBatch = Math.min(Math.max(1, options.maxBatch ?? MAX_ADD_IDS), MAX_ADD_IDS);
    this.onWrite = options.onWrite ?? (() => undefined);
    this.ownership = new AddOwnership(options.ownership);
    this.steps = options.steps;
  }

  /**
   * Adds one connector, possibly together with others; settles with this id's own outcome.
   * `windowMs` overrides the default for a batch this call opens.
   */
  add(client: AddingClient, accountId: string, connectorId: string, windowMs = this.windowMs): Promise<AddOutcome> {
    // A malformed id fails alone, here, instead of failing the batch in the client's check.
    checkId("connectorId", connectorId);
    return new Promise<AddOutcome>((resolve, reject) => {
      const batches = perClient(this.open, client);
      let batch = batches.get(accountId);
      // The same id twice in one Add would report "added" to both resources: the second
      // goes into the next batch, where it gets "already added" as it would on its own.
      if (batch && batch.ids.has(connectorId)) {
        this.flush(batch);
        batch = undefined;
      }
      if (!batch) {
        const created: Batch = {
          client,
          accountId,
          idleMs: Math.min(this.idleMs, windowMs),
          members: [],
          ids: new Set(),
        };
        created.timer = setTimeout(() => this.flush(created), windowMs);
        batches.set(accountId, created);
        this.openBatches.add(created);
        batch = created;
      }
      batch.members.push({ connectorId, resolve, reject });
      batch.ids.add(connectorId);
      this.waiting++;
      if (batch.members.length >= this.maxBatch || windowMs <= 0) {
        this.flush(batch);
      } else {
        const open = batch;
        if (open.idleTimer) clearTimeout(open.idleTimer);
        open.idleTimer = setTimeout(() => this.flush(open), open.idleMs);
        // The `steps` rule, at the end of this turn of the event loop (steps handed over
        // together have all started by then). Only a join can fulfil it: it wants waiting =
        // in progress = estimate ≥ the most ever in progress, and a step that ends or a batch
        // sent (its members stay in progress) leaves fewer waiting than that.
        const steps = this.steps;
        if (steps && !this.checkScheduled) {
          this.checkScheduled = true;
          setImmediate(() => {
            this.checkScheduled = false;
            if (steps.allWaiting(this.waiting)) for (const openBatch of [...this.openBatches]) this.flush(openBatch);
          });
        }
      }
    });
  }

  private flush(batch: Batch): void {
    // Sent once: a batch no longer open was flushed already.
    if (!this.openBatches.delete(batch)) return;
    this.waiting -= batch.members.length;
    if (batch.timer) clearTimeout(batch.timer);
    if (batch.idleTimer) clearTimeout(batch.idleTimer);
    batch.timer = batch.idleTimer = undefined;
    const batches = this.open.get(batch.client);
    if (batches?.get(batch.accountId) === batch) batches.delete(batch.accountId);
    void this.sendAfterEarlier(batch.client, batch.accountId, batch.members);
  }

  /**
   * Sends once no earlier Add of the same ids is on its way: two Adds of one id at once could
   * both look like their own (each retried), and the second could drop the first's record.
   */
  private async sendAfterEarlier(client: AddingClient, accountId: string, members: Member[]): Promise<void> {
    const onTheirWay = perClient(this.inFlight, client);
    const keys = members.map((m) => `${accountId}/${m.connectorId}`);
    const earlier = keys.map((key) => onTheirWay.get(key)).filter((p): p is Promise<void> => p !== undefined);
    const sent = Promise.all(earlier).then(() => this.send(client, accountId, members));
    for (const key of keys) onTheirWay.set(key, sent);
    await sent;
    for (const key of keys) if (onTheirWay.get(key) === sent) onTheirWay.delete(key);
  }

  /** One Add for these members; on an id-specific refusal of a batch, bisects. Never rejects. */
  private async send(client: AddingClient, accountId: string, members: Member[], halfOf?: Ownership): Promise<void> {
    const ids = members.map((m) => m.connectorId);
    let present: Set<string>;
    let claims: AddClaims;
    if (halfOf) {
      // A half of a bisected batch: its records were written (and earlier ones read) before the first Add.
      ({ present, claims } = halfOf);
    } else {
      try {
        present = await this.ownership.baseline(client, accountId);
      } catch (error) {
        for (const member of members) member.reject(error);
        return;
      }
      claims = this.ownership.begin(client, accountId, ids, present);
    }
    let result: AddConnectorsResult;
    this.calls++;
    this.onWrite(client, accountId);
    try {
      result = await client.addConnectors(accountId, ids);
    } catch (error) {
      this.onWrite(client, accountId);
      if (members.length > 1 && blamesSomeIds(error)) {
        const half = Math.ceil(members.length / 2);
        const both = { present, claims };
        await Promise.all([
          this.send(client, accountId, members.slice(0, half), both),
          this.send(client, accountId, members.slice(half), both),
        ]);
      } else if (!mayHaveBeenApplied(error)) {
        for (const member of members) this.settleAndReject(client, accountId, claims, member, error);
      } else {
        await this.confirm(client, accountId, members, present, claims, () => error);
      }
      return;
    }
    this.onWrite(client, accountId);
    if (result.alreadyAdded === undefined) {
      // The answer does not say which ids were already there (a service without `alreadyAdded`,
      // or no success body): a listing against the baseline tells "added by us" from "already there".
      const unconfirmed = (listedWhole: boolean) =>
        new ResponseFormatError({
          route: result.answer?.route ?? "Add Connector",
          requestId: result.answer?.requestId ?? "-",
          status: result.answer?.status ?? 200,
          problem: `the answer says nothing of what it added${listedWhole ? ", and the connector is not in the sub-account's added list" : ""}`,
        });
      await this.confirm(client, accountId, members, present, claims, unconfirmed);
      return;
    }
    const added = new Map(result.added.map((view) => [view.connectorId, view]));
    const already = new Set(result.alreadyAdded);
    for (const member of members) {
      const id = member.connectorId;
      const view = added.get(id);
      if (view) {
        present.add(id);
        member.resolve({ view, owned: true });
      } else if (already.has(id)) {
        const owned = result.retried && !present.has(id);
        if (!owned) this.forget(client, accountId, claims, id);
        present.add(id);
        member.resolve(owned ? { owned } : { owned, pending: claims.earlier.get(id) });
      } else {
        // Neither added nor already added: an answer that breaks the contract, for this id only.
        this.settleAndReject(
          client,
          accountId,
          claims,
          member,
          new Error(`the service's Add answer does not mention connector ${id}`),
        );
      }
    }
  }

  /**
   * The Add failed in a way that may hide a processed call: list the sub-account now. Ids that
   * are there and were not before are ours; ids that are not there were not added (the Add is
   * atomic), and get the Add's error. `errorOf(listedWhole)`: the Add's error, told whether a
   * complete listing lacks the id (true) or no listing could be read (false).
   */
  private async confirm(
    client: AddingClient,
    accountId: string,
    members: Member[],
    present: Set<string>,
    claims: AddClaims,
    errorOf: (listedWhole: boolean) => unknown,
  ): Promise<void> {
    let listing: AddedSnapshot;
    try {
      listing = await listAll(client, accountId);
    } catch (listingError) {
      for (const member of members) {
        const id = member.connectorId;
        // Present before and not ours: the Add cannot have changed that.
        if (present.has(id)) member.resolve({ owned: false, pending: claims.earlier.get(id) });
        else member.reject(new AddOutcomeUnknownError(accountId, id, errorOf(false), listingError));
      }
      return;
    }
    const error = errorOf(true);
    for (const member of members) {
      const id = member.connectorId;
      const view = listing.get(id);
      if (!view) {
        present.delete(id);
        // A request that timed out may still be applied after this listing: keep its record.
        if (statusOf(error) === 0) member.reject(error);
        else this.settleAndReject(client, accountId, claims, member, error);
      } else {
        const owned = !present.has(id);
        if (!owned) this.forget(client, accountId, claims, id);
        present.add(id);
        member.resolve(owned ? { view, owned } : { view, owned, pending: claims.earlier.get(id) });
      }
    }
  }

  /** The Add did not make this id ours: drop the record this batch wrote for it (not an earlier run's). */
  private forget(client: AddingClient, accountId: string, claims: AddClaims, id: string): void {
    if (claims.recorded.has(id)) this.ownership.settle(client, accountId, id);
  }

  private settleAndReject(
    client: AddingClient,
    accountId: string,
    claims: AddClaims,
    member: Member,
    error: unknown,
  ): void {
    this.forget(client, accountId, claims, member.connectorId);
    member.reject(error);
  }
}

/**
 * True when the refusal may be caused by particular ids (unknown id: 404; refused id: 400,
 * 409, 422), so splitting the batch isolates them. Refusals of the caller or the call as a
 * whole (401, 403, 429, 5xx, no answer) would fail every half the same way.
 */
export function blamesSomeIds(error: unknown): boolean {
  const status = statusOf(error);
  return status === 400 || status === 404 || status === 409 || status === 422;
}
