// Unknown routes: 404 in the contract's envelope, before anything else looks at the request.
import { ApiError } from "../domain/errors";
import { errorEnvelope } from "../envelope";
import { appPlugin, pathOf } from "./plugin";

export const notFound = appPlugin("not-found", (app) => {
  // Found by the fuzzer: an unknown route with a body method (QUERY) answered 400
  // "must provide a Content-Type" before reaching the not-found handler. The contract says 404.
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.url === undefined)
      throw new ApiError(404, `route not found: ${request.method} ${pathOf(request)}`);
  });
  app.setNotFoundHandler(async (request, reply) => {
    reply.header("x-request-id", request.id);
    return reply.code(404).send(errorEnvelope(404, `route not found: ${request.method} ${pathOf(request)}`));
  });
});
