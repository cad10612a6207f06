// Which paging parameters a list route honours: doctor asks for two small pages in each style
// (`page`/`pageSize` from 1, the same from 0, `size`/`offset`, `limit`/`offset`) and compares
// them with the page the route sends unasked. A style is honoured when its first page starts
// where the list starts and holds at most the size asked, and its second page starts elsewhere
// or is empty; a service that ignores the parameters sends its own default page both times.
// One item is enough to see a position parameter honoured (`size=1&offset=1` is empty only where
// offsets are honoured); which size parameter counts needs two. An empty list tells nothing: its
// paging is then inferred from the other lists (inferPaging) or probed by `--write-check`.
import type { PagingStyle, ResolvedOperation } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { effectiveStatus, itemsOf } from "./shapes";
import type { WireClient, WireRequest } from "./wire-client";

const SIZE = 2;

export interface PagingCandidate {
  label: string;
  style: PagingStyle;
  /** The query of the page holding items [position, position + size). */
  ask(position: number, size: number): Record<string, number>;
}

const pageStyle = (firstPage: 0 | 1): PagingCandidate => ({
  label: firstPage === 1 ? "page/pageSize" : "page/pageSize from page 0",
  style: {
    style: "page",
    page: "page",
    pageSize: "pageSize",
    maxSize: 200,
    ...(firstPage === 0 ? { firstPage: 0 as const } : {}),
  },
  ask: (position, size) => ({ page: firstPage + position / size, pageSize: size }),
});

const offsetStyle = (size: "size" | "limit"): PagingCandidate => ({
  label: `${size}/offset`,
  style: { style: "offset", offset: "offset", size, maxSize: 200 },
  ask: (position, n) => ({ [size]: n, offset: position }),
});

export const CANDIDATES: readonly PagingCandidate[] = [
  pageStyle(1),
  pageStyle(0),
  offsetStyle("size"),
  offsetStyle("limit"),
];

export interface PagingFinding {
  /** The styles the route honours (the first is suggested); empty: none, or too few items to tell. */
  honoured: PagingCandidate[];
  /** The number of items the route sends when asked for no page at all. */
  defaultPageLength?: number;
  /** Why nothing could be told, when so. */
  undetermined?: string;
  /** Styles a list too short to tell did not contradict (inferPaging picks among them). */
  possible?: PagingCandidate[];
  /** The style taken from the other lists, when this one could not tell, and which lists. */
  inferred?: { candidate: PagingCandidate; from: OperationName[] };
  /** The most items a page holds whatever is asked, when the service caps pages below the size asked. */
  cap?: number;
}

/** The page size asked when looking for a cap: more than any list here holds per page by default. */
const CAP_PROBE = 50;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Asks `operation` for small pages in each style; `request` carries its other parameters. */
export async function probePaging(
  client: WireClient,
  operation: OperationName,
  request: WireRequest,
): Promise<PagingFinding> {
  const ask = async (rawQuery: Record<string, number>) => {
    const answer = await client.call(operation, { ...request, rawQuery });
    return effectiveStatus(answer.status, answer.body) < 300
      ? itemsOf(answer.body, client.profile.operations[operation].list)
      : undefined;
  };
  const plain = await ask({});
  if (plain === undefined) return { honoured: [], undetermined: "the list could not be read" };
  const n = plain.length;
  if (n === 0) return { honoured: [], defaultPageLength: 0, undetermined: "0 items: too few to tell" };
  // Pages of two when the list is longer; of one otherwise (a page past the end must be empty).
  const size = n > SIZE ? SIZE : 1;
  const honoured: PagingCandidate[] = [];
  for (const candidate of CANDIDATES) {
    const first = await ask(candidate.ask(0, size));
    if (!first || first.length === 0 || first.length > size || !same(first[0], plain[0])) continue;
    const second = await ask(candidate.ask(size, size));
    if (second && (second.length === 0 || !same(second[0], first[0]))) honoured.push(candidate);
  }
  // With one item, a size parameter that is ignored cannot be told from one that is honoured.
  const sizeNames = new Set(honoured.filter((c) => c.style.style === "offset").map((c) => c.label));
  if (n === 1 && sizeNames.size > 1) {
    return {
      honoured: [],
      possible: honoured,
      defaultPageLength: n,
      undetermined: "1 item: offsets honoured, too few to tell size from limit",
    };
  }
  const cap = honoured[0] ? await pageCap(ask, honoured[0]) : undefined;
  if (cap === undefined) return { honoured, defaultPageLength: n };
  // Pages capped below the size asked: the profile asks for no more than the service sends.
  const capped = honoured.map((c) => ({ ...c, style: { ...c.style, maxSize: cap } as PagingStyle }));
  return { honoured: capped, defaultPageLength: n, cap };
}

/**
 * The cap of a service that sends fewer items than asked although the list goes on (a page of
 * CAP_PROBE holds m items, and the page after those m is not empty); undefined when pages hold
 * what is asked. A client that took such a page for the last one would read the list short.
 */
async function pageCap(
  ask: (rawQuery: Record<string, number>) => Promise<unknown[] | undefined>,
  style: PagingCandidate,
): Promise<number | undefined> {
  const first = await ask(style.ask(0, CAP_PROBE));
  const m = first?.length ?? 0;
  if (!first || m === 0 || m >= CAP_PROBE) return undefined;
  const next = await ask(style.ask(m, m));
  return next && next.length > 0 && !same(next[0], first[0]) ? m : undefined;
}

/** The style a finding settles on: proven, else inferred; undefined when it could not tell. */
export function settled(finding: PagingFinding | undefined): PagingCandidate | undefined {
  if (!finding) return undefined;
  return finding.undetermined === undefined ? finding.honoured[0] : finding.inferred?.candidate;
}

export interface ListPaging {
  operation: OperationName;
  paging?: PagingFinding;
}

/**
 * For each list that could not tell its paging: the style every list that could tell agrees on
 * (not one its own answers contradict). Returns what was inferred, for the report.
 */
export function inferPaging(lists: readonly ListPaging[]): void {
  const told = lists.filter((l) => l.paging && l.paging.undetermined === undefined && l.paging.honoured[0]);
  const labels = new Set(told.map((l) => l.paging?.honoured[0]?.label));
  const agreed = told[0]?.paging?.honoured[0];
  if (!agreed || labels.size !== 1) return;
  for (const list of lists) {
    const p = list.paging;
    if (!p || p.undetermined === undefined) continue;
    if (p.possible && !p.possible.some((c) => c.label === agreed.label)) continue;
    p.inferred = { candidate: agreed, from: told.map((l) => l.operation) };
  }
}

/** Whether the operation's paging is one the finding settles on (names and first page included). */
export function pagingReads(op: ResolvedOperation, finding: PagingFinding): boolean {
  const p = op.paging;
  if (finding.cap !== undefined && p.style !== "none" && p.maxSize > finding.cap) return false;
  if (finding.undetermined === undefined) return finding.honoured.some((c) => samePaging(op.paging, c.style));
  return finding.inferred ? samePaging(op.paging, finding.inferred.candidate.style) : true;
}

/** Two paging styles that send the same query (maxSize aside). */
export function samePaging(a: PagingStyle, b: PagingStyle): boolean {
  if (a.style === "page" && b.style === "page") {
    return a.page === b.page && a.pageSize === b.pageSize && (a.firstPage ?? 1) === (b.firstPage ?? 1);
  }
  if (a.style === "offset" && b.style === "offset") return a.offset === b.offset && a.size === b.size;
  return false;
}
