// Everything a route or hook needs, built once per app.
import type {
  FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Admin } from "./domain/admin";
import type { Auth } from "./domain/auth";
import type { Connectors } from "./domain/connectors";
import type { FaultInjector } from "./faults";
import type { RateLimiter } from "./rate-limit";
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
  RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider
>;

/** Per-route settings read by the global hooks. */
declare module "fastify" {
  interface FastifyContextConfig {
    /** "bearer": a token is required; "admin": the x-admin-key; absent: open (token endpoint, OpenAPI). */
    auth?: "bearer" | "admin";
    /** The route takes accountId and must pass the sub-account guard. */
    accountScoped?: boolean;
  }
  interface FastifyRequest {
    customerPosition?: number;
    faultOutcome?: "dropAfterCommit" | "reset" | "dropped";
  }
}

export const OK = "OK";
export function ok<T>(response: T): { statusCode: 200; statusMessage: string; response: T } {
  return { statusCode: 200, statusMessage: OK, response };
}
