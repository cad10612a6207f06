// Cross-cutting HTTP behaviour: request ids, admin key, fault injection,
// bearer auth, rate limiting, the sub-account guard, stats, and the error
// envelope. Order in onRequest: faults first (they model the network and
// the server), then authentication, then the rate limit, then accountId.
import { randomUUID, createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { ApiError } from "./domain/errors";
import type { ErrorEnvelope, FieldError } from "./domain/schemas";
import type { App, ServiceContext } from "./context";
import { TOKEN_ROUTE } from "./routes/token";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's well-formed x-request-id so both sides log the same id. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? "<unmatched>"}`;
}

const isAdminUrl = (request: FastifyRequest) => (request.routeOptions.url ?? request.url).startsWith("/_admin");
const digest = (s: string) => createHash("sha256").update(s).digest();

function destroySocket(request: FastifyRequest): void {
  request.raw.socket?.destroy();
}

export function installHooks(app: App, ctx: ServiceContext): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    const cfg = request.routeOptions.config;
    const matched = request.routeOptions.url !== undefined;
    // Found by the fuzzer (issue 7): an unknown route with a body method (QUERY) answered 400
    // "must provide a Content-Type" before reaching the not-found handler. The contract says 404.
    if (!matched) throw new ApiError(404, `route not found: ${request.method} ${request.url.split("?")[0]}`);
    if (cfg.auth === "admin") {
      const given = request.headers["x-admin-key"];
      const valid = typeof given === "string" && ctx.adminKey !== undefined &&
        timingSafeEqual(digest(given), digest(ctx.adminKey));
      if (!valid) throw new ApiError(401, "missing or wrong x-admin-key");
      return;
    }
    if (!matched || isAdminUrl(request)) return;
    const key = routeKey(request);
    if (request.routeOptions.url === TOKEN_ROUTE && request.method === "POST") ctx.stats.countTokenRequest();

    const fault = ctx.faults.decide(key);
    if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    switch (fault.action?.kind) {
      case "error":
        throw new ApiError(fault.action.status, fault.action.status === 503 ? "service unavailable (injected)" : "internal error (injected)");
      case "rateLimit":
        throw new ApiError(429, "rate limit exceeded (injected)", {
          headers: { "retry-after": String(fault.action.retryAfterSeconds) },
        });
      case "reset":
        request.faultOutcome = "reset";
        ctx.stats.record(key, "reset");
        reply.hijack();
        destroySocket(request);
        return;
      case "commitThenDrop":
        request.faultOutcome = "dropAfterCommit";
        break;
      case "expireToken":
        // The check below then refuses it as expired, like every later use of it.
        if (cfg.auth === "bearer") ctx.auth.expireNow(request.headers.authorization);
        break;
    }

    if (cfg.auth !== "bearer") return;
    const { position, clientId } = ctx.auth.verify(request.headers.authorization);
    request.customerPosition = position;
    const retryAfter = ctx.limiter.take(clientId);
    if (retryAfter > 0) {
      throw new ApiError(429, "rate limit exceeded", { headers: { "retry-after": String(retryAfter) } });
    }
    if (cfg.accountScoped) {
      const accountId = (request.query as Record<string, unknown>).accountId;
      ctx.auth.checkAccount(position, typeof accountId === "string" ? accountId : undefined);
    }
  });

  // "commit then drop": the handler has run (and committed); the answer never leaves.
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("x-request-id", request.id);
    if (request.faultOutcome === "dropAfterCommit") {
      request.faultOutcome = "dropped";
      ctx.stats.record(routeKey(request), "dropped");
      destroySocket(request);
    }
    return payload;
  });

  app.addHook("onResponse", async (request, reply) => {
    if (request.faultOutcome || isAdminUrl(request)) return;
    ctx.stats.record(routeKey(request), String(reply.statusCode));
  });

  app.setNotFoundHandler(async (request, reply) => {
    reply.header("x-request-id", request.id);
    return reply.code(404).send(errorEnvelope(404, `route not found: ${request.method} ${request.url.split("?")[0]}`));
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => sendError(error, request, reply));
}

export function errorEnvelope(status: number, message: string, extra: Partial<ErrorEnvelope> = {}): ErrorEnvelope {
  return { statusCode: status, statusMessage: message, response: extra.response ?? null, ...(extra.errors ? { errors: extra.errors } : {}) };
}

function validationErrors(error: FastifyError): FieldError[] {
  const context = error.validationContext ?? "request";
  return (error.validation ?? []).map((v) => {
    const path = v.instancePath.split("/").filter(Boolean).join(".");
    return { field: path || context, message: v.message ?? "invalid" };
  });
}

async function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header("x-request-id", request.id);
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
    return reply.code(error.statusCode).send(
      errorEnvelope(error.statusCode, error.message, { errors: error.extra.errors, response: error.extra.response ?? null }),
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = validationErrors(error);
    const first = errors[0];
    return reply.code(400).send(errorEnvelope(400, `invalid request: ${first ? `${first.field}: ${first.message}` : error.message}`, { errors }));
  }
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return reply.code(415).send(errorEnvelope(415, "request body must be application/json"));
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return reply.code(413).send(errorEnvelope(413, "request body is larger than 1 MiB"));
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return reply.code(400).send(errorEnvelope(400, "malformed JSON body"));
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error.cause }, "response does not match its schema");
    return reply.code(500).send(errorEnvelope(500, "internal error"));
  }
  const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, "unhandled error");
  return reply.code(status).send(errorEnvelope(status, status === 500 ? "internal error" : error.message));
}
