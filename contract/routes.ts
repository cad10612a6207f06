// Every route of the service in ONE table (docs/service-contract.md, "Routes"). The
// client builds its requests from it and the service registers its handlers from it, so a
// path is written once. The specification leaves most paths "not shown": a hosted service
// with other paths is supported by changing this table and nothing else.

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteDefinition {
  /** The specification's name of the operation, for messages (and the OpenAPI summary). */
  readonly title: string;
  readonly method: HttpMethod;
  /** Path relative to the base URL; `{name}` placeholders stand for path parameters. */
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

/** A `{name}` placeholder of a route path (global: use with String.prototype.replace). */
export const PATH_PARAMETER = /\{([A-Za-z]+)\}/g;

/** "GET /es/v2/connectors/{connectorId}": how messages name a route (never with ids or secrets). */
export function routeLabel(operation: OperationName): string {
  const route: RouteDefinition = ROUTES[operation];
  return `${route.method} ${route.path}`;
}

/** The route's path with `{name}` written as fastify's `:name` ("/es/v2/connectors/:connectorId"). */
export function fastifyPath(operation: OperationName): string {
  return ROUTES[operation].path.replace(PATH_PARAMETER, ":$1");
}

/**
 * "GET /es/v2/connectors/:connectorId": the service's key of a route, the method and the path as
 * fastify registers it (its stats count by it, its fault rules name it).
 */
export function routeKey(operation: OperationName): string {
  return `${ROUTES[operation].method} ${fastifyPath(operation)}`;
}
