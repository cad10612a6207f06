// Everything a route or plugin needs, built once per app (ServiceContext), the app's
// type, and the per-route settings and per-request state the plugins read and write.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Admin } from "./domain/admin";
import type { Auth } from "./domain/auth";
import type { Connectors } from "./domain/connectors";
import type { FaultInjector } from "./faults";
import type { RateLimiter } from "./token-bucket";
import type { StatsRecorder } from "./stats";
import type { Repository } from "./storage/repository";

export interface ServiceContext {
  repo: Repository;
  auth: Auth;
  connectors: Connectors;
  admin: Admin;
  faults: FaultInjector;
  stats: StatsRecorder;
  limiter: RateLimiter;
  adminKey?: string;
  now: () => number;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Per-route settings read by the plugins (service/plugins/). */
declare module "fastify" {
  interface FastifyContextConfig {
    /** "bearer": a token is required; "admin": the x-admin-key; absent: open (token endpoint, OpenAPI). */
    auth?: "bearer" | "admin";
    /** The route takes accountId and must pass the sub-account guard. */
    accountScoped?: boolean;
    /** Where the route takes the sub-account (a profile's route); absent: the query's accountId. */
    accountIdAt?: { in: "path" | "query"; name: string };
  }
  interface FastifyRequest {
    /** Set by the auth plugin from the bearer token: the customer's position and client id. */
    customerPosition?: number;
    clientId?: string;
    faultOutcome?: "dropAfterCommit" | "reset" | "dropped";
    /** A quoteBack fault's refusal, answered once the body is read (plugins/faults.ts). */
    quoteBack?: { status: number; inBody: boolean };
  }
}
