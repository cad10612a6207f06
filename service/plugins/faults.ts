// Fault injection (service/faults.ts decides): latency, 500/503, 429, a reset socket, a
// change committed whose answer never leaves, a token expired now, a refusal quoting what was sent. First of the checks on
// a public route: faults model the network and the server, in front of everything else.
import type { FastifyRequest } from "fastify";
import type { Auth } from "../domain/auth";
import { ApiError } from "../domain/errors";
import type { FaultInjector } from "../faults";
import { quoteBackRefusal } from "../quote-back";
import type { StatsRecorder } from "../stats";
import { appPlugin, isAdminRequest, routeKey } from "./plugin";

function destroySocket(request: FastifyRequest): void {
  request.raw.socket?.destroy();
}

export function faults(injector: FaultInjector, stats: StatsRecorder, auth: Auth) {
  return appPlugin("faults", (app) => {
    app.addHook("onRequest", async (request, reply) => {
      if (isAdminRequest(request)) return;
      const key = routeKey(request);
      const fault = injector.decide(key);
      if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      switch (fault.action?.kind) {
        case "error":
          throw new ApiError(
            fault.action.status,
            fault.action.status === 503 ? "service unavailable (injected)" : "internal error (injected)",
          );
        case "rateLimit":
          throw new ApiError(429, "rate limit exceeded (injected)", {
            headers: { "retry-after": String(fault.action.retryAfterSeconds) },
          });
        case "reset":
          // Hijacked: no later hook, handler or answer runs for this request.
          request.faultOutcome = "reset";
          stats.record(key, "reset");
          reply.hijack();
          destroySocket(request);
          return;
        case "commitThenDrop":
          request.faultOutcome = "dropAfterCommit";
          return;
        case "expireToken":
          // The auth plugin then refuses it as expired, like every later use of it.
          if (request.routeOptions.config.auth === "bearer") auth.expireNow(request.headers.authorization);
          return;
        case "quoteBack":
          request.quoteBack = { status: fault.action.status, inBody: fault.action.inBody };
          return;
      }
    });

    // "quote back": refused once the body is read, quoting its values (quote-back.ts).
    app.addHook("preHandler", async (request) => {
      if (!request.quoteBack) return;
      const { message, errors } = quoteBackRefusal(request.body);
      throw new ApiError(request.quoteBack.status, message, { errors });
    });

    // "commit then drop": the handler has run (and committed); the answer never leaves.
    app.addHook("onSend", async (request, reply, payload) => {
      // The refusal inside a 200, its status in the body (the hosted service's convention).
      if (request.quoteBack?.inBody && reply.statusCode >= 400) reply.code(200);
      if (request.faultOutcome === "dropAfterCommit") {
        request.faultOutcome = "dropped";
        stats.record(routeKey(request), "dropped");
        destroySocket(request);
      }
      return payload;
    });
  });
}
