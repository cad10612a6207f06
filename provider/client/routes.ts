// The request target of an operation, as the service profile lays it out (contract/profile.ts;
// the default profile is the contract's ONE route table, contract/routes.ts).
import { DEFAULT_PROFILE, type RequestParameter, type ResolvedOperation } from "../../contract/profile";
import { PATH_PARAMETER, type OperationName } from "../../contract/routes";
import { InvalidArgumentError } from "./errors";

export { ROUTES, routeLabel, type HttpMethod, type OperationName, type RouteDefinition } from "../../contract/routes";

export type QueryValue = string | number | undefined;

/** What a path segment may not be or hold, whatever the encoding: it could climb or leave the route. */
const UNSAFE_SEGMENT = /^\.{1,2}$|[/\\?#]|%2e/i;

/**
 * A value that goes into the path must stay one segment of it: `.` and `..` (and an encoded dot,
 * which a server may decode into one) would climb out of the route, `/`, `\`, `?` and `#` end it.
 * Refused before anything is sent, whatever template the profile gives.
 */
export function checkPathSegment(argument: string, value: string): void {
  if (!UNSAFE_SEGMENT.test(value)) return;
  throw new InvalidArgumentError(
    argument,
    `${argument} goes into the request path and must not be "." or "..", nor hold "/", "\\", "?", "#" or an ` +
      `encoded dot ("%2e"); got a value that does (${value.length} characters)`,
  );
}

/**
 * The request target: base path + the profile's path with its placeholders filled (each value
 * percent-encoded) + the query string. A parameter the path names goes in the path, any other
 * in the query under the profile's name for it; `raw` entries (paging) go as they are.
 * Undefined values are left out, order kept.
 */
export function targetOf(
  op: ResolvedOperation,
  basePath: string,
  parameters: Readonly<Partial<Record<RequestParameter, QueryValue>>> = {},
  raw: Readonly<Record<string, QueryValue>> = {},
): string {
  const inPath = new Set<string>();
  const path = op.path.replace(PATH_PARAMETER, (_match, name: string) => {
    const value = parameters[name as RequestParameter];
    // A missing parameter is a bug in this package, never a user error.
    if (value === undefined) throw new Error(`internal: no value for {${name}} of ${op.method} ${op.path}`);
    checkPathSegment(name, String(value));
    inPath.add(name);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && !inPath.has(name)) search.append(op.query[name as RequestParameter], String(value));
  }
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) search.append(key, String(value));
  }
  const qs = search.toString();
  return `${basePath}${path}${qs === "" ? "" : `?${qs}`}`;
}

/** The target of an operation of the default profile (params by placeholder, query by wire name). */
export function buildTarget(
  operation: OperationName,
  basePath: string,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  return targetOf(DEFAULT_PROFILE.operations[operation], basePath, params, query);
}
