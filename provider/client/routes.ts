// Every route of the service in ONE table (docs: shared/spec/service-contract.md, "Routes").
// The specification leaves most paths "not shown": a hosted service with other paths
// is supported by changing this table and nothing else.

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteDefinition {
  /** The specification's name of the operation, for messages. */
  readonly title: string;
  readonly method: HttpMethod;
  /** Path relative to the base URL; `{name}` placeholders are filled from path parameters. */
  readonly path: string;
  /**
   * Whether repeating the call cannot do harm, so that it may be retried after a failure
   * whose outcome is unknown. GET, PUT and DELETE are idempotent; Add is safe because ids
   * that are already added come back in `alreadyAdded` instead of failing.
   */
  readonly retrySafe: boolean;
  /** Whether the call carries the bearer token (all but the token route). */
  readonly authenticated: boolean;
}

export const ROUTES = {
  getToken: {
    title: "Get Access Token",
    method: "POST",
    path: "/es/v2/oauth/client-token",
    retrySafe: true, // issuing a second token changes nothing
    authenticated: false,
  },
  getConnector: {
    title: "Get Connector",
    method: "GET",
    path: "/es/v2/connectors/{connectorId}",
    retrySafe: true,
    authenticated: true,
  },
  listConnectors: {
    title: "List Connectors",
    method: "GET",
    path: "/es/v2/connectors",
    retrySafe: true,
    authenticated: true,
  },
  addConnectors: {
    title: "Add Connector",
    method: "POST",
    path: "/es/v2/connectors",
    retrySafe: true,
    authenticated: true,
  },
  listAddedConnectors: {
    title: "List Added Connectors",
    method: "GET",
    path: "/es/v2/connectors/added",
    retrySafe: true,
    authenticated: true,
  },
  listSupportedConnectors: {
    title: "List Supported Connectors",
    method: "GET",
    path: "/es/v2/connectors/supported",
    retrySafe: true,
    authenticated: true,
  },
  getConfiguration: {
    title: "Get Connector Configuration",
    method: "GET",
    path: "/es/v2/connectors/{connectorId}/configuration",
    retrySafe: true,
    authenticated: true,
  },
  configure: {
    title: "Configure Connector",
    method: "PUT",
    path: "/es/v2/connectors/{connectorId}/configuration",
    retrySafe: true, // PUT replaces the whole secret configuration
    authenticated: true,
  },
  removeConnector: {
    title: "Remove Connector",
    method: "DELETE",
    path: "/es/v2/connectors/{connectorId}",
    retrySafe: true,
    authenticated: true,
  },
} as const satisfies Record<string, RouteDefinition>;

export type OperationName = keyof typeof ROUTES;

export type QueryValue = string | number | undefined;

/** "GET /es/v2/connectors/{connectorId}": how errors name a route (never with ids or secrets). */
export function routeLabel(operation: OperationName): string {
  const route: RouteDefinition = ROUTES[operation];
  return `${route.method} ${route.path}`;
}

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
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_match, name: string) => {
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
