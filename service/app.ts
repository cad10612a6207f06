// buildApp: the whole service as a FastifyInstance that never listens (the
// command line in server.ts and the tests decide how it is served).
import fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import fastifySwagger from "@fastify/swagger";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { Admin } from "./domain/admin";
import { Auth, storeCustomers } from "./domain/auth";
import { Connectors } from "./domain/connectors";
import { errorEnvelope } from "./envelope";
import { FaultInjector } from "./faults";
import { DEFAULT_OPTIONS, type BuildAppOptions } from "./options";
import { genReqId, registerPlugins } from "./plugins";
import { RateLimiter } from "./token-bucket";
import { adminRoutes } from "./routes/admin";
import { adminConfigurationRoutes } from "./routes/admin-configurations";
import { connectorRoutes } from "./routes/connectors";
import { profileRoutes } from "./routes/profile-routes";
import { wireErrors } from "./wire/shape";
import { openapiRoutes } from "./routes/openapi";
import { tokenRoutes } from "./routes/token";
import { uiRoutes } from "./routes/ui";
import { catalogueWithExtra } from "./seed/catalogue";
import { seedCustomers, subAccountId } from "./seed/customers";
import { StatsRecorder } from "./stats";
import { serviceProfile } from "./wire/service-profile";
import { Repository } from "./storage/repository";
import type { ServiceContext } from "./context";

export type { BuildAppOptions } from "./options";

export const BODY_LIMIT = 1024 * 1024;

/**
 * Server timeouts (fastify's defaults disable the first two). A request's headers and body
 * must arrive within REQUEST_TIMEOUT_MS (no shorter than Node's 60 s headersTimeout: Node
 * does not enforce a shorter one), so a client that stalls mid-request does not hold a
 * socket; the time a handler takes is not counted. A socket idle for CONNECTION_TIMEOUT_MS is
 * closed: longer than any injected latency (one rule adds at most 60 s + 60 s of jitter), so
 * fault injection never trips it. Idle keep-alive sockets close after fastify's 72 s
 * keepAliveTimeout, which clients learn from the Keep-Alive header and stay below.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
export const CONNECTION_TIMEOUT_MS = 180_000;

export function buildApp(options: Partial<BuildAppOptions> = {}): FastifyInstance {
  const opts: BuildAppOptions = { ...DEFAULT_OPTIONS, ...options };
  if (opts.ui && !opts.adminKey) throw new Error("the web page (ui) needs an admin key: it calls the admin API");
  const now = opts.now ?? Date.now;
  // The data the domain works on comes from the seed, handed over here (domain/ never imports seed/).
  const catalogue = catalogueWithExtra(opts.extraConnectors ?? 0);
  const customers = seedCustomers(opts.firstCustomer, opts.subAccountsPerCustomer);
  const repo = new Repository(opts.db);
  const ctx: ServiceContext = {
    repo,
    auth: new Auth(repo, opts.tokenTtlSeconds, now),
    connectors: new Connectors(repo, now, catalogue, opts.consolePasswords ? "console" : "contract"),
    admin: new Admin(repo, catalogue, subAccountId),
    faults: new FaultInjector(opts.faults),
    stats: new StatsRecorder(),
    limiter: new RateLimiter(opts.rateLimitPerSecond, now),
    adminKey: opts.adminKey || undefined,
    now,
  };

  // Tokens and admin keys never reach the log; bodies are not logged at all.
  const redact = { paths: ["req.headers.authorization", 'req.headers["x-admin-key"]'], censor: "[redacted]" };
  const logger =
    opts.logger === true ? { redact } : typeof opts.logger === "object" ? { redact, ...opts.logger } : false;
  const app = fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    genReqId,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL, a path parameter over the router's length
    // limit) get the contract's envelope and x-request-id too; an overlong id names no
    // connector, so it is a 404 like any unknown id (found by the fuzzer).
    frameworkErrors: (error, request, reply) => {
      const status = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 404 : (error.statusCode ?? 400);
      const message = status === 404 ? "not found: a path parameter is longer than any id" : "malformed request URL";
      const plain: FastifyReply = reply;
      void plain.code(status).header("x-request-id", request.id).send(errorEnvelope(status, message));
    },
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
      const error = Object.assign(new Error("malformed JSON body"), {
        statusCode: 400,
        code: "FST_ERR_CTP_INVALID_JSON_BODY",
      });
      done(error, undefined);
    }
  });

  app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Embedded Connectors Service (local)",
        version: "2.0.0",
        description:
          "The local reference implementation of the Embedded Connectors Service. Every JSON answer except the token is the envelope {statusCode, statusMessage, response}.",
      },
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    },
    transform: jsonSchemaTransform,
  });

  registerPlugins(app, ctx);
  const profile = serviceProfile(opts.profile);
  if (profile) app.register(wireErrors(profile));
  app.register(async (scoped) => {
    const typed = scoped.withTypeProvider<ZodTypeProvider>();
    if (profile) {
      const token = profile.operations.getToken;
      tokenRoutes(typed, ctx, { method: token.method, url: token.path });
      profileRoutes(typed, ctx, profile);
    } else {
      tokenRoutes(typed, ctx);
      connectorRoutes(typed, ctx);
    }
    openapiRoutes(typed);
    if (ctx.adminKey) {
      adminRoutes(typed, ctx);
      adminConfigurationRoutes(typed, ctx);
    }
    if (opts.ui) uiRoutes(typed);
  });

  app.addHook("onReady", async () => {
    await storeCustomers(repo, customers);
  });
  app.addHook("onClose", async () => {
    repo.close();
  });
  return app;
}
