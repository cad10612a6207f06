// A raw client of one service profile's wire, for `doctor` (and the tests' out-of-band calls
// under a profile): it builds each request from the profile (method, path with `{accountId}` and
// `{connectorId}`, the query under the profile's names, the body under its field names) and
// returns the answer as it came — status, latency, headers, parsed body — without judging it.
// Every exchange can be handed to a transcript (trace.ts), which redacts it. It follows no
// redirect: a 3xx comes back as it is, with only its target's origin kept, and nothing is sent
// there (a redirect of the token route would otherwise re-send the client secret elsewhere).
// It sends through undici's parts (a Pool and the request API, as the provider does), never
// undici's entry: the plugin's bundle, which also answers `doctor`, carries the parts alone.
import type { Dispatcher } from "undici";
import type { OperationName } from "../../contract/routes";
import { createPool } from "../client/http";
import { checkPathSegment } from "../client/routes";
import { request as undiciRequest } from "../client/undici-parts";
import { SETTINGS } from "../settings/table";
import type { BodyField, RequestParameter, ResolvedOperation, ResolvedProfile } from "../../contract/profile";

export interface WireRequest {
  /** Parameters by their client names (accountId, connectorId, filters): path or query as the profile says. */
  params?: Partial<Record<RequestParameter, string>>;
  /** Raw query parameters under their wire names (paging probes). */
  rawQuery?: Record<string, string | number>;
  /** Body fields by their client names; sent under the profile's names (the token's as they are). */
  body?: Partial<Record<BodyField | "clientId" | "clientSecret", unknown>>;
}

export interface WireAnswer {
  operation: OperationName;
  method: string;
  /** The path as sent (ids in it). */
  path: string;
  query: Record<string, string>;
  status: number;
  latencyMs: number;
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when empty or not JSON. */
  body: unknown;
  /** The body's length in bytes. */
  bodyBytes: number;
  /** A 3xx's target: its origin only (scheme, host, port), never its path or query. */
  redirectOrigin?: string;
}

export interface WireCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  caCertificate?: string;
  /** Each request's time limit, in milliseconds. Default: the timeoutMs setting's (settings/table.ts). */
  timeoutMs?: number;
}

/** Where a 3xx points: the origin of its Location (resolved against the request), or why none. */
function redirectOrigin(location: string | null, url: string): string {
  if (!location) return "(no Location header)";
  try {
    return new URL(location, url).origin;
  } catch {
    return "(a Location that is not a URL)";
  }
}

/** Answer headers as one string each (a repeated header joined, as fetch joins it). */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** A token that can go in an `authorization` header as it is (visible ASCII, no space). */
export const usableToken = (token: unknown): token is string =>
  typeof token === "string" && /^[\x21-\x7e]{1,4096}$/.test(token);

export type Exchange = WireAnswer & { requestHeaders: Record<string, string>; requestBody?: unknown };

/** The request target of an operation under the profile. */
export function target(op: ResolvedOperation, request: WireRequest): { path: string; query: Record<string, string> } {
  const params = request.params ?? {};
  const path = op.path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => {
    const value = params[name as RequestParameter];
    if (value === undefined) throw new Error(`internal: no value for {${name}} of ${op.method} ${op.path}`);
    // The client's own check: `..` or a `/` would make the request climb out of the route.
    checkPathSegment(name, value);
    return encodeURIComponent(value);
  });
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || op.path.includes(`{${name}}`)) continue;
    query[op.query[name as RequestParameter]] = value;
  }
  for (const [name, value] of Object.entries(request.rawQuery ?? {})) query[name] = String(value);
  return { path, query };
}

export class WireClient {
  private token?: string;
  private readonly pool: Dispatcher;
  private readonly timeoutMs: number;

  constructor(
    readonly profile: ResolvedProfile,
    private readonly credentials: WireCredentials,
    private readonly onExchange: (exchange: Exchange) => void = () => undefined,
    /** Told the token once it is known, so that no text doctor writes can hold it. */
    private readonly onToken: (token: string) => void = () => undefined,
  ) {
    this.timeoutMs = credentials.timeoutMs ?? SETTINGS.timeoutMs.default;
    const ms = this.timeoutMs;
    this.pool = createPool(new URL(credentials.baseUrl).origin, {
      connectMs: ms,
      headersMs: ms,
      bodyMs: ms,
      caCertificate: credentials.caCertificate,
    });
  }

  /** Get Access Token; the token is kept for the calls that follow. */
  async getToken(): Promise<WireAnswer> {
    const answer = await this.send("getToken", {
      body: { clientId: this.credentials.clientId, clientSecret: this.credentials.clientSecret },
    });
    const body = answer.body as Record<string, unknown> | undefined;
    const inner = body?.[this.profile.operations.getToken.envelope.payload] as Record<string, unknown> | undefined;
    const token = body?.accessToken ?? inner?.accessToken;
    if (typeof token === "string") this.onToken(token);
    // A token that is not a valid header value is never sent (the error would quote it).
    if (usableToken(token)) this.token = token;
    return answer;
  }

  /** One call of `operation`, with the token fetched first if there is none yet. */
  async call(operation: OperationName, request: WireRequest = {}): Promise<WireAnswer> {
    if (this.token === undefined) await this.getToken();
    return this.send(operation, request);
  }

  private async send(operation: OperationName, request: WireRequest): Promise<WireAnswer> {
    const op = this.profile.operations[operation];
    const { path, query } = target(op, request);
    const qs = new URLSearchParams(query).toString();
    const url = `${this.credentials.baseUrl.replace(/\/+$/, "")}${path}${qs ? `?${qs}` : ""}`;
    let sent: Record<string, unknown> | undefined;
    if (operation === "getToken") sent = request.body as Record<string, unknown>;
    else if (request.body !== undefined) {
      sent = {};
      for (const [name, value] of Object.entries(request.body)) sent[op.fields[name as BodyField] ?? name] = value;
    }
    const headers: Record<string, string> = { accept: "application/json" };
    if (op.authenticated && this.token) headers.authorization = `Bearer ${this.token}`;
    if (sent !== undefined) headers["content-type"] = "application/json";
    const started = performance.now();
    let res: { status: number; headers: Record<string, string>; text: string };
    try {
      // The request API follows no redirect: a 3xx comes back as it is.
      const sentTo = new URL(url);
      const answer = await undiciRequest(this.pool, {
        method: op.method,
        path: sentTo.pathname + sentTo.search,
        headers,
        ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      res = { status: answer.statusCode, headers: flatHeaders(answer.headers), text: await answer.body.text() };
    } catch (error: unknown) {
      // The cause's code or the error's name only: an error's text can quote what was sent.
      const e = error as { name?: string; code?: string; cause?: { code?: string } };
      const timedOut = e.name === "TimeoutError" || /^UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT$/.test(e.code ?? "");
      const why = timedOut ? "timed out" : (e.code ?? e.cause?.code ?? e.name ?? "failed");
      throw new Error(`${op.title} (${op.method} ${op.path}): no answer from ${this.credentials.baseUrl} (${why})`);
    }
    const text = res.text;
    const latencyMs = Math.round(performance.now() - started);
    let body: unknown;
    try {
      body = text === "" ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    const answer: WireAnswer = {
      operation,
      method: op.method,
      path,
      query,
      status: res.status,
      latencyMs,
      headers: res.headers,
      body,
      bodyBytes: Buffer.byteLength(text),
      ...(res.status >= 300 && res.status < 400
        ? { redirectOrigin: redirectOrigin(res.headers.location ?? null, url) }
        : {}),
    };
    this.onExchange({ ...answer, requestHeaders: headers, ...(sent === undefined ? {} : { requestBody: sent }) });
    return answer;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
