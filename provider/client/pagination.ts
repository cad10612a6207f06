// Pagination as an async iterator: callers stop early for free, and pages are fetched only when
// the previous one is consumed, unless the caller reads them all (`allAtOnce`) and the first
// page says the total: then the pages after it are asked for together, and a listing of k pages
// (k ≤ PAGES_AHEAD + 1) takes two round trips instead of k.
//
// What ends a list is what the answers tell (docs/service-profile.md, "Paging"): the total, a
// `next` field that says there is none, or an empty page. A short page WITHOUT a total ends
// nothing: it may be the last page, or a service that ignored the paging parameters and sent its
// own first page, and taking it as the end would make a refresh see connectors as gone. So the
// next page is asked for; when it repeats the one before, the list is refused (RepeatedPageError).
import { MAX_PAGE_SIZE } from "../../contract/ids";

export { MAX_PAGE_SIZE };

/** One page as a fetcher answers it; `total`, `pageSize` and `next` only when the service says them. */
export interface PageAnswer<T> {
  items: T[];
  total?: number;
  pageSize?: number;
  /** A next offset or page number, or a link; null when the answer says there is no next page. */
  next?: number | string | null;
}

/** Where the next page starts: its number, the items before it, and a link when the service gave one. */
export interface PageCursor {
  offset: number;
  link?: string;
}

export type PageFetcher<T> = (page: number, pageSize: number, cursor: PageCursor) => Promise<PageAnswer<T>>;

/** Pages asked for ahead of the one being read, with `allAtOnce` (the client's limiter still caps requests at once). */
export const PAGES_AHEAD = 8;
/** Pages of one list at most when no total bounds it (200 000 items at the default page size). */
export const MAX_PAGES_WITHOUT_TOTAL = 1_000;

export interface PaginateOptions {
  /**
   * Ask for the pages the first one's `total` calls for as soon as it is known (up to
   * PAGES_AHEAD beyond the one being read), instead of each when the previous one is consumed
   * (default false: a caller that stops early fetches nothing more). For callers that read
   * every item.
   */
  allAtOnce?: boolean;
}

/** Page `page` came back equal to the one before: the service ignores the paging parameters. */
export class RepeatedPageError extends Error {
  constructor(
    readonly page: number,
    readonly items: number,
  ) {
    super(`page ${page} repeats page ${page - 1} (${items} items)`);
    this.name = "RepeatedPageError";
  }
}

/** More pages than any list should have, none empty and no total: the service never ends the list. */
export class EndlessListError extends Error {
  constructor(readonly pages: number) {
    super(`the list did not end after ${pages} pages`);
    this.name = "EndlessListError";
  }
}

function sameItems(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  return a !== undefined && a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Yields every item of every page. With a total: stops when `total` items have been seen, when
 * the pages requested cover it (the service may cap pageSize lower than asked, so its own
 * pageSize counts), or at an empty page; a hard bound protects against a growing total. Without:
 * follows `next`, stops at an empty page or a `next` of null, refuses a page that repeats.
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  pageSize: number = MAX_PAGE_SIZE,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  let seen = 0;
  let maxPages = MAX_PAGES_WITHOUT_TOTAL;
  let cursor: PageCursor = { offset: 0 };
  let previous: T[] | undefined;
  const ahead = new Map<number, Promise<PageAnswer<T>>>();
  for (let page = 1; page <= maxPages; page++) {
    const result = await (ahead.get(page) ?? fetchPage(page, pageSize, cursor));
    ahead.delete(page);
    const { items, total } = result;
    const effectiveSize = Math.max(1, result.pageSize ?? items.length);
    if (page === 1 && total !== undefined) maxPages = Math.ceil(total / effectiveSize) + 1;
    // Ids are unique in a list: a page equal to the one before is the service ignoring the paging.
    if (items.length > 0 && sameItems(previous, items)) {
      throw new RepeatedPageError(page, items.length);
    }
    if (options.allAtOnce && total !== undefined && result.next === undefined) {
      // The pages the first one's total calls for, at most PAGES_AHEAD beyond this one.
      for (let next = page + 1; next < maxPages && next <= page + PAGES_AHEAD; next++) {
        if (ahead.has(next)) continue;
        const pending = fetchPage(next, pageSize, { offset: (next - 1) * effectiveSize });
        // A page never reached (an earlier one came back empty) must not be an unhandled rejection.
        pending.catch(() => undefined);
        ahead.set(next, pending);
      }
    }
    for (const item of items) yield item;
    seen += items.length;
    if (items.length === 0 || result.next === null) return;
    if (total !== undefined && (seen >= total || page * effectiveSize >= total)) return;
    previous = items;
    cursor = nextCursor(result.next, seen);
  }
  if (maxPages === MAX_PAGES_WITHOUT_TOTAL) throw new EndlessListError(maxPages);
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
