// Pagination over page/pageSize until total, as an async iterator: callers stop early
// for free, and pages are fetched only when the previous one is consumed, unless the caller
// reads them all (`allAtOnce`): then the pages after the first are asked for together, and a
// listing of k pages (k ≤ PAGES_AHEAD + 1) takes two round trips instead of k.
import { MAX_PAGE_SIZE } from "../../contract/ids";
import type { Page } from "./schemas";

export { MAX_PAGE_SIZE };

export type PageFetcher<T> = (page: number, pageSize: number) => Promise<Page<T>>;

/** Pages asked for ahead of the one being read, with `allAtOnce` (the client's limiter still caps requests at once). */
export const PAGES_AHEAD = 8;

export interface PaginateOptions {
  /**
   * Ask for the pages the first one's `total` calls for as soon as it is known (up to
   * PAGES_AHEAD beyond the one being read), instead of each when the previous one is consumed
   * (default false: a caller that stops early fetches nothing more). For callers that read
   * every item.
   */
  allAtOnce?: boolean;
}

/**
 * Yields every item of every page. Stops at an empty page, when `total` items have been
 * seen, or when the pages requested cover `total` (the service may cap pageSize lower
 * than asked, so its own pageSize counts). A hard page bound protects against a service
 * whose `total` keeps growing.
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  pageSize: number = MAX_PAGE_SIZE,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  let seen = 0;
  let maxPages = Number.POSITIVE_INFINITY;
  const ahead = new Map<number, Promise<Page<T>>>();
  for (let page = 1; page <= maxPages; page++) {
    const result = await (ahead.get(page) ?? fetchPage(page, pageSize));
    ahead.delete(page);
    const effectiveSize = Math.max(1, result.pageSize);
    if (page === 1) maxPages = Math.ceil(result.total / effectiveSize) + 1;
    if (options.allAtOnce) {
      // The pages the first one's total calls for, at most PAGES_AHEAD beyond this one.
      for (let next = page + 1; next < maxPages && next <= page + PAGES_AHEAD; next++) {
        if (ahead.has(next)) continue;
        const pending = fetchPage(next, pageSize);
        // A page never reached (an earlier one came back empty) must not be an unhandled rejection.
        pending.catch(() => undefined);
        ahead.set(next, pending);
      }
    }
    for (const item of result.items) yield item;
    seen += result.items.length;
    if (result.items.length === 0 || seen >= result.total || page * effectiveSize >= result.total) return;
  }
}

/** All items of an async iterable, in order (for callers that want an array). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
