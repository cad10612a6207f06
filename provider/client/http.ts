// Request execution: one request, one answer (or a NetworkError), with the body read
// under a size cap and decoded as JSON. Retries, tokens and limits live in client.ts.
import { randomUUID } from "node:crypto";
import type { Dispatcher, Pool as UndiciPool } from "undici";
import { Pool, request as undiciRequest } from "./undici-parts";
import { errorFromResponse, NetworkError, notFoundAt, ResponseFormatError, type SentRequest } from "./errors";
import type { HttpMethod } from "./routes";
import { parseRetryAfterMs } from "./retry";

export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface OutgoingRequest {
  method: HttpMethod;
  /** Path and query, relative to the origin. */
  target: string;
  headers: Record<string, string>;
  /** Already serialized JSON. */
  body?: string;
  /** Route label for errors. */
  route: string;
  /** Sent as x-request-id; quoted when the service does not answer with its own. */
  requestId: string;
}

export interface IncomingResponse {
  status: number;
  requestId: string;
  contentType: string | undefined;
  retryAfter: string | undefined;
  body: Buffer;
}

/** Sends one request. Implementations throw NetworkError (or ResponseFormatError for an oversized body). */
export interface Transport {
  send(request: OutgoingRequest): Promise<IncomingResponse>;
}

export interface PoolOptions {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** PEM of a private CA, added to the TLS trust for this pool only. */
  caCertificate?: string;
}

/** One long-lived keep-alive pool per origin (index.ts shares it per process). */
export function createPool(origin: string, options: PoolOptions): UndiciPool {
  return new Pool(origin, {
    connect: {
      timeout: options.connectMs,
      ...(options.caCertificate ? { ca: options.caCertificate } : {}),
    },
    headersTimeout: options.headersMs,
    bodyTimeout: options.bodyMs,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
  });
}

export function newRequestId(): string {
  return randomUUID();
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

// Failures of TLS verification: repeating them cannot help.
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|DEPTH_ZERO/;

function codeOf(error: unknown): string | undefined {
  if (error !== null && typeof error === "object" && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}

export function networkError(error: unknown, request: Pick<OutgoingRequest, "route" | "requestId">): NetworkError {
  const code = codeOf(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new NetworkError({
    route: request.route,
    requestId: request.requestId,
    code,
    retryable: !(code !== undefined && CERTIFICATE_CODES.test(code)),
    detail: code ? `${code}: ${reason}` : reason,
    cause: error,
  });
}

/** Sends requests through an undici dispatcher (a Pool, or a MockPool in tests). */
export class UndiciTransport implements Transport {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly maxResponseBytes: number = MAX_RESPONSE_BYTES,
  ) {}

  async send(request: OutgoingRequest): Promise<IncomingResponse> {
    let answer: Dispatcher.ResponseData;
    try {
      answer = await undiciRequest(this.dispatcher, {
        method: request.method,
        path: request.target,
        headers: { ...request.headers, "x-request-id": request.requestId },
        body: request.body,
      });
    } catch (error) {
      throw networkError(error, request);
    }
    // The service's id, for the client to show only when safe (shownRequestId); this module's own errors show ours.
    const requestId = header(answer.headers, "x-request-id") || request.requestId;
    const declared = Number(header(answer.headers, "content-length"));
    const tooLarge = () =>
      new ResponseFormatError({
        route: request.route,
        requestId: request.requestId,
        status: answer.statusCode,
        problem: `the body is larger than ${this.maxResponseBytes} bytes`,
      });
    if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
      answer.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += buffer.length;
        if (size > this.maxResponseBytes) {
          answer.body.destroy();
          throw tooLarge();
        }
        chunks.push(buffer);
      }
    } catch (error) {
      if (error instanceof ResponseFormatError) throw error;
      // Cut off mid-body (reset, body timeout): no usable answer.
      throw networkError(error, request);
    }
    return {
      status: answer.statusCode,
      requestId,
      contentType: header(answer.headers, "content-type"),
      retryAfter: header(answer.headers, "retry-after"),
      body: Buffer.concat(chunks),
    };
  }
}

export interface DecodeContext {
  /** The call's request (service-text.ts sentRequestOf): what an error of this answer may show. */
  sent: SentRequest;
  now: number;
  /** A 2xx with no body is a success that says nothing (Add, Configure, Remove): undefined, not a refusal. */
  emptyOk?: boolean;
  /** The request's path and query: a 404 shows its path (errors.ts notFoundAt). */
  target?: string;
}

function isJsonType(contentType: string | undefined): boolean {
  return contentType === undefined || /[/+]json\b/i.test(contentType);
}

// The service's headers are its text too: shown only in a strict form, and unchanged by the
// call's scrub (a credential or a value sent, quoted back, fails it).
const SERVICE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// After a request that carried secrets, only an id that cannot be a quoted value (a UUID, hex digits).
const OPAQUE_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64})$/i;
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}$/;

function scrubLeaves(text: string, sent: SentRequest): boolean {
  try {
    return sent.scrub(text) === text;
  } catch {
    return false;
  }
}

/** The request id an error shows: the service's when it is safe to print (see above), else our own (`ours`). */
export function shownRequestId(given: string, ours: string, sent: SentRequest): string {
  const safe = SERVICE_ID.test(given) && scrubLeaves(given, sent) && (!sent.carriedSecrets || OPAQUE_ID.test(given));
  return safe ? given : ours;
}

/** An answer's content type as an error shows it: `type/subtype` in a strict form, passing the scrub. */
function shownContentType(contentType: string | undefined, sent: SentRequest): string {
  if (contentType === undefined) return "no content type";
  const type = contentType.split(";")[0].trim();
  return !sent.carriedSecrets && MIME_TYPE.test(type) && scrubLeaves(type, sent) ? type : "an unexpected content type";
}

/**
 * The JSON body of a 2xx answer; for any other status, the typed error of the one factory.
 * The body text itself never goes into a message (it may hold a token).
 */
export function decodeResponse(response: IncomingResponse, route: string, ctx: DecodeContext): unknown {
  const { status, requestId, body } = response;
  let json: unknown;
  let problem: string | undefined;
  if (!isJsonType(response.contentType)) {
    // The content type is the service's text: left out after a request that carried secrets.
    problem = `expected a JSON body, got ${shownContentType(response.contentType, ctx.sent)}`;
  } else if (body.length === 0) {
    problem = "the body is empty";
  } else {
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      problem = `the body is not valid JSON (${body.length} bytes; truncated or malformed)`;
    }
  }
  if (status < 200 || status > 299) {
    const error = errorFromResponse({
      status,
      body: json,
      requestId,
      route,
      retryAfterMs: parseRetryAfterMs(response.retryAfter, ctx.now),
      sent: ctx.sent,
    });
    throw ctx.target === undefined ? error : notFoundAt(error, ctx.target);
  }
  if (ctx.emptyOk && body.length === 0) return undefined;
  // Problems of this module's own making (no key or value of the answer): shown whatever was sent.
  if (problem !== undefined) throw new ResponseFormatError({ route, requestId, status, problem });
  return json;
}
