// The rate limit of authenticated calls, per client id (the token route limits itself, by
// the client id it asks for): 429 with Retry-After.
import { ApiError } from "../domain/errors";
import type { RateLimiter } from "../token-bucket";
import { appPlugin } from "./plugin";

export function rateLimit(limiter: RateLimiter) {
  return appPlugin("rate-limit", (app) => {
    app.addHook("onRequest", async (request) => {
      if (request.clientId === undefined) return; // not a bearer call
      const retryAfter = limiter.take(request.clientId);
      if (retryAfter > 0) {
        throw new ApiError(429, "rate limit exceeded", { headers: { "retry-after": String(retryAfter) } });
      }
    });
  });
}
