// `doctor --trace FILE`: a transcript to attach to a bug report, redacted as it is recorded.
// Each exchange: method, path with the ids replaced, the query's names (values only for
// paging numbers), status, latency, our request headers but authorization and cookies, the
// names of the service's headers, and the bodies' shapes (types and lengths only, naming only
// the keys the contract and the profile know). No value of a body or of a service's header, no
// token, no secret: every answer is the token's or follows a request that carried the token,
// and a service could echo it in any form (hex, base64, reversed) that no scrub recognises.
import { writeFileSync } from "node:fs";
import { ID_PATTERN } from "../../contract/ids";
import type { ResolvedProfile } from "../../contract/profile";
import { knownKeys, shapeOf } from "./shapes";
import type { Exchange } from "./wire-client";

const HIDDEN_HEADERS = new Set(["authorization", "set-cookie", "cookie", "proxy-authorization"]);
/** Headers whose values say nothing about the caller: shown; any other's value is not. */
const SHOWN_HEADERS = /^(accept|content-type|content-length|x-request-id|retry-after|date)$/i;
const PAGING = new Set(["page", "pageSize", "size", "offset", "limit"]);

/** A path segment that is an id (or the sub-account in use) becomes `{id}` / `{accountId}`. */
export function redactPath(path: string, accountId: string | undefined): string {
  return path
    .split("/")
    .map((segment) => {
      const value = decodeURIComponent(segment);
      if (accountId !== undefined && value === accountId) return "{accountId}";
      return ID_PATTERN.test(value) ? "{id}" : segment;
    })
    .join("/");
}

export class Transcript {
  private readonly lines: string[] = [];
  private readonly known: ReadonlySet<string>;

  constructor(
    profile: ResolvedProfile,
    private readonly accountId?: string,
  ) {
    this.known = knownKeys(profile);
  }

  record(exchange: Exchange): void {
    // The token's answer follows a request that carried the client secret: none of its headers is shown.
    const carriedSecrets = exchange.operation === "getToken";
    const query = Object.entries(exchange.query).map(([name, value]) =>
      PAGING.has(name) && /^\d{1,6}$/.test(value) ? `${name}=${value}` : `${name}=…`,
    );
    const headers = (all: Record<string, string>, fromService: boolean) =>
      Object.entries(all)
        .filter(([name]) => !HIDDEN_HEADERS.has(name.toLowerCase()) && !(fromService && carriedSecrets))
        .map(([name, value]) => `${name}: ${!fromService && SHOWN_HEADERS.test(name) ? value : "…"}`)
        .join("; ");
    this.lines.push(
      [
        `${exchange.method} ${redactPath(exchange.path, this.accountId)}${query.length ? `?${query.join("&")}` : ""}`,
        `  status ${exchange.status} in ${exchange.latencyMs} ms`,
        ...(exchange.redirectOrigin ? [`  redirected to ${exchange.redirectOrigin} (not followed)`] : []),
        `  request headers: ${headers(exchange.requestHeaders, false)}`,
        ...(exchange.requestBody === undefined ? [] : [`  request body: ${shapeOf(exchange.requestBody, true)}`]),
        `  response headers: ${headers(exchange.headers, true) || "(not shown)"}`,
        `  response body (${exchange.bodyBytes} bytes): ${shapeOf(exchange.body, this.known)}`,
      ].join("\n"),
    );
  }

  /** Writes the transcript through `scrub` (redact.ts), the last guard against a secret's copy. */
  write(file: string, scrub: (text: string) => string): void {
    writeFileSync(file, scrub(`${this.lines.join("\n\n")}\n`));
  }
}
