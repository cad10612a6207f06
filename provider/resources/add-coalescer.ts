// Coalesced Add Connector calls. The engine runs independent creates concurrently (up to its
// --parallel), but generates them one at a time: on the machine of BENCHMARKS.md creates of
// an `up` reach the provider 15–40 ms apart. The service's Add takes up to 50 ids at once.
// Creates for the same client and sub-account go out as one Add while they keep coming (each
// within `idleMs` of the last, the first waiting at most `windowMs`), and each create still
// gets its own result and error:
// - the answer is split per id (added view, or "already added" with the call's `retried`);
// - Add is atomic, so an unknown id makes the whole batch fail (404): the batch is then split
//   in halves and re-sent until only the ids at fault fail (a bisection: about 2·log2(50)
//   extra calls for one bad id, not 50);
// - an error that is not about particular ids (network, 5xx after retries, 401, 403, 429)
//   is every member's own error, and is handed to each.
import { checkId, MAX_ADD_IDS, type AddConnectorsResult, type AddedConnectorView, type EmbeddedClient } from "../client";
import { DEFAULT_ADD_WINDOW_MS } from "../settings";
import { statusOf } from "./shared";

/** What one create learns from the (possibly shared) Add. */
export interface AddOutcome {
  /** The added view, when this Add added it. */
  view?: AddedConnectorView;
  /** True when the service said the id was already added. */
  alreadyAdded: boolean;
  /** The Add that answered was not its first attempt (an "already added" may be our own doing). */
  retried: boolean;
}

/** The part of the client the coalescer uses (tests pass fakes). */
export type AddingClient = Pick<EmbeddedClient, "addConnectors">;

export interface AddCoalescerOptions {
  /**
   * How long the first create of a batch waits for others at most (default 500 ms; each
   * `add` may pass its own, from the `addWindowMs` setting). 0: every Add goes out alone.
   */
  windowMs?: number;
  /**
   * A batch also goes out once no create joined it for this long (default 60 ms, at most the
   * window): longer than the engine's gap between two creates, so a steady stream keeps
   * filling the batch, and short enough that a batch capped by the engine's --parallel
   * (no create can arrive while every worker waits here) does not wait out the window.
   */
  idleMs?: number;
  /** Most ids per Add (default and service maximum 50). */
  maxBatch?: number;
  /** Called before and after every Add (the added-connectors cache invalidates the sub-account). */
  onWrite?: (client: AddingClient, accountId: string) => void;
}

interface Member {
  connectorId: string;
  resolve: (outcome: AddOutcome) => void;
  reject: (error: unknown) => void;
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
  /** Open batches per client, then sub-account. */
  private open = new WeakMap<AddingClient, Map<string, Batch>>();
  /** Add calls sent, bisection included; for tests and the bench. */
  calls = 0;

  constructor(options: AddCoalescerOptions = {}) {
    this.windowMs = options.windowMs ?? DEFAULT_ADD_WINDOW_MS;
    this.idleMs = Math.min(options.idleMs ?? DEFAULT_ADD_IDLE_MS, this.windowMs);
    this.maxBatch = Math.min(Math.max(1, options.maxBatch ?? MAX_ADD_IDS), MAX_ADD_IDS);
    this.onWrite = options.onWrite ?? (() => undefined);
  }

  /**
   * Adds one connector, possibly together with others; settles with this id's own outcome.
   * `windowMs` overrides the default for a batch this call opens.
   */
  add(client: AddingClient, accountId: string, connectorId: string, windowMs = this.windowMs): Promise<AddOutcome> {
    // A malformed id fails alone, here, instead of failing the batch in the client's check.
    checkId("connectorId", connectorId);
    return new Promise<AddOutcome>((resolve, reject) => {
      let perClient = this.open.get(client);
      if (!perClient) {
        perClient = new Map();
        this.open.set(client, perClient);
      }
      let batch = perClient.get(accountId);
      // The same id twice in one Add would report "added" to both resources: the second
      // goes into the next batch, where it gets "already added" as it would on its own.
      if (batch && batch.ids.has(connectorId)) {
        this.flush(batch);
        batch = undefined;
      }
      if (!batch) {
        const created: Batch = { client, accountId, idleMs: Math.min(this.idleMs, windowMs), members: [], ids: new Set() };
        created.timer = setTimeout(() => this.flush(created), windowMs);
        perClient.set(accountId, created);
        batch = created;
      }
      batch.members.push({ connectorId, resolve, reject });
      batch.ids.add(connectorId);
      if (batch.members.length >= this.maxBatch || windowMs <= 0) {
        this.flush(batch);
      } else {
        const open = batch;
        if (open.idleTimer) clearTimeout(open.idleTimer);
        open.idleTimer = setTimeout(() => this.flush(open), open.idleMs);
      }
    });
  }

  private flush(batch: Batch): void {
    if (batch.timer) clearTimeout(batch.timer);
    if (batch.idleTimer) clearTimeout(batch.idleTimer);
    batch.timer = batch.idleTimer = undefined;
    const perClient = this.open.get(batch.client);
    if (perClient?.get(batch.accountId) === batch) perClient.delete(batch.accountId);
    void this.send(batch.client, batch.accountId, batch.members);
  }

  /** One Add for these members; on an id-specific refusal of a batch, bisects. Never rejects. */
  private async send(client: AddingClient, accountId: string, members: Member[]): Promise<void> {
    const ids = members.map((m) => m.connectorId);
    let result: AddConnectorsResult;
    this.calls++;
    this.onWrite(client, accountId);
    try {
      result = await client.addConnectors(accountId, ids);
    } catch (error) {
      this.onWrite(client, accountId);
      if (members.length > 1 && blamesSomeIds(error)) {
        const half = Math.ceil(members.length / 2);
        await Promise.all([this.send(client, accountId, members.slice(0, half)), this.send(client, accountId, members.slice(half))]);
      } else {
        for (const member of members) member.reject(error);
      }
      return;
    }
    this.onWrite(client, accountId);
    const added = new Map(result.added.map((view) => [view.connectorId, view]));
    const already = new Set(result.alreadyAdded);
    for (const member of members) {
      const view = added.get(member.connectorId);
      if (view) member.resolve({ view, alreadyAdded: false, retried: result.retried });
      else if (already.has(member.connectorId)) member.resolve({ alreadyAdded: true, retried: result.retried });
      // Neither added nor already added: an answer that breaks the contract, for this id only.
      else member.reject(new Error(`the service's Add answer does not mention connector ${member.connectorId}`));
    }
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
