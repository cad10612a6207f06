// Checks made before any request, so that a malformed argument never reaches the service
// (and never costs a token, a retry or a rate-limit slot).
import { isIP } from "node:net";
import { ID_FORMAT, isId, MAX_ADD_IDS } from "../../contract/ids";
import { InvalidArgumentError } from "./errors";

export { ID_PATTERN, MAX_ADD_IDS } from "../../contract/ids";

function show(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
    : typeof value;
}

/** Connector and configuration ids: the contract's format (contract/ids.ts). */
export function checkId(argument: string, value: unknown): string {
  if (!isId(value)) {
    throw new InvalidArgumentError(argument, `${argument} must be ${ID_FORMAT}, got ${show(value)}`);
  }
  return value;
}

/**
 * The sub-account id. The specification does not fix its format (the contract's ids are
 * 16 characters, a hosted service may differ), so only what can never be valid is refused.
 */
export function checkAccountId(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "" || /[\s\p{Cc}]/u.test(value) || value.length > 128) {
    throw new InvalidArgumentError(
      "accountId",
      `accountId must be a non-empty sub-account id without spaces, got ${show(value)}`,
    );
  }
  return value;
}

/** 1 to 50 valid ids; duplicates are dropped (order kept), since the service refuses them. */
export function checkConnectorIds(values: unknown): string[] {
  if (!Array.isArray(values))
    throw new InvalidArgumentError("connectorIds", "connectorIds must be a list of connector ids");
  const ids = [...new Set(values.map((v: unknown, i) => checkId(`connectorIds[${i}]`, v)))];
  if (ids.length === 0 || ids.length > MAX_ADD_IDS) {
    throw new InvalidArgumentError("connectorIds", `connectorIds must hold 1 to ${MAX_ADD_IDS} ids, got ${ids.length}`);
  }
  return ids;
}

/**
 * List filters (found by provider/lookups/arguments.property.test.ts: an object gave "Cannot
 * convert object to primitive value", a wrong supportedType cost a request). supportedType is
 * a closed set; the other enumerations may grow on the service, so only their type is checked.
 */
export function checkFilters(filters: unknown, supportedTypes: readonly string[]): Record<string, string | undefined> {
  if (filters === undefined || filters === null) return {};
  if (typeof filters !== "object" || Array.isArray(filters))
    throw new InvalidArgumentError("filters", "filters must be an object");
  const given = filters as Record<string, unknown>;
  const out: Record<string, string | undefined> = {};
  for (const key of ["dataType", "dataTypeCategory", "platformType", "supportedType", "name"]) {
    const value = given[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" || value.trim() === "" || value.length > 200) {
      throw new InvalidArgumentError(key, `${key} must be a non-empty string, got ${show(value)}`);
    }
    if (key === "supportedType" && !supportedTypes.includes(value)) {
      throw new InvalidArgumentError(
        key,
        `supportedType must be one of ${supportedTypes.join(", ")}, got ${show(value)}`,
      );
    }
    out[key] = value;
  }
  return out;
}

/**
 * localhost, 127.0.0.0/8 and ::1 only: a name under .localhost resolves through whatever DNS
 * or hosts file the machine has, so it proves nothing about where the traffic goes.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(host);
  return false;
}

export interface ParsedBaseUrl {
  /** "https://host:port" for the pool. */
  origin: string;
  /** Path prefix before every route ("" or "/prefix", no trailing slash). */
  basePath: string;
  /** origin + basePath: the registry key of pools and limiters. */
  normalized: string;
}

/** Accepts https, and http only to a loopback host; refuses credentials, query and fragment. */
export function parseBaseUrl(baseUrl: string): ParsedBaseUrl {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidArgumentError("baseUrl", `baseUrl must be an absolute URL, got ${show(baseUrl)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidArgumentError("baseUrl", `baseUrl must use https://, got ${url.protocol}//`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new InvalidArgumentError(
      "baseUrl",
      `refusing plain http:// to ${url.hostname}: credentials and tokens would travel in clear. ` +
        `Use https://, or http:// only to a loopback host (localhost, 127.0.0.0/8, ::1).`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new InvalidArgumentError("baseUrl", "baseUrl must not contain credentials; pass clientId and clientSecret");
  }
  if (url.search !== "" || url.hash !== "") {
    throw new InvalidArgumentError("baseUrl", "baseUrl must not contain a query or a fragment");
  }
  const basePath = url.pathname.replace(/\/+$/, "");
  return { origin: url.origin, basePath, normalized: `${url.origin}${basePath}` };
}

/** The leading path segments every route shares ("/es/v2"), or "" when they share none. */
function commonPrefix(routePaths: readonly string[]): string {
  const split = routePaths.map((p) => p.split("/").filter((segment) => segment !== ""));
  const shared: string[] = [];
  for (const segment of split[0] ?? []) {
    if (segment.startsWith("{") || !split.every((s) => s[shared.length] === segment)) break;
    shared.push(segment);
  }
  return shared.length > 0 && split.every((s) => s.length > shared.length) ? `/${shared.join("/")}` : "";
}

/**
 * Refuses a baseUrl whose path ends with the prefix every route already starts with
 * (https://host/es/v2 with routes /es/v2/…): its requests would go to /es/v2/es/v2/… and come
 * back 404 on every call. Said before the first request, with the baseUrl to use instead.
 */
export function checkBasePath(url: ParsedBaseUrl, routePaths: readonly string[]): ParsedBaseUrl {
  const prefix = commonPrefix(routePaths);
  if (prefix === "" || !`${url.basePath}/`.endsWith(`${prefix}/`)) return url;
  const fixed = `${url.origin}${url.basePath.slice(0, -prefix.length)}`;
  throw new InvalidArgumentError(
    "baseUrl",
    `baseUrl ${url.normalized} ends with ${prefix}, which every route of the service already starts with ` +
      `(requests would go to ${url.basePath}${prefix}/…): set embedded:baseUrl (EMBEDDED_BASE_URL) to ${fixed}`,
  );
}
