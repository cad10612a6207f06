// POST /es/v2/oauth/client-token: the bare token response of the specification.
import { ApiError } from "../domain/errors";
import { ErrorEnvelopeSchema, TokenBodySchema, TokenResponseSchema } from "../domain/schemas";
import type { App, ServiceContext } from "../context";

export const TOKEN_ROUTE = "/es/v2/oauth/client-token";

export function tokenRoutes(app: App, ctx: ServiceContext): void {
  app.post(
    TOKEN_ROUTE,
    {
      schema: {
        tags: ["auth"],
        summary: "Get Access Token",
        body: TokenBodySchema,
        response: { 200: TokenResponseSchema, "4xx": ErrorEnvelopeSchema, "5xx": ErrorEnvelopeSchema },
      },
    },
    async (request) => {
      // Rate limited by the client id it asks for, like every other call of that client.
      const retryAfter = ctx.limiter.take(request.body.clientId);
      if (retryAfter > 0) {
        throw new ApiError(429, "rate limit exceeded", { headers: { "retry-after": String(retryAfter) } });
      }
      const { accessToken, expiry } = await ctx.auth.issueToken(request.body.clientId, request.body.clientSecret);
      return { accessToken, tokenType: "Bearer" as const, expiry };
    },
  );
}
