// A route of the contract's table (contract/routes.ts) as fastify registers it: the method,
// the path in fastify's form (`{connectorId}` → `:connectorId`) and the OpenAPI summary.
import { fastifyPath, ROUTES, type OperationName } from "../../contract/routes";

export function contractRoute<K extends OperationName>(operation: K) {
  const route = ROUTES[operation];
  return { method: route.method, url: fastifyPath(operation), summary: route.title };
}
