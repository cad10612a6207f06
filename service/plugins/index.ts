// The service's cross-cutting HTTP behaviour, one small plugin each, registered before the
// routes. The order of the onRequest hooks is the order here and matters:
//   request-id   every answer carries x-request-id
//   not-found    an unknown route is a 404 before anything else
//   admin-key    /_admin/* needs x-admin-key; the plugins below skip admin requests
//   stats        token requests counted on arrival (answers are counted once sent)
//   faults       injected faults model the network and the server, so they come first
//   auth         the bearer token (expired by an expireToken fault above)
//   rate-limit   per client id, after authentication
//   sub-account  the accountId guard, last
//   errors       the error handler: every refusal above as the contract's envelope
import type { App, ServiceContext } from "../context";
import { adminKey } from "./admin-key";
import { bearerAuth } from "./auth";
import { errors } from "./errors";
import { faults } from "./faults";
import { notFound } from "./not-found";
import { rateLimit } from "./rate-limit";
import { requestId } from "./request-id";
import { stats } from "./stats";
import { subAccount } from "./sub-account";

export { genReqId } from "./request-id";

export function registerPlugins(app: App, ctx: ServiceContext): void {
  app.register(requestId);
  app.register(notFound);
  app.register(adminKey(ctx.adminKey));
  app.register(stats(ctx.stats));
  app.register(faults(ctx.faults, ctx.stats, ctx.auth));
  app.register(bearerAuth(ctx.auth));
  app.register(rateLimit(ctx.limiter));
  app.register(subAccount(ctx.auth));
  app.register(errors);
}
