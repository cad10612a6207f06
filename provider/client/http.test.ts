// The transport and the decoding of answers: undici's MockPool for exact answers,
// tiny node:http/https servers for what a mock cannot do (streamed bodies, TLS).
// The TLS fixtures were made with openssl: a CA (key discarded) and a 127.0.0.1 certificate.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { MockAgent } from "undici";
import {
  NOTHING_SENT,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  UndiciTransport,
  createPool,
  decodeResponse,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import { routeLabel } from "../../contract/routes";

const fixtures = join(__dirname, "../../../test/support/fixtures/client");
const route = routeLabel("listConnectors");
const request = (target = "/es/v2/connectors?accountId=a"): OutgoingRequest => ({
  method: "GET",
  target,
  headers: { accept: "application/json" },
  route,
  requestId: "client-generated-id",
});
const ctx = { sent: NOTHING_SENT, now: Date.now() };
const raw = (status: number, body: string, contentType: string | undefined = "application/json"): IncomingResponse => ({
  status,
  requestId: "rid",
  contentType,
  retryAfter: undefined,
  body: Buffer.from(body),
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("client http: decodeResponse", () => {
  it("returns the JSON of a 2xx answer", () => {
    assert.deepEqual(decodeResponse(raw(200, '{"a":1}'), route, ctx), { a: 1 });
  });

  it("refuses an HTML page, truncated JSON and an empty body with ResponseFormatError", () => {
    for (const [answer, pattern] of [
      [raw(200, "<html>maintenance</html>", "text/html; charset=utf-8"), /expected a JSON body, got text\/html/],
      [raw(200, '{"statusCode":200,"resp'), /not valid JSON \(23 bytes; truncated or malformed\)/],
      [raw(200, ""), /the body is empty/],
    ] as const) {
      assert.throws(
        () => decodeResponse(answer, route, ctx),
        (e: unknown) =>
          e instanceof ResponseFormatError &&
          pattern.test(e.message) &&
          e.message.includes("request id rid") &&
          !e.message.includes("maintenance"),
      );
    }
  });

  it("maps a non-2xx answer through the factory, even when its body is not JSON", () => {
    assert.throws(
      () =>
        decodeResponse(raw(404, '{"statusCode":404,"statusMessage":"unknown connector","response":null}'), route, ctx),
      NotFoundError,
    );
    assert.throws(
      () => decodeResponse(raw(502, "<html>bad gateway</html>", "text/html"), route, ctx),
      (e: unknown) => e instanceof ServerError && e.statusMessage === "Bad Gateway",
    );
    const limited = { ...raw(429, '{"statusCode":429,"statusMessage":"slow down","response":null}'), retryAfter: "3" };
    assert.throws(
      () => decodeResponse(limited, route, ctx),
      (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 3000,
    );
  });
});

describe("client http: UndiciTransport", () => {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(() => agent.close());

  it("sends x-request-id and quotes the service's own when it answers with one", async () => {
    const pool = agent.get("http://127.0.0.1:9");
    let sent: unknown;
    pool.intercept({ path: "/es/v2/connectors?accountId=a", method: "GET" }).reply(
      200,
      (opts) => {
        sent = (opts.headers as Record<string, string>)["x-request-id"];
        return { ok: true };
      },
      { headers: { "x-request-id": "srv-1", "content-type": "application/json" } },
    );
    pool.intercept({ path: "/x", method: "GET" }).reply(200, "{}", { headers: { "content-type": "application/json" } });
    const transport = new UndiciTransport(pool);
    const first = await transport.send(request());
    assert.equal(sent, "client-generated-id");
    assert.equal(first.requestId, "srv-1");
    assert.deepEqual(JSON.parse(first.body.toString()), { ok: true });
    assert.equal((await transport.send(request("/x"))).requestId, "client-generated-id");
  });

  it("turns a connection failure into a retryable NetworkError", async () => {
    const pool = agent.get("http://127.0.0.1:9");
    pool
      .intercept({ path: "/x", method: "GET" })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    await assert.rejects(new UndiciTransport(pool).send(request("/x")), (e: unknown) => {
      assert.ok(e instanceof NetworkError);
      assert.equal(e.code, "ECONNRESET");
      assert.equal(e.retryable, true);
      assert.match(
        e.message,
        /^GET \/es\/v2\/connectors: no answer from the service: ECONNRESET: socket hang up \(request id client-generated-id\)$/,
      );
      return true;
    });
  });

  it("refuses a body over the cap, declared or streamed", async () => {
    const pool = agent.get("http://127.0.0.1:9");
    pool
      .intercept({ path: "/declared", method: "GET" })
      .reply(200, "x".repeat(200), { headers: { "content-length": "200" } });
    await assert.rejects(new UndiciTransport(pool, 100).send(request("/declared")), /larger than 100 bytes/);

    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 50; i++) res.write("x".repeat(1024));
      res.end();
    });
    const port = await listen(server);
    const real = createPool(`http://127.0.0.1:${port}`, { connectMs: 2000, headersMs: 5000, bodyMs: 5000 });
    try {
      await assert.rejects(
        new UndiciTransport(real, 10 * 1024).send(request("/")),
        (e: unknown) => e instanceof ResponseFormatError && /larger than 10240 bytes/.test(e.message),
      );
    } finally {
      await real.close();
      server.close();
    }
  });

  it("reports a body cut off mid-way as a NetworkError", async () => {
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"statusCode":200,');
      setImmediate(() => res.socket?.destroy());
    });
    const port = await listen(server);
    const pool = createPool(`http://127.0.0.1:${port}`, { connectMs: 2000, headersMs: 5000, bodyMs: 5000 });
    try {
      await assert.rejects(
        new UndiciTransport(pool).send(request("/")),
        (e: unknown) => e instanceof NetworkError && e.retryable,
      );
    } finally {
      await pool.close();
      server.close();
    }
  });

  it("trusts a private CA given as caCertificate, and only then", async () => {
    const handler: RequestListener = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"tls":true}');
    };
    const server = createHttpsServer(
      { key: readFileSync(join(fixtures, "server.key")), cert: readFileSync(join(fixtures, "server.pem")) },
      handler,
    );
    const port = await listen(server);
    const origin = `https://127.0.0.1:${port}`;
    const timeouts = { connectMs: 2000, headersMs: 5000, bodyMs: 5000 };
    const trusted = createPool(origin, { ...timeouts, caCertificate: readFileSync(join(fixtures, "ca.pem"), "utf8") });
    const untrusted = createPool(origin, timeouts);
    try {
      const ok = await new UndiciTransport(trusted).send(request("/"));
      assert.deepEqual(JSON.parse(ok.body.toString()), { tls: true });
      await assert.rejects(new UndiciTransport(untrusted).send(request("/")), (e: unknown) => {
        assert.ok(e instanceof NetworkError);
        assert.equal(e.retryable, false, `certificate errors are final (${e.code})`);
        return true;
      });
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
      server.close();
    }
  });
});
