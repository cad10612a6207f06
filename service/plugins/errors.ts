// The error handler: every refusal and failure as the contract's envelope, with
// x-request-id. Domain refusals (ApiError) keep their status, message and headers;
// validation errors name each field; a 500 says nothing of its cause.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { ApiError } from "../domain/errors";
import type { Strict } from "../../contract/views";
import { errorEnvelope } from "../envelope";
import { appPlugin } from "./plugin";

function validationErrors(error: FastifyError): Strict<"FieldError">[] {
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
      errorEnvelope(error.statusCode, error.message, {
        errors: error.extra.errors,
        response: error.extra.response ?? null,
      }),
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = validationErrors(error);
    const first = errors[0];
    return reply.code(400).send(
      errorEnvelope(400, `invalid request: ${first ? `${first.field}: ${first.message}` : error.message}`, {
        errors,
      }),
    );
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
  const status =
    typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, "unhandled error");
  return reply.code(status).send(errorEnvelope(status, status === 500 ? "internal error" : error.message));
}

export const errors = appPlugin("errors", (app) => {
  app.setErrorHandler(async (error: FastifyError, request, reply) => sendError(error, request, reply));
});
