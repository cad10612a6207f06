// A raw client of one service profile's wire, for `doctor` (and the tests' out-of-band calls
// under a profile): it builds each request from the profile (method, path with `{accountId}` and
// `{connectorId}`, the query under the profile's names, the body under its field names) and
// returns the answer as it came — status, latency, headers, parsed body — without judging it.
// Every exchange can be handed to a transcript (trace.ts), which redacts it.
import { Agent, fetch, type Dispatcher } from "undici";
import type { OperationName } from "../../contract/routes";
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
}

export interface WireCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  caCertificate?: string;
}

export type Exchange = WireAnswer & { requestHeaders: Record<string, string>; requestBody?: unknown };

/** The request target of an operation under the profile. */
export function target(op: ResolvedOperation, request: WireRequest): { path: string; query: Record<string, string> } {
  const params = request.params ?? {};
  const path = op.path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => {
    const value = params[name as RequestParameter];
    if (value === undefined) throw new Error(`internal: no value for {${name}} of ${op.method} ${op.path}`);
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
  private readonly dispatcher?: Dispatcher;

  constructor(
    readonly profile: ResolvedProfile,
    private readonly credentials: WireCredentials,
    private readonly onExchange: (exchange: Exchange) => void = () => undefined,
  ) {
    if (credentials.caCertificate) this.dispatcher = new Agent({ connect: { ca: credentials.caCertificate } });
  }

  /** Get Access Token; the token is kept for the calls that follow. */
  async getToken(): Promise<WireAnswer> {
    const answer = await this.send("getToken", {
      body: { clientId: this.credentials.clientId, clientSecret: this.credentials.clientSecret },
    });
    const body = answer.body as Record<string, unknown> | undefined;
    const inner = body?.[this.profile.operations.getToken.envelope.payload] as Record<string, unknown> | undefined;
    const token = body?.accessToken ?? inner?.accessToken;
    if (typeof token === "string") this.token = token;
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
    const res = await fetch(url, {
      method: op.method,
      headers,
      ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
    }).catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(
        `${op.title} (${op.method} ${op.path}): no answer from ${this.credentials.baseUrl} (${cause?.code ?? cause?.message ?? String(error)})`,
      );
    });
    const text = await res.text();
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
      headers: Object.fromEntries(res.headers.entries()),
      body,
      bodyBytes: Buffer.byteLength(text),
    };
    this.onExchange({ ...answer, requestHeaders: headers, ...(sent === undefined ? {} : { requestBody: sent }) });
    return answer;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }
}
