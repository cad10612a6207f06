// A list read whole, for `--write-check`, by the project's one rule for the evidence of absence:
// the list is complete only when a total is reached with every item seen, a `next` ends, or an
// empty page follows pages that advanced (no item seen twice) — and never while a total the
// answer gives is not reached. Anything else — an answer it cannot read (or two arrays that could
// each be the list), a refusal, a page that repeats, no end after MAX_PAGES — is a refusal that
// names the route and the shape seen, never a value.
import type { PagingStyle } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { effectiveStatus, getPath, listOf, payloadOf, shapeOf } from "./shapes";
import type { WireClient, WireRequest } from "./wire-client";

const MAX_PAGES = 100;
const PAGE_SIZE = 50;

export type WholeList = { ids: string[]; refused?: undefined } | { refused: string };

function pageQuery(paging: PagingStyle, index: number, seen: number): Record<string, number> {
  const size = Math.min(PAGE_SIZE, paging.style === "none" ? PAGE_SIZE : paging.maxSize);
  if (paging.style === "page") return { [paging.page]: (paging.firstPage ?? 1) + index, [paging.pageSize]: size };
  // By the count seen, not index × size: a service that caps its pages is still read in order.
  if (paging.style === "offset") return { [paging.offset]: seen, [paging.size]: size };
  return {};
}

/** Every connector id of the list under `paging`, proven complete, or why it could not be. */
export async function readWholeList(
  client: WireClient,
  operation: OperationName,
  request: WireRequest,
  paging: PagingStyle,
): Promise<WholeList> {
  const route = `${client.profile.operations[operation].method} ${client.profile.operations[operation].path}`;
  const ids: string[] = [];
  for (let index = 0; index < MAX_PAGES; index++) {
    const answer = await client.call(operation, { ...request, rawQuery: pageQuery(paging, index, ids.length) });
    const status = effectiveStatus(answer.status, answer.body);
    if (status >= 300) return { refused: `${route} answered ${status}` };
    const payload = payloadOf(answer.body);
    const seen = listOf(payload, client.profile.operations[operation].list);
    const items = seen.items === undefined ? undefined : getPath(payload, seen.items);
    if (!Array.isArray(items)) {
      const which = seen.ambiguous ? `; ${seen.ambiguous.length} arrays could each be the list` : "";
      return { refused: `${route}: an answer it cannot read (${shapeOf(answer.body)}${which})` };
    }
    const total = seen.total === undefined ? undefined : getPath(payload, seen.total);
    // An end that a total contradicts proves nothing: the list is not known whole.
    const end = (): WholeList =>
      typeof total === "number" && ids.length < total
        ? {
            refused:
              `${route}: the list ended after ${ids.length} item(s) but its total says ${total}; ` +
              "run `doctor` without --write-check to see how this list pages, and set the profile's paging and list keys",
          }
        : { ids };
    // An empty page after pages that advanced (or a first page that is empty): the end.
    if (items.length === 0) return end();
    for (const item of items) {
      const id = (item as { connectorId?: unknown } | null)?.connectorId;
      if (typeof id !== "string") return { refused: `${route}: an item without a connectorId` };
      if (ids.includes(id)) {
        return {
          refused: `${route}: page ${index + 1} repeats an item of an earlier page (the paging is not honoured)`,
        };
      }
      ids.push(id);
    }
    if (typeof total === "number" && ids.length >= total) return { ids };
    if (seen.next !== undefined) {
      const next = getPath(payload, seen.next);
      if (next === null || next === undefined || next === "" || next === false) return end();
    }
    if (paging.style === "none") {
      return { refused: `${route}: one unpaged answer with neither a total nor a next to prove it whole` };
    }
  }
  return { refused: `${route}: no end after ${MAX_PAGES} pages` };
}
