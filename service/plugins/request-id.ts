// x-request-id: a caller's well-formed id is reused (both sides log the same id), else a
// fresh UUID; every answer carries it, errors and 404s included.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { appPlugin } from "./plugin";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** fastify's genReqId: reuses a caller's well-formed x-request-id. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

export const requestId = appPlugin("request-id", (app) => {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("x-request-id", request.id);
    return payload;
  });
});
