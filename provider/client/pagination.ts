// Pagination as an async iterator: callers stop early for free, and pages are fetched only when
// the previous one is consumed, unless the caller reads them all (`allAtOnce`) and the first
// page says the total: then the pages after it are asked for together, and a listing of k pages
// (k ≤ PAGES_AHEAD + 1) takes two round trips instead of k.
//
// One rule decides where a list ends (docs/service-profile.md, "Paging: what ends a list";
// docs/service-contract.md, assumption A13): only a list PROVEN complete ends, since a list
// taken for whole when it is not makes a refresh see connectors as gone. Proof is one of:
// - a `total` reached, counting the DISTINCT items seen (never pages × the size a page claims):
//   pages that overlap (an item inserted before the cursor between two pages) would reach the
//   total counting a duplicate while an item is never read, so a page that partly repeats is
//   refused, as is a total that changes during the list (a smaller one would end it early);
// - a `next` field that says there is no next page;
// - an empty page (no total, or the total reached): the first, or one after pages that advanced.
// Anything else is refused (a ListRefusal, which the client turns into an error naming the route):
// a page that repeats what was read; a page shorter than the pages before it while the total is
// not reached (with offset paging the next page starts at the items seen, which is unambiguous;
// with page numbers it is not); a cursor that does not move; more pages or bytes than any list has.
// Counting, never the size a page claims: a service that caps its pages but echoes the size asked
// ended every list after page one. A FIRST page shorter than asked with the total not
// reached is the service's cap: by page numbers the next is asked at that page's size, where
// page 2 starts after it however the service counts.
import { MAX_PAGE_SIZE } from "../../contract/ids";

export { MAX_PAGE_SIZE };

/** One page as a fetcher answers it; `total`, `pageSize` and `next` only when the service says them. */
export interface PageAnswer<T> {
  items: T[];
  total?: number;
  pageSize?: number;
  /** A next offset or page number, or a link; null when the answer says there is no next page. */
  next?: number | string | null;
  /** The answer's size in bytes, counted against the list's budget (PaginateOptions.maxBytes). */
  bytes?: number;
}

/** Where the next page starts: its number, the items before it, and a link when the service gave one. */
export interface PageCursor {
  offset: number;
  link?: string;
}

export type PageFetcher<T> = (page: number, pageSize: number, cursor: PageCursor) => Promise<PageAnswer<T>>;

/** Pages asked for ahead of the one being read, with `allAtOnce` (the client's limiter still caps requests at once). */
export const PAGES_AHEAD = 8;
/** Pages of one list at most (200 000 items at the default page size). */
export const MAX_PAGES = 1_000;
/** @deprecated the bound holds with or without a total: MAX_PAGES. */
export const MAX_PAGES_WITHOUT_TOTAL = MAX_PAGES;
/** Bytes of one list at most, all its pages together (large pages that never end must not exhaust memory). */
export const MAX_LIST_BYTES = 64 * 1024 * 1024;

export interface PaginateOptions {
  /**
   * Ask for the pages the first one's `total` calls for as soon as it is known (up to
   * PAGES_AHEAD beyond the one being read), instead of each when the previous one is consumed
   * (default false: a caller that stops early fetches nothing more). For callers that read
   * every item.
   */
  allAtOnce?: boolean;
  /** Whether the next page is asked for by offset (the items seen) rather than by number; default false. */
  byOffset?: boolean;
  /** The byte budget of the list (default MAX_LIST_BYTES). */
  maxBytes?: number;
  /** What identifies an item (default: its `connectorId`, else its JSON): only new keys count towards the total. */
  keyOf?: (item: unknown) => string;
}

/**
 * A list that cannot be proven complete. `shape` says what was seen, in counts and kinds only
 * (never values), for the message the client builds with the route and what to do.
 */
export class ListRefusal extends Error {
  constructor(readonly shape: string) {
    super(shape);
    this.name = new.target.name;
  }
}

/** Page `page` holds only items already read: the service ignores the paging parameters, or cycles. */
export class RepeatedPageError extends ListRefusal {
  constructor(
    readonly page: number,
    readonly items: number,
  ) {
    super(`page ${page} repeats items already read (${items} items)`);
  }
}

/** Page `page` holds some items already read and some new: the list moved under the pages, an item may be unread. */
export class PartlyRepeatedPageError extends ListRefusal {
  constructor(page: number, repeated: number, items: number) {
    super(`page ${page} repeats ${repeated} of its ${items} items already read (the pages overlap)`);
  }
}

/** A page says another total than the pages before: the list changed while it was read. */
export class TotalChangedError extends ListRefusal {
  constructor(page: number, totals: readonly number[]) {
    super(`page ${page} changes the list's total (totals seen: ${totals.join(", ")})`);
  }
}

/** An item's key: its `connectorId` when it has one, else its JSON. */
function defaultKeyOf(item: unknown): string {
  const id = item !== null && typeof item === "object" ? (item as { connectorId?: unknown }).connectorId : undefined;
  return typeof id === "string" ? `id:${id}` : JSON.stringify(item);
}

/** More pages than any list should have, none ending it: the service never ends the list. */
export class EndlessListError extends ListRefusal {
  constructor(readonly pages: number) {
    super(`the list did not end after ${pages} pages`);
  }
}

/** A page after the first shorter than the pages before, the total not reached, and pages asked for by number. */
export class ShortPageError extends ListRefusal {}

/** An empty page (or a `next` that stops) before the total was reached. */
export class EndedBeforeTotalError extends ListRefusal {}

/** A `next` cursor that points where the page just read started. */
export class CursorStuckError extends ListRefusal {}

/** The list's pages together are larger than its byte budget. */
export class ListTooLargeError extends ListRefusal {}

/** Pages asked for ahead, by number, with the offset each was asked at. */
type Ahead<T> = Map<number, { offset: number; size: number; answer: Promise<PageAnswer<T>> }>;

/**
 * Yields every item of every page of a list proven complete (see the rule above); throws a
 * ListRefusal, after yielding what it read, where the list cannot be proven complete.
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  pageSize: number = MAX_PAGE_SIZE,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  const maxBytes = options.maxBytes ?? MAX_LIST_BYTES;
  let seen = 0;
  let bytes = 0;
  // The page asked for next: its number and size (by number: (number - 1) × size = seen, always).
  let number = 1;
  let size = pageSize;
  let cursor: PageCursor = { offset: 0 };
  // The total the pages say (all the same, or the list is refused).
  let total: number | undefined;
  // Each item read, by key: a page of items all read before does not advance.
  const read = new Set<string>();
  const keyOf = options.keyOf ?? defaultKeyOf;
  const ahead: Ahead<T> = new Map();
  for (let requests = 1; requests <= MAX_PAGES; requests++) {
    const prefetched = ahead.get(number);
    ahead.delete(number);
    const result = await (prefetched && prefetched.offset === cursor.offset && prefetched.size === size && !cursor.link
      ? prefetched.answer
      : fetchPage(number, size, cursor));
    const { items } = result;
    if (result.total !== undefined && total !== undefined && result.total !== total)
      throw new TotalChangedError(requests, [total, result.total]);
    total = result.total ?? total;
    bytes += result.bytes ?? 0;
    if (bytes > maxBytes)
      throw new ListTooLargeError(`the list passed its budget of ${maxBytes} bytes at page ${requests}`);
    const keys = items.map(keyOf);
    const fresh = new Set(keys.filter((key) => !read.has(key)));
    if (items.length > 0 && fresh.size === 0) throw new RepeatedPageError(requests, items.length);
    if (fresh.size < items.length) throw new PartlyRepeatedPageError(requests, items.length - fresh.size, items.length);
    const full = items.length >= size;
    if (options.allAtOnce && total !== undefined && result.next === undefined && full)
      prefetch(ahead, fetchPage, number, size, Math.ceil(total / size));
    for (const item of items) yield item;
    seen += items.length;
    for (const key of keys) read.add(key);
    if (result.next === null || items.length === 0) {
      if (total !== undefined && seen < total)
        throw new EndedBeforeTotalError(
          `page ${requests} ${items.length === 0 ? "is empty" : "says there is no next page"} after ${seen} items, ` +
            `but the total says ${total}`,
        );
      return;
    }
    if (total !== undefined && seen >= total) return;
    if (!full && !options.byOffset && result.next === undefined) {
      if (seen === items.length && total !== undefined) {
        // A first page shorter than asked, the total not reached: the service's own cap (whatever
        // page size it says). Asked by that size, page 2 starts after these items however the
        // service counts. (Without a total the size stays: a short page is most often the last,
        // and a service with a smallest page size would refuse a smaller one.)
        size = items.length;
      } else if (total !== undefined) {
        throw new ShortPageError(
          `page ${requests} has ${items.length} items where the pages before had ${size}, after ${seen} of ` +
            `${total} items: which page comes next cannot be told by number`,
        );
      }
    }
    number++;
    const next = nextCursor(result.next, seen);
    if (next.offset === cursor.offset && next.link === cursor.link)
      throw new CursorStuckError(`page ${requests}'s next page is the page itself`);
    cursor = next;
  }
  throw new EndlessListError(MAX_PAGES);
}

/** Asks for the pages after `number`, up to the last the total calls for and PAGES_AHEAD ahead, at full pages' offsets. */
function prefetch<T>(ahead: Ahead<T>, fetchPage: PageFetcher<T>, number: number, size: number, lastPage: number): void {
  for (let next = number + 1; next <= lastPage && next <= number + PAGES_AHEAD; next++) {
    if (ahead.has(next)) continue;
    const offset = (next - 1) * size;
    const answer = fetchPage(next, size, { offset });
    // A page never reached (an earlier one ended the list) must not be an unhandled rejection.
    answer.catch(() => undefined);
    ahead.set(next, { offset, size, answer });
  }
}

function nextCursor(next: number | string | undefined | null, seen: number): PageCursor {
  if (typeof next === "number" && Number.isInteger(next) && next >= 0) return { offset: next };
  if (typeof next === "string") return /^\d+$/.test(next) ? { offset: Number(next) } : { offset: seen, link: next };
  return { offset: seen };
}

/** All items of an async iterable, in order (for callers that want an array). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
