// Which paging parameters a list route honours: doctor asks for two small pages in each
// style (`page`/`pageSize`, `size`/`offset`, `limit`/`offset`) and compares them. A style is
// honoured when its first page holds at most the size asked and its second page starts
// elsewhere; a service that ignores the parameters sends its own default page both times.
import type { PagingStyle, ResolvedOperation } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { effectiveStatus, itemsOf } from "./shapes";
import type { WireClient, WireRequest } from "./wire-client";

const SIZE = 2;

export interface PagingCandidate {
  label: string;
  style: PagingStyle;
  first: Record<string, number>;
  second: Record<string, number>;
}

export const CANDIDATES: readonly PagingCandidate[] = [
  {
    label: "page/pageSize",
    style: { style: "page", page: "page", pageSize: "pageSize", maxSize: 200 },
    first: { page: 1, pageSize: SIZE },
    second: { page: 2, pageSize: SIZE },
  },
  {
    label: "size/offset",
    style: { style: "offset", offset: "offset", size: "size", maxSize: 200 },
    first: { size: SIZE, offset: 0 },
    second: { size: SIZE, offset: SIZE },
  },
  {
    label: "limit/offset",
    style: { style: "offset", offset: "offset", size: "limit", maxSize: 200 },
    first: { limit: SIZE, offset: 0 },
    second: { limit: SIZE, offset: SIZE },
  },
];

export interface PagingFinding {
  /** The styles the route honours (the first is suggested); empty: none, or too few items to tell. */
  honoured: PagingCandidate[];
  /** The number of items the route sends when asked for no page at all. */
  defaultPageLength?: number;
  /** Why nothing could be told, when so. */
  undetermined?: string;
}

const idOf = (item: unknown) => JSON.stringify(item);

/** Asks `operation` for small pages in each style; `request` carries its other parameters. */
export async function probePaging(
  client: WireClient,
  operation: OperationName,
  request: WireRequest,
): Promise<PagingFinding> {
  const ask = async (rawQuery: Record<string, number>) => {
    const answer = await client.call(operation, { ...request, rawQuery });
    return effectiveStatus(answer.status, answer.body) < 300 ? itemsOf(answer.body) : undefined;
  };
  const plain = await ask({});
  if (plain === undefined) return { honoured: [], undetermined: "the list could not be read" };
  if (plain.length <= SIZE) {
    return {
      honoured: [],
      defaultPageLength: plain.length,
      undetermined: `${plain.length} item(s): too few to tell`,
    };
  }
  const honoured: PagingCandidate[] = [];
  for (const candidate of CANDIDATES) {
    const first = await ask(candidate.first);
    const second = await ask(candidate.second);
    if (!first || !second || first.length === 0 || first.length > SIZE) continue;
    if (second.length > 0 && idOf(second[0]) !== idOf(first[0])) honoured.push(candidate);
  }
  return { honoured, defaultPageLength: plain.length };
}

/** Whether the operation's paging is one of the honoured styles (names included). */
export function pagingReads(op: ResolvedOperation, finding: PagingFinding): boolean {
  if (finding.undetermined !== undefined) return true;
  const p = op.paging;
  return finding.honoured.some((c) => {
    const s = c.style;
    if (p.style === "page" && s.style === "page") return p.page === s.page && p.pageSize === s.pageSize;
    if (p.style === "offset" && s.style === "offset") return p.offset === s.offset && p.size === s.size;
    return false;
  });
}
