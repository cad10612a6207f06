// What the client adds to pagination.ts for a list of the service: its pages asked and read,
// a next-page link turned into a target of the service's own origin, and a repeated or endless
// list refused with its route and what to do, and a list route's 404 refused likewise
// (docs/service-profile.md, "Paging: what ends a list").
import { z } from "zod";
import { operationLabel, type ResolvedOperation } from "../../contract/profile";
import { readListPage } from "./answers";
import type { Answer, CallParts } from "./call-parts";
import { NotFoundError, ResponseFormatError, type EmbeddedApiError } from "./errors";
import { ListRefusal, paginate, RepeatedPageError, type PaginateOptions } from "./pagination";
import { pagingQuery } from "./requests";
import type { BodyContext } from "./schemas";
import type { ParsedBaseUrl } from "./validation";

/** A next-page link: a path (and query) of this service, or a URL of its origin; anything else is refused. */
export function linkTargetOf(link: string, base: Pick<ParsedBaseUrl, "origin" | "basePath">, label: string): string {
  const refuse = (problem: string) => new ResponseFormatError({ route: label, requestId: "-", status: 200, problem });
  let url: URL;
  try {
    url = new URL(link, `${base.origin}${base.basePath}/`);
  } catch {
    throw refuse("the next-page link is not a URL");
  }
  if (url.origin !== base.origin)
    throw refuse("the next-page link points to another origin; only the service's own are followed");
  return `${url.pathname}${url.search}`;
}

/** The paging parameters of a list route, by their wire names (for messages). */
function pagingNames(op: ResolvedOperation): string[] {
  if (op.paging.style === "page") return [op.paging.page, op.paging.pageSize];
  if (op.paging.style === "offset") return [op.paging.offset, op.paging.size];
  return [];
}

const DOCTOR =
  "Run `pulumi-embedded-connectors doctor` to find the paging this route honours, and set it in the service " +
  'profile (docs/service-profile.md, "Paging: what ends a list")';

/**
 * A list's pages; where its end cannot be proven (pagination.ts ListRefusal), the list is
 * refused with the route, what was seen (counts, never values) and what to do. Nothing calls a
 * connector gone from such a list: the operation fails and the state stays as it was.
 */
export async function* refusingUnproven<T>(
  pages: AsyncIterable<T>,
  op: ResolvedOperation,
  last: () => BodyContext | undefined,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* pages;
  } catch (error) {
    if (!(error instanceof ListRefusal)) throw error;
    const ctx = last() ?? { route: operationLabel(op), requestId: "-", status: 200 };
    const names = pagingNames(op);
    const paging =
      error instanceof RepeatedPageError
        ? `: the service seems to ignore the paging parameters (${names.join(", ")})`
        : names.length > 0
          ? ` (paging by ${names.join(", ")})`
          : "";
    throw new ResponseFormatError({
      ...ctx,
      problem:
        `${error.shape}${paging}: the end of the list cannot be proven, and taking a page for the end could make ` +
        `a refresh see connectors as gone, so nothing is concluded from it. ${DOCTOR}`,
    });
  }
}

/**
 * A list route that answers 404 (as an HTTP status, or inside a 2xx): a list answers with its
 * items, none included, so a 404 says the route or its paging is wrong, never that an item is
 * gone. Refused with the route and what to do; the error's kind is not "not found".
 */
export function listRouteNotFound(op: ResolvedOperation, error: EmbeddedApiError): ResponseFormatError {
  return new ResponseFormatError({
    route: error.route,
    requestId: error.requestId,
    status: error.status,
    problem:
      "the list route answered 404 (a list answers with its items, possibly none): the route, the sub-account or " +
      `the paging of ${operationLabel(op)} is not the service's, so nothing is concluded from it. ${DOCTOR}`,
  });
}

/**
 * A list's items, page after page, each page asked with the route's paging and read by its
 * profile; pages the service caps are asked at the size it serves; its end proven or refused.
 */
export function listOf<T extends z.ZodType>(
  op: ResolvedOperation,
  item: T,
  params: CallParts["params"],
  call: (parts: CallParts) => Promise<Answer>,
  limits: { readonly pageSize: number; readonly maxListBytes: number },
  options: PaginateOptions = {},
): AsyncIterable<z.infer<T>> {
  const items = z.array(item) as z.ZodType<z.infer<T>[]>;
  const pageSize = op.paging.style === "none" ? limits.pageSize : Math.min(limits.pageSize, op.paging.maxSize);
  let last: BodyContext | undefined;
  // Arguments are checked by the caller before this returns, so a bad id throws at once.
  const pages = paginate(
    async (page, size, cursor) => {
      const raw = pagingQuery(op.paging, page, size, cursor.offset);
      const answer = await call(cursor.link ? { params, link: cursor.link } : { params, raw }).catch(
        (error: unknown) => {
          // A 404 of a list about one connector (List Supported Connectors) is about that
          // connector; any other list's 404 says nothing of its items.
          if (error instanceof NotFoundError && params?.connectorId === undefined) throw listRouteNotFound(op, error);
          throw error;
        },
      );
      last = answer.ctx;
      const read = readListPage(op, items, answer.json, answer.ctx);
      // Without paging, one answer is the whole list.
      const whole = op.paging.style === "none" ? { ...read, total: undefined, next: null } : read;
      return { ...whole, bytes: answer.bytes };
    },
    pageSize,
    { ...options, byOffset: op.paging.style === "offset", maxBytes: limits.maxListBytes },
  );
  return refusingUnproven(pages, op, () => last);
}
