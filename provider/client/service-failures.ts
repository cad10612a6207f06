// What a service failure carries into the provider's messages: its request id, its HTTP
// status and, for a refused Remove, the connection counts. Read by shape, not instanceof, so
// that two copies of the client module (installed package, relative import) agree. And
// which failures are bugs rather than refusals (both hosts, and the lookups' refusal.ts).

/** The request id of a service error, if the error carries one. */
export function requestIdOf(error: unknown): string | undefined {
  if (error !== null && typeof error === "object" && "requestId" in error) {
    const id = (error as { requestId?: unknown }).requestId;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

/** The message, plus " (request id X)" when the error carries one the message does not quote yet. */
export function withRequestId(message: string, error: unknown): string {
  const id = requestIdOf(error);
  return id && !message.includes(id) ? `${message} (request id ${id})` : message;
}

/** Wraps a service failure with what we were doing; keeps the request id, never secrets. */
export function failure(context: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(withRequestId(`${context}: ${message}`, error), { cause: error });
}

/**
 * HTTP status of a service error (404, 409, …), if any; avoids instanceof across module copies.
 * An answer that breaks the contract (kind "response_format": a list route's 404, a page that
 * repeats) has none here: its status says nothing of the item, and a 404 of it must never read
 * as "gone" (docs/service-contract.md, "the evidence of absence").
 */
export function statusOf(error: unknown): number | undefined {
  if (error !== null && typeof error === "object" && (error as { kind?: unknown }).kind === "response_format")
    return undefined;
  if (error !== null && typeof error === "object" && "status" in error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") return status;
  }
  return undefined;
}

/** A numeric property of an error (ConflictError's connection counts), if present. */
export function countOf(error: unknown, field: "srcConnections" | "destConnections"): number | undefined {
  if (error !== null && typeof error === "object" && field in error) {
    const value = (error as Record<string, unknown>)[field];
    if (typeof value === "number") return value;
  }
  return undefined;
}

/** The JavaScript engine's own errors: a bug, whose stack is worth keeping. */
export function isProgrammingError(error: Error): boolean {
  return (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof RangeError ||
    error instanceof SyntaxError ||
    error instanceof EvalError ||
    error instanceof URIError
  );
}
