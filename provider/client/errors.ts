// Typed errors of the client and the ONE factory that maps an HTTP answer to them.
// Every message names the route and quotes `request id <id>` so that a user can hand
// it to the service operator; no message ever contains a credential, a token, or a value
// the request sent (the service may quote those back: they are redacted here, at the source).
import { isRecord, serviceTextOf, SHAPE_WITHHELD, type FieldError, type SentRequest } from "./service-text";

export { redact, redactSentValues, sentValuesOf } from "./redaction";
export { NOTHING_SENT, sentRequestOf, type SentRequest } from "./service-text";

export type ErrorKind =
  | "authentication"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation"
  | "rate_limit"
  | "server"
  | "network"
  | "response_format"
  | "http";

export type { FieldError } from "./service-text";

export interface ApiErrorInit {
  /** HTTP status; 0 when no answer came. */
  status: number;
  statusMessage: string;
  requestId: string;
  /** "METHOD /path/{template}" (see routes.ts). */
  route: string;
  /** Extra text for the message (already free of secrets). */
  detail?: string;
  cause?: unknown;
}

/** Base of every error that comes from a call to the service (or its absence). */
export class EmbeddedApiError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly statusMessage: string;
  readonly requestId: string;
  readonly retryable: boolean;
  readonly route: string;
  /** The extra text of the message (init.detail), for an error made again with more of it. */
  readonly detail: string | undefined;
  /**
   * Set by the client when an earlier attempt of the same call got no answer or a 5xx: that
   * attempt may have been applied, whatever this final error says.
   */
  earlierAttemptUnanswered = false;

  constructor(kind: ErrorKind, retryable: boolean, init: ApiErrorInit) {
    const status = init.status > 0 ? `${init.status} ` : "";
    const detail = init.detail ? `: ${init.detail}` : "";
    super(`${init.route}: ${status}${init.statusMessage}${detail} (request id ${init.requestId})`, {
      cause: init.cause,
    });
    this.name = new.target.name;
    this.kind = kind;
    this.status = init.status;
    this.statusMessage = init.statusMessage;
    this.requestId = init.requestId;
    this.retryable = retryable;
    this.route = init.route;
    this.detail = init.detail;
  }
}

/** 401: wrong client credentials, or an unknown or expired token. */
export class AuthenticationError extends EmbeddedApiError {
  constructor(init: ApiErrorInit) {
    super("authentication", false, init);
  }
}

/** 403: a sub-account of another customer. */
export class ForbiddenError extends EmbeddedApiError {
  constructor(init: ApiErrorInit) {
    super("forbidden", false, init);
  }
}

/** 404: unknown connector, connector not added, unknown route. */
export class NotFoundError extends EmbeddedApiError {
  constructor(init: ApiErrorInit) {
    super("not_found", false, init);
  }
}

/** 409: the connector is used in connections; the counts say how many. */
export class ConflictError extends EmbeddedApiError {
  readonly srcConnections: number | undefined;
  readonly destConnections: number | undefined;

  constructor(init: ApiErrorInit & { srcConnections?: number; destConnections?: number }) {
    super("conflict", false, init);
    this.srcConnections = init.srcConnections;
    this.destConnections = init.destConnections;
  }
}

/** 400: the request was refused; `fieldErrors` has one entry per offending field. */
export class ValidationError extends EmbeddedApiError {
  readonly fieldErrors: FieldError[];

  constructor(init: ApiErrorInit & { fieldErrors?: FieldError[] }) {
    super("validation", false, init);
    this.fieldErrors = init.fieldErrors ?? [];
  }
}

/** 429: over the rate limit; `retryAfterMs` from the Retry-After header when given. */
export class RateLimitError extends EmbeddedApiError {
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit & { retryAfterMs?: number }) {
    super("rate_limit", true, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx: a fault of the service; `retryAfterMs` when it said when to come back (503). */
export class ServerError extends EmbeddedApiError {
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit & { retryAfterMs?: number }) {
    super("server", true, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * No answer: refused or reset connection, connect/headers/body timeout. The request may
 * or may not have been processed. Certificate failures are not retryable: repeating
 * them cannot help.
 */
export class NetworkError extends EmbeddedApiError {
  readonly code: string | undefined;

  constructor(init: Omit<ApiErrorInit, "status" | "statusMessage"> & { code?: string; retryable?: boolean }) {
    super("network", init.retryable ?? true, { ...init, status: 0, statusMessage: "no answer from the service" });
    this.code = init.code;
  }
}

/** An answer that breaks the contract: HTML page, truncated JSON, missing or wrong field, too large. */
export class ResponseFormatError extends EmbeddedApiError {
  /** Where in the body the first problem is ("response.items[0].name"); "" for the whole body. */
  readonly fieldPath: string;

  /**
   * `sent`: the call's request (BodyContext.sent). After one that carried secrets, the problem
   * and the field path (both built from the answer's keys and shape) are left out.
   */
  constructor(init: Omit<ApiErrorInit, "statusMessage"> & { problem: string; fieldPath?: string; sent?: SentRequest }) {
    const withheld = init.sent?.carriedSecrets === true;
    super("response_format", false, {
      ...init,
      statusMessage: `the answer breaks the contract: ${withheld ? SHAPE_WITHHELD : init.problem}`,
    });
    this.fieldPath = withheld ? "" : (init.fieldPath ?? "");
  }
}

/** Refused before any request: a malformed id, a plain-http URL to a remote host, … */
export class InvalidArgumentError extends Error {
  readonly kind = "invalid_argument";
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(message);
    this.name = "InvalidArgumentError";
  }
}

export interface ErrorResponse {
  status: number;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  requestId: string;
  route: string;
  /** Retry-After already converted to milliseconds (see retry.ts parseRetryAfterMs). */
  retryAfterMs?: number;
  /** The call's request, decided once per call (service-text.ts sentRequestOf): what the error may show. */
  sent: SentRequest;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

const joinDetail = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined).join("; ") || undefined;

/**
 * The one mapping of a non-2xx answer to a typed error (the body is read leniently). The
 * class, and so the retry decision, follows from the status alone, whatever the scrubbing does.
 */
export function errorFromResponse(res: ErrorResponse, scrub?: (text: string) => string): EmbeddedApiError {
  const body = isRecord(res.body) ? res.body : {};
  // Everything of the answer that reaches a message goes through this.
  const { statusMessage, fieldErrors, withheld } = serviceTextOf(res.status, body, scrub ?? res.sent.scrub, res.sent);
  const init: ApiErrorInit = {
    status: res.status,
    statusMessage,
    requestId: res.requestId,
    route: res.route,
    detail: withheld,
  };
  switch (res.status) {
    case 400: {
      // Field names only: server messages may quote values.
      const fields = fieldErrors.length > 0 ? `fields ${fieldErrors.map((e) => e.field).join(", ")}` : undefined;
      return new ValidationError({ ...init, detail: joinDetail(fields, withheld), fieldErrors });
    }
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 409: {
      const counts = isRecord(body.response) ? body.response : {};
      const srcConnections = count(counts.srcConnections);
      const destConnections = count(counts.destConnections);
      const counted =
        srcConnections !== undefined || destConnections !== undefined
          ? `srcConnections=${srcConnections ?? "?"}, destConnections=${destConnections ?? "?"}`
          : undefined;
      return new ConflictError({ ...init, detail: joinDetail(counted, withheld), srcConnections, destConnections });
    }
    case 429:
      return new RateLimitError({
        ...init,
        retryAfterMs: res.retryAfterMs,
        detail: joinDetail(res.retryAfterMs !== undefined ? `retry after ${res.retryAfterMs} ms` : undefined, withheld),
      });
    default:
      if (res.status >= 500 && res.status <= 599) return new ServerError({ ...init, retryAfterMs: res.retryAfterMs });
      return new EmbeddedApiError("http", false, init);
  }
}

/**
 * Whether the call that failed with `error` may still have been applied by the service: no
 * answer, a 5xx, an answer that breaks the contract (a 2xx), or any error after an attempt
 * of that kind. A 4xx of a call without such an attempt was refused before any change.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  if (!(error instanceof EmbeddedApiError)) return true;
  if (error.earlierAttemptUnanswered) return true;
  return error.status === 0 || error.status >= 500 || (error.status >= 200 && error.status < 300);
}

/** The last answer of a call that waited as long as it may, saying for how long and what to raise. */
export function gaveUpWaiting(
  error: RateLimitError | ServerError,
  elapsedMs: number,
  waits: number,
  timeoutMs: number,
): EmbeddedApiError {
  const detail =
    `the service said to come back later ${waits} time(s); gave up after waiting ${Math.round(elapsedMs / 1000)} s in all. ` +
    `Raise embedded:retryTimeoutMs (EMBEDDED_RETRY_TIMEOUT_MS, now ${timeoutMs} ms), or lower embedded:concurrency`;
  const init = {
    status: error.status,
    statusMessage: error.statusMessage,
    requestId: error.requestId,
    route: error.route,
    detail,
    cause: error,
    retryAfterMs: error.retryAfterMs,
  };
  return error instanceof RateLimitError ? new RateLimitError(init) : new ServerError(init);
}

/**
 * A transient fault (5xx, no answer) that persisted: its message says how often the call was
 * tried and which setting changes that, before the request id. Other errors are returned as
 * they are (a final error was not retried for its own reason).
 */
export function gaveUpRetrying(error: unknown, attempts: number, maxRetries: number, reason: string): unknown {
  if (!(error instanceof EmbeddedApiError) || !error.retryable) return error;
  const budget = /retry budget/.test(reason) ? ` (${reason})` : "";
  const note =
    `; tried ${attempts} time${attempts === 1 ? "" : "s"}${budget}: embedded:maxRetries ` +
    `(EMBEDDED_MAX_RETRIES, now ${maxRetries}) sets how many retries follow the first attempt`;
  error.message = error.message.replace(/ \(request id ([^)]*)\)$/, (whole) => `${note}${whole}`);
  return error;
}

/**
 * A 404 made again with the path actually requested (base path and ids included, never the
 * query, which carries values): a baseUrl with a wrong path shows there, not in the route's template.
 */
export function notFoundAt(error: EmbeddedApiError, target: string): EmbeddedApiError {
  if (!(error instanceof NotFoundError)) return error;
  const requested = `requested ${target.split("?")[0]}`;
  const { status, statusMessage, requestId, route } = error;
  return new NotFoundError({
    status,
    statusMessage,
    requestId,
    route,
    detail: joinDetail(error.detail, requested),
    cause: error,
  });
}
