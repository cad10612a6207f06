// buildApp: the whole service as a FastifyInstance that never listens (the
// command line in server.ts and the tests decide how it is served).
import fastify, { type FastifyInstance } from "fastify";
import fastifySwagger from "@fastify/swagger";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { Admin } from "./domain/admin";
import { Auth, storeCustomers } from "./domain/auth";
import { Connectors } from "./domain/connectors";
import { FaultInjector } from "./faults";
import { genReqId, installHooks } from "./http";
import { DEFAULT_OPTIONS, type BuildAppOptions } from "./options";
import { RateLimiter } from "./rate-limit";
import { adminRoutes } from "./routes/admin";
import { connectorRoutes } from "./routes/connectors";
import { openapiRoutes } from "./routes/openapi";
import { tokenRoutes } from "./routes/token";
import { seedCustomers } from "./seed/customers";
import { StatsRecorder } from "./stats";
import { Repository } from "./storage/repository";
import type { ServiceContext } from "./context";

export type { BuildAppOptions } from "./options";

export const BODY_LIMIT = 1024 * 1024;

export function buildApp(options: Partial<BuildAppOptions> = {}): FastifyInstance {
  const opts: BuildAppOptions = { ...DEFAULT_OPTIONS, ...options };
  const now = opts.now ?? Date.now;
  const repo = new Repository(opts.db);
  const ctx: ServiceContext = {
    repo,
    auth: new Auth(repo, opts.tokenTtlSeconds, now),
    connectors: new Connectors(repo, now),
    admin: new Admin(repo),
    faults: new FaultInjector(opts.faults),
    stats: new StatsRecorder(),
    limiter: new RateLimiter(opts.rateLimitPerSecond, now),
    adminKey: opts.adminKey || undefined,
    now,
  };

  // Tokens and admin keys never reach the log; bodies are not logged at all.
  const redact = { paths: ["req.headers.authorization", 'req.headers["x-admin-key"]'], censor: "[redacted]" };
  const logger = opts.logger === true ? { redact } : typeof opts.logger === "object" ? { redact, ...opts.logger } : false;
  const app = fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    genReqId,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON only (text/plain → 415); an empty body is "no body", so a DELETE with a content-type still works.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error("malformed JSON body"), { statusCode: 400, code: "FST_ERR_CTP_INVALID_JSON_BODY" });
      done(error, undefined);
    }
  });

  app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Embedded Connectors Service (local)",
        version: "2.0.0",
        description: "The local reference implementation of the Embedded Connectors Service. Every JSON answer except the token is the envelope {statusCode, statusMessage, response}.",
      },
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    },
    transform: jsonSchemaTransform,
  });

  installHooks(app, ctx);
  app.register(async (scoped) => {
    const typed = scoped.withTypeProvider<ZodTypeProvider>();
    tokenRoutes(typed, ctx);
    connectorRoutes(typed, ctx);
    openapiRoutes(typed);
    if (ctx.adminKey) adminRoutes(typed, ctx);
  });

  app.addHook("onReady", async () => {
    await storeCustomers(repo, seedCustomers(opts.firstCustomer));
  });
  app.addHook("onClose", async () => {
    repo.close();
  });
  return app;
}
