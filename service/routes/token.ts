// Get Access Token at the contract's route: the bare token response of the specification.
import { requests } from "../../contract/requests";
import { strict } from "../../contract/views";
import { ApiError } from "../domain/errors";
import type { App, ServiceContext } from "../context";
import { contractRoute } from "./contract-route";

const { summary, ...route } = contractRoute("getToken");
/** The token route as registered (the stats count its requests). */
export const TOKEN_ROUTE = route.url;

/** At the contract's route, or at a profile's (`at`: its method and path in fastify's form). */
export function tokenRoutes(app: App, ctx: ServiceContext, at: { method: string; url: string } = route): void {
  app.route({
    ...route,
    ...at,
    config: { operation: "getToken" },
    schema: {
      tags: ["auth"],
      summary,
      body: requests.TokenBody,
      response: { 200: strict.AccessToken, "4xx": strict.ErrorEnvelope, "5xx": strict.ErrorEnvelope },
    },
    handler: async (request) => {
      // Rate limited by the client id it asks for, like every other call of that client.
      const retryAfter = ctx.limiter.take(request.body.clientId);
      if (retryAfter > 0) {
        throw new ApiError(429, "rate limit exceeded", { headers: { "retry-after": String(retryAfter) } });
      }
      const { accessToken, expiry } = await ctx.auth.issueToken(request.body.clientId, request.body.clientSecret);
      return { accessToken, tokenType: "Bearer" as const, expiry };
    },
  });
}
