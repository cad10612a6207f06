// A hostile service. A proxy on loopback in front of the local service that
// rewrites its answers per mode, switched at run time by the test process (setMode), so that one
// engine set-up serves every mode. Beside it, a "trap": another origin that records whatever a
// redirect made a client send it.
import { Buffer } from "node:buffer";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The forms in which a hostile refusal quotes the values it was sent. */
export const QUOTE_FORMS = {
  upper: (v: string) => v.toUpperCase(),
  lower: (v: string) => v.toLowerCase(),
  truncated: (v: string) => v.slice(0, Math.max(12, Math.ceil(v.length * 0.6))),
  base64: (v: string) => Buffer.from(v).toString("base64"),
  urlEncoded: (v: string) => encodeURIComponent(v),
  jsonEscaped: (v: string) => JSON.stringify(v).slice(1, -1),
} as const;

/** A request the proxy saw: its method and path (with the query). */
export type RouteMatch = (method: string, path: string) => boolean;

export type HostileMode =
  | { kind: "pass" }
  /** A 200 whose envelope says 400 and quotes every string the request's body sent, in every form. */
  | { kind: "quote"; on: RouteMatch }
  /** A 307 to the trap's origin (same path). */
  | { kind: "redirect"; on: RouteMatch }
  /** List pages (of the lists `on` matches, default all) cut to `cap` items; the `pageSize` asked for is echoed and the total kept. */
  | { kind: "cappedPages"; cap: number; on?: RouteMatch }
  /** Pages counted from 0: page n of the client's is the service's page n + 1. */
  | { kind: "pagesFromZero" }
  /** Every list answers 200 with a 404 in its envelope. */
  | { kind: "notFoundInList" }
  /** Lists never end: each page holds new items, `padBytes` of padding each, and no total. */
  | { kind: "endlessPages"; padBytes: number }
  /** The request reaches the service; its answer is dropped (the socket destroyed). */
  | { kind: "lostAnswers"; on: RouteMatch };

/** Routes that write (the request has a body or deletes). */
export const WRITES: RouteMatch = (method) => method !== "GET";
/** The token route of any profile. */
export const TOKEN: RouteMatch = (_method, path) => /token/i.test(path);

/** The modes every read must survive (a refresh, a drift check, doctor), named for test titles. */
export const READ_MODES: [string, HostileMode][] = [
  ["a refusal inside a 200 quoting the client secret on the token route", { kind: "quote", on: TOKEN }],
  ["a 307 to another origin on every route", { kind: "redirect", on: () => true }],
  ["capped pages echoing the pageSize asked", { kind: "cappedPages", cap: 1 }],
  ["pages counted from 0", { kind: "pagesFromZero" }],
  ["a 404 inside a 200 on each list", { kind: "notFoundInList" }],
  ["endless pages of 3 MB items", { kind: "endlessPages", padBytes: 3 * 1024 * 1024 }],
];

export interface TrappedRequest {
  method: string;
  path: string;
  body: string;
}

export interface HostileProxy {
  baseUrl: string;
  /** What reached the other origin (a redirect's target). */
  trapped: TrappedRequest[];
  /** Every write that came through (method, path, body), whatever the mode answered. */
  writes: TrappedRequest[];
  /** How many answers each mode rewrote (by mode kind). */
  rewritten: Record<string, number>;
  setMode(mode: HostileMode): void;
  close(): Promise<void>;
}

/** What a test may print of requests: method and path, never a body or a query. */
export function routesOf(requests: readonly TrappedRequest[]): string[] {
  return requests.map((r) => `${r.method} ${r.path.split("?")[0]}`);
}

/** Every string leaf of a JSON body (what a refusal could quote). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

function quoteAll(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = body;
  }
  const quoted = stringsOf(parsed).flatMap((v) => Object.values(QUOTE_FORMS).map((form) => form(v)));
  return `invalid request: the values ${quoted.map((q) => `'${q}'`).join(", ")} are not accepted`;
}

/** The list inside an answer, wherever the shipped wires put it; undefined when it is no list. */
function listIn(body: unknown): { items: unknown[]; holder: Record<string, unknown>; key: string } | undefined {
  if (!body || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["response", "data"]) {
    const inner = record[key];
    if (Array.isArray(inner)) return { items: inner, holder: record, key };
    if (inner && typeof inner === "object" && Array.isArray((inner as Record<string, unknown>).items)) {
      return { items: (inner as { items: unknown[] }).items, holder: inner as Record<string, unknown>, key: "items" };
    }
  }
  return undefined;
}

function refusalBody(status: number, message: string): string {
  return JSON.stringify({ statusCode: status, statusMessage: message, response: null });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The path sent upstream: a service counting pages from 0 (page n of the client's is the
 * service's page n + 1); an endless list always reads the first page (its items are renamed).
 */
function upstreamPathOf(mode: HostileMode, path: string): string {
  if (mode.kind !== "pagesFromZero" && mode.kind !== "endlessPages") return path;
  const url = new URL(path, "http://x");
  const page = url.searchParams.get("page");
  if (page !== null) url.searchParams.set("page", mode.kind === "endlessPages" ? "1" : String(Number(page) + 1));
  if (mode.kind === "endlessPages" && url.searchParams.has("offset")) url.searchParams.set("offset", "0");
  return `${url.pathname}${url.search}`;
}

/** Starts the proxy in front of `upstream` (a base URL), in mode "pass". */
export async function startHostileProxy(upstream: string): Promise<HostileProxy> {
  let mode: HostileMode = { kind: "pass" };
  const trapped: TrappedRequest[] = [];
  const writes: TrappedRequest[] = [];
  const rewritten: Record<string, number> = {};
  let endlessPage = 0;
  const count = () => (rewritten[mode.kind] = (rewritten[mode.kind] ?? 0) + 1);

  const trap = http.createServer((req, res) => {
    void readAll(req).then((body) => {
      trapped.push({ method: req.method ?? "", path: req.url ?? "", body: body.toString() });
      res.writeHead(200, { "content-type": "application/json" }).end(refusalBody(200, "trap"));
    });
  });
  const trapUrl = await listen(trap);

  async function forward(req: http.IncomingMessage, path: string, body: Buffer) {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers.set(k, v);
    }
    const method = req.method ?? "GET";
    const answer = await fetch(`${upstream}${path}`, {
      method,
      headers,
      ...(body.length > 0 ? { body } : {}),
      redirect: "manual",
    });
    return { status: answer.status, type: answer.headers.get("content-type") ?? "", text: await answer.text() };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const body = await readAll(req);
    if (WRITES(method, path) && !TOKEN(method, path)) writes.push({ method, path, body: body.toString() });
    const m = mode;
    const send = (status: number, text: string) =>
      res.writeHead(status, { "content-type": "application/json" }).end(text);
    if (m.kind === "quote" && m.on(method, path) && body.length > 0) {
      count();
      return void send(200, refusalBody(400, quoteAll(body.toString())));
    }
    if (m.kind === "redirect" && m.on(method, path)) {
      count();
      res.writeHead(307, { location: `${trapUrl}${path}` }).end();
      return;
    }
    const upstreamPath = upstreamPathOf(m, path);
    const answer = await forward(req, upstreamPath, body);
    if (m.kind === "lostAnswers" && m.on(method, path)) {
      count();
      res.socket?.destroy();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return void send(answer.status, answer.text);
    }
    const list = method === "GET" && answer.status === 200 ? listIn(parsed) : undefined;
    if (!list) return void send(answer.status, answer.text);
    if (m.kind === "pagesFromZero" && upstreamPath !== path) count();
    if (m.kind === "notFoundInList") {
      count();
      return void send(200, refusalBody(404, "not found"));
    }
    if (m.kind === "cappedPages" && list.items.length > m.cap && (m.on?.(method, path) ?? true)) {
      count();
      list.holder[list.key] = list.items.slice(0, m.cap);
      const asked = new URL(path, "http://x").searchParams;
      const size = Number(asked.get("pageSize") ?? asked.get("size") ?? asked.get("limit"));
      if (Number.isInteger(size) && "pageSize" in list.holder) list.holder.pageSize = size;
      return void send(200, JSON.stringify(parsed));
    }
    if (m.kind === "endlessPages" && list.items.length > 0) {
      count();
      return void send(200, endless(parsed, list, ++endlessPage, m.padBytes));
    }
    send(answer.status, answer.text);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send500(res, err);
    });
  });
  const baseUrl = await listen(server);
  return {
    baseUrl,
    trapped,
    writes,
    rewritten,
    setMode(next) {
      mode = next;
      endlessPage = 0;
    },
    async close() {
      server.closeAllConnections();
      trap.closeAllConnections();
      await Promise.all([server, trap].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

function send500(res: http.ServerResponse, err: unknown): void {
  res.writeHead(502, { "content-type": "application/json" }).end(refusalBody(502, `proxy: ${String(err)}`));
}

/**
 * A page of an endless list: the upstream items with fresh ids (so no page repeats another) and
 * padding, the total removed. Ids keep the length of the service's (16 characters).
 */
function endless(
  parsed: unknown,
  list: { items: unknown[]; holder: Record<string, unknown>; key: string },
  page: number,
  padBytes: number,
): string {
  const pad = "p".repeat(padBytes);
  list.holder[list.key] = list.items.map((item, i) => {
    const fresh = `e${String(page).padStart(9, "0")}${String(i).padStart(6, "0")}`;
    const copy = { ...(item as Record<string, unknown>), connectorId: fresh, padding: pad };
    return copy;
  });
  delete list.holder.total;
  return JSON.stringify(parsed);
}
