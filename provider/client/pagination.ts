// Pagination over page/pageSize until total, as an async iterator: callers stop early
// for free, and pages are fetched only when the previous one is consumed.
import { MAX_PAGE_SIZE } from "../../contract/ids";
import type { Page } from "./schemas";

export { MAX_PAGE_SIZE };

export type PageFetcher<T> = (page: number, pageSize: number) => Promise<Page<T>>;

/**
 * Yields every item of every page. Stops at an empty page, when `total` items have been
 * seen, or when the pages requested cover `total` (the service may cap pageSize lower
 * than asked, so its own pageSize counts). A hard page bound protects against a service
 * whose `total` keeps growing.
 */
export async function* paginate<T>(fetchPage: PageFetcher<T>, pageSize: number = MAX_PAGE_SIZE): AsyncGenerator<T, void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  let seen = 0;
  let maxPages = Number.POSITIVE_INFINITY;
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetchPage(page, pageSize);
    for (const item of result.items) yield item;
    seen += result.items.length;
    const effectiveSize = Math.max(1, result.pageSize);
    if (page === 1) maxPages = Math.ceil(result.total / effectiveSize) + 1;
    if (result.items.length === 0 || seen >= result.total || page * effectiveSize >= result.total) return;
  }
}

/** All items of an async iterable, in order (for callers that want an array). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
