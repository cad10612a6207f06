// What the plugins share: how one is declared, and how they name a request.
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";

/**
 * A plugin whose hooks and handlers apply to the whole app, as fastify-plugin makes them
 * (without depending on it): fastify does not encapsulate a function marked skip-override.
 * Plugins run in the order they are registered, before the routes that follow them.
 */
export function appPlugin(name: string, install: (app: FastifyInstance) => void): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => install(app);
  return Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: name });
}

/** "METHOD /pattern" as registered (the key of stats and fault rules); "<unmatched>" for no route. */
export function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? "<unmatched>"}`;
}

/** An /_admin/* URL or the web page's /ui (matched or not): neither is the service contract's. */
export const isAdminUrl = (request: FastifyRequest): boolean => {
  const url = request.routeOptions.url ?? request.url.split("?")[0];
  return url.startsWith("/_admin") || url === "/ui" || url.startsWith("/ui/");
};

/** The admin API and the web page: checked by the admin key alone; no stats, faults, token or rate limit. */
export const isAdminRequest = (request: FastifyRequest): boolean =>
  request.routeOptions.config.auth === "admin" || isAdminUrl(request);

/** The path of a request without its query, for messages. */
export const pathOf = (request: FastifyRequest): string => request.url.split("?")[0];
