// What the client adds to pagination.ts for a list of the service: a next-page link turned into
// a target of the service's own origin, and a repeated or endless list refused with its route
// and what to do (docs/service-profile.md, "Paging: what ends a list").
import type { ResolvedOperation } from "../../contract/profile";
import { ResponseFormatError } from "./errors";
import { EndlessListError, RepeatedPageError } from "./pagination";
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

/** A list's pages, a repeated or endless one refused with the route and what to do. */
export async function* refusingRepeats<T>(
  pages: AsyncIterable<T>,
  op: ResolvedOperation,
  last: () => BodyContext | undefined,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* pages;
  } catch (error) {
    if (!(error instanceof RepeatedPageError || error instanceof EndlessListError)) throw error;
    const ctx = last() ?? { route: `${op.method} ${op.path}`, requestId: "-", status: 200 };
    const names =
      op.paging.style === "page"
        ? [op.paging.page, op.paging.pageSize]
        : op.paging.style === "offset"
          ? [op.paging.offset, op.paging.size]
          : [];
    throw new ResponseFormatError({
      ...ctx,
      problem:
        `${error.message}: the service seems to ignore the paging parameters (${names.join(", ")}), so the end of ` +
        `the list cannot be told, and taking a page for the end could make a refresh see connectors as gone. ` +
        "Run `pulumi-embedded-connectors doctor` to find the paging this route honours, and set it in the service " +
        "profile (docs/service-profile.md)",
    });
  }
}
