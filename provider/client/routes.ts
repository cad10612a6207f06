// The request target of an operation. The routes themselves are the contract's ONE table
// (contract/routes.ts, docs: docs/service-contract.md, "Routes").
import { PATH_PARAMETER, ROUTES, routeLabel, type OperationName, type RouteDefinition } from "../../contract/routes";

export { ROUTES, routeLabel, type HttpMethod, type OperationName, type RouteDefinition } from "../../contract/routes";

export type QueryValue = string | number | undefined;

/**
 * The request target: base path + route path with its placeholders filled (each value
 * percent-encoded) + the query string (undefined values left out, order kept).
 */
export function buildTarget(
  operation: OperationName,
  basePath: string,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  const route: RouteDefinition = ROUTES[operation];
  const path = route.path.replace(PATH_PARAMETER, (_match, name: string) => {
    const value = params[name];
    // A missing parameter is a bug in this package, never a user error.
    if (value === undefined) throw new Error(`internal: no value for {${name}} of ${routeLabel(operation)}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.append(key, String(value));
  }
  const qs = search.toString();
  return `${basePath}${path}${qs === "" ? "" : `?${qs}`}`;
}
