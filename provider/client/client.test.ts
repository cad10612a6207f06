// EmbeddedClient over a scripted transport: the request each method sends, the shared
// token, the retry loop and the 401 renewal, with a fake clock (no real waiting).
import assert from "node:assert/strict";
import {
  AuthenticationError,
  ConflictError,
  EmbeddedClient,
  InvalidArgumentError,
  Limiter,
  NetworkError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  ValidationError,
  closeClients,
  collect,
  getClient,
  type ClientSettings,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import {
  ACCOUNT,
  CONNECTOR,
  ScriptedTransport,
  answer,
  configurationPayload,
  failure,
  ok,
  tokenAnswer,
  viewA,
  viewG,
} from "../../test/support/client-fakes";
import { FIELD_REFUSED } from "./service-text";

const SECRET = "very-secret-value";
const settings: ClientSettings = { baseUrl: "http://127.0.0.1:1/api", clientId: "demo-client", clientSecret: SECRET };
const TOKEN = "/api/es/v2/oauth/client-token";

function harness(
  handler: (request: OutgoingRequest, index: number) => IncomingResponse | Promise<IncomingResponse>,
  extra: Partial<ClientSettings> = {},
) {
  let clock = 1_000_000;
  const delays: number[] = [];
  const pausedDuringSleep: boolean[] = [];
  const transport = new ScriptedTransport((request, index) =>
    request.target === TOKEN ? tokenAnswer() : handler(request, index),
  );
  // Time passes while the limiter holds calls (its timer moves the fake clock).
  const setTimer = (callback: () => void, ms: number) => {
    const at = clock + ms;
    setImmediate(() => {
      clock = Math.max(clock, at);
      callback();
    });
  };
  const limiter = new Limiter(extra.concurrency ?? 8, { now: () => clock, setTimer });
  const client = EmbeddedClient.create(
    { ...settings, ...extra },
    {
      transport,
      limiter,
      now: () => clock,
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
        pausedDuringSleep.push(limiter.paused);
        clock += ms;
      },
    },
  );
  return {
    client,
    transport,
    delays,
    pausedDuringSleep,
    limiter,
    calls: () => transport.requests.filter((r) => r.target !== TOKEN),
  };
}

describe("client: requests of each operation", () => {
  it("sends the contract's method, path, query, headers and body", async () => {
    const h = harness((request) => {
      if (request.method === "POST") return ok({ added: [viewA(CONNECTOR)], alreadyAdded: [] });
      if (request.method === "PUT") return ok(configurationPayload({ configured: true, lastUpdated: 5 }));
      if (request.method === "DELETE") return ok({ removed: CONNECTOR });
      if (request.target.includes("/configuration")) return ok(configurationPayload());
      if (request.target.startsWith(`/api/es/v2/connectors/${CONNECTOR}`)) return ok(viewG(CONNECTOR));
      return ok({ items: [viewA(CONNECTOR)], page: 1, pageSize: 200, total: 1 });
    });
    const c = h.client;
    assert.equal((await c.getConnector(ACCOUNT, CONNECTOR)).integrated, true);
    assert.equal((await collect(c.listConnectors(ACCOUNT, { supportedType: "Source", name: "a b" }))).length, 1);
    assert.deepEqual((await c.addConnectors(ACCOUNT, [CONNECTOR])).retried, false);
    assert.equal((await collect(c.listAddedConnectors(ACCOUNT))).length, 1);
    assert.equal((await collect(c.listSupportedConnectors(ACCOUNT, CONNECTOR))).length, 1);
    assert.equal((await c.getConfiguration(ACCOUNT, CONNECTOR)).configured, false);
    const configured = await c.configure(ACCOUNT, CONNECTOR, {
      configurationId: "c0c0c0c0c0c0c0c0",
      secretConfig: { apiKey: "k", limit: 3 },
    });
    assert.equal(configured.lastUpdated, 5);
    assert.equal(await c.removeConnector(ACCOUNT, CONNECTOR), undefined);

    const seen = h.calls().map((r) => `${r.method} ${r.target}`);
    assert.deepEqual(seen, [
      `GET /api/es/v2/connectors/${CONNECTOR}?accountId=${ACCOUNT}`,
      `GET /api/es/v2/connectors?accountId=${ACCOUNT}&supportedType=Source&name=a+b&page=1&pageSize=200`,
      `POST /api/es/v2/connectors?accountId=${ACCOUNT}`,
      `GET /api/es/v2/connectors/added?accountId=${ACCOUNT}&page=1&pageSize=200`,
      `GET /api/es/v2/connectors/supported?accountId=${ACCOUNT}&connectorId=${CONNECTOR}&page=1&pageSize=200`,
      `GET /api/es/v2/connectors/${CONNECTOR}/configuration?accountId=${ACCOUNT}`,
      `PUT /api/es/v2/connectors/${CONNECTOR}/configuration?accountId=${ACCOUNT}`,
      `DELETE /api/es/v2/connectors/${CONNECTOR}?accountId=${ACCOUNT}`,
    ]);
    const [post, put] = [h.calls()[2], h.calls()[6]];
    assert.deepEqual(JSON.parse(post.body ?? ""), { connectorIds: [CONNECTOR] });
    assert.deepEqual(JSON.parse(put.body ?? ""), {
      configurationId: "c0c0c0c0c0c0c0c0",
      secretConfig: { apiKey: "k", limit: 3 },
    });
    assert.equal(post.headers["content-type"], "application/json");
    assert.equal(h.calls()[0].headers.authorization, "Bearer tok-1");
    const token = h.transport.requests[0];
    assert.equal(token.method, "POST");
    assert.deepEqual(JSON.parse(token.body ?? ""), { clientId: "demo-client", clientSecret: SECRET });
    assert.equal(token.headers.authorization, undefined);
    assert.equal(c.tokenRequests, 1);
  });

  it("refuses bad ids before any request (not even a token)", async () => {
    const h = harness(() => assert.fail("no request expected"));
    const c = h.client;
    await assert.rejects(c.getConnector(ACCOUNT, "../../admin/xxxx"), InvalidArgumentError);
    await assert.rejects(c.getConnector("", CONNECTOR), InvalidArgumentError);
    await assert.rejects(c.addConnectors(ACCOUNT, [CONNECTOR, "short"]), /connectorIds\[1\]/);
    await assert.rejects(c.removeConnector(ACCOUNT, "x"), InvalidArgumentError);
    await assert.rejects(c.getConfiguration(ACCOUNT, "0123456789abcdeg!"), InvalidArgumentError);
    await assert.rejects(
      c.configure(ACCOUNT, CONNECTOR, { configurationId: "nope", secretConfig: {} }),
      /configurationId/,
    );
    assert.throws(() => c.listSupportedConnectors(ACCOUNT, "bad"), InvalidArgumentError);
    assert.throws(() => c.listAddedConnectors(" "), InvalidArgumentError);
    assert.equal(h.transport.requests.length, 0);
    assert.equal(c.requestCount, 0);
  });

  it("walks every page of a list", async () => {
    const h = harness(
      (request) => {
        const page = Number(new URLSearchParams(request.target.split("?")[1]).get("page"));
        // Distinct ids on each page: a page equal to the one before is refused (the service ignored the paging).
        const id = (n: number) => `0123456789abcde${n}`;
        const items = page < 3 ? [viewA(id(2 * page - 2)), viewA(id(2 * page - 1))] : [viewA(id(4))];
        return ok({ items, page, pageSize: 2, total: 5 });
      },
      { pageSize: 2 },
    );
    assert.equal((await collect(h.client.listAddedConnectors(ACCOUNT))).length, 5);
    assert.equal(h.calls().length, 3);
  });
});

describe("client: token", () => {
  it("shares one token across many concurrent calls", async () => {
    const h = harness(() => ok(viewG(CONNECTOR)));
    await Promise.all(Array.from({ length: 25 }, () => h.client.getConnector(ACCOUNT, CONNECTOR)));
    assert.equal(h.client.tokenRequests, 1);
    assert.equal(h.transport.requests.filter((r) => r.target === TOKEN).length, 1);
  });

  it("renews once on a 401 and repeats the call", async () => {
    let first = true;
    const transport = new ScriptedTransport((request) => {
      if (request.target === TOKEN) return tokenAnswer(first ? "tok-old" : "tok-new");
      if (request.headers.authorization === "Bearer tok-old") {
        first = false;
        return failure(401, "token expired");
      }
      return ok(viewG(CONNECTOR));
    });
    const client = EmbeddedClient.create(settings, { transport });
    assert.equal((await client.getConnector(ACCOUNT, CONNECTOR)).connectorId, CONNECTOR);
    assert.equal(client.tokenRequests, 2);
    assert.deepEqual(
      transport.requests.map((r) => r.headers.authorization ?? "token"),
      ["token", "Bearer tok-old", "token", "Bearer tok-new"],
    );
  });

  it("gives up after one renewal when the service keeps refusing", async () => {
    const h = harness(() => failure(401, "unknown token"));
    await assert.rejects(h.client.getConnector(ACCOUNT, CONNECTOR), AuthenticationError);
    assert.equal(h.client.tokenRequests, 2);
    assert.equal(h.calls().length, 2);
  });

  it("fails once, without a loop, on wrong credentials; the message holds no secret", async () => {
    const transport = new ScriptedTransport(() => failure(401, `invalid client credentials for secret ${SECRET}`));
    const client = EmbeddedClient.create(settings, { transport });
    await assert.rejects(client.getConnector(ACCOUNT, CONNECTOR), (e: unknown) => {
      assert.ok(e instanceof AuthenticationError);
      assert.equal(e.route, "POST /es/v2/oauth/client-token"); // written out: the label users read
      assert.doesNotMatch(e.message, new RegExp(SECRET));
      // The token request carried the client secret: our own id, not the service's "srv-401".
      assert.match(e.message, /request id [0-9a-f]{8}-[0-9a-f-]{27}\)/);
      return true;
    });
    assert.equal(transport.requests.length, 1);
  });
});

describe("client: retries", () => {
  it("retries 5xx and network errors of a GET with backoff, then succeeds", async () => {
    const h = harness((_r, i) => {
      if (i === 1) return failure(503, "unavailable");
      if (i === 2) throw new NetworkError({ route: "GET /x", requestId: "r", code: "ECONNRESET" });
      return ok(viewG(CONNECTOR));
    });
    assert.equal((await h.client.getConnector(ACCOUNT, CONNECTOR)).connectorId, CONNECTOR);
    assert.deepEqual(h.delays, [100, 200]);
  });

  it("stops after maxAttempts and throws the last error", async () => {
    const h = harness(() => failure(500, "boom"), { retry: { maxAttempts: 3 } });
    await assert.rejects(h.client.getConnector(ACCOUNT, CONNECTOR), ServerError);
    assert.equal(h.calls().length, 3);
  });

  it("does not retry final errors", async () => {
    const h = harness(() =>
      failure(400, "bad", { errors: [{ field: "secretConfig.apiKey", message: "is required" }] }),
    );
    await assert.rejects(
      h.client.configure(
        ACCOUNT,
        CONNECTOR,
        { configurationId: "c0c0c0c0c0c0c0c0", secretConfig: {} },
        { fieldIds: ["apiKey"] },
      ),
      (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        // A Configure carried secrets: the field's name, never the service's text.
        assert.deepEqual(e.fieldErrors, [{ field: "secretConfig.apiKey", message: FIELD_REFUSED }]);
        return true;
      },
    );
    assert.equal(h.calls().length, 1);
    const conflict = harness(() => failure(409, "in use", { response: { srcConnections: 1, destConnections: 2 } }));
    await assert.rejects(
      conflict.client.removeConnector(ACCOUNT, CONNECTOR),
      (e: unknown) => e instanceof ConflictError && e.destConnections === 2,
    );
    assert.equal(conflict.calls().length, 1);
  });

  it("does not retry a contract breach", async () => {
    const h = harness(() => answer(200, "<html></html>", { contentType: "text/html" }));
    await assert.rejects(h.client.getConnector(ACCOUNT, CONNECTOR), ResponseFormatError);
    assert.equal(h.calls().length, 1);
  });

  it("on 429 waits for Retry-After and pauses the whole limiter", async () => {
    const h = harness((_r, i) => (i === 1 ? failure(429, "slow down", {}, { retryAfter: "2" }) : ok(viewG(CONNECTOR))));
    await h.client.getConnector(ACCOUNT, CONNECTOR);
    assert.deepEqual(h.delays, [2000]);
    assert.deepEqual(h.pausedDuringSleep, [true]);
    assert.equal(h.limiter.paused, false);
  });

  it("waits out a 429 storm longer than the attempt cap (10 × Retry-After: 1) within the retry timeout", async () => {
    const h = harness((_r, i) => (i <= 10 ? failure(429, "slow down", {}, { retryAfter: "1" }) : ok(viewG(CONNECTOR))));
    const connector = await h.client.getConnector(ACCOUNT, CONNECTOR);
    assert.equal(connector.connectorId, CONNECTOR);
    assert.deepEqual(h.delays, Array(10).fill(1000), "each wait is the service's Retry-After");
    assert.equal(h.calls().length, 11);
  });

  it("a 429 storm longer than the retry timeout fails, saying how long it waited and what to raise", async () => {
    const h = harness(() => failure(429, "slow down", {}, { retryAfter: "1" }), { retry: { retryTimeoutMs: 5_000 } });
    const error = await h.client.getConnector(ACCOUNT, CONNECTOR).then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e as Error,
    );
    assert.ok(error instanceof RateLimitError, String(error));
    assert.match(error.message, /gave up after waiting 5 s in all/);
    assert.match(error.message, /Raise embedded:retryTimeoutMs \(EMBEDDED_RETRY_TIMEOUT_MS, now 5000 ms\)/);
    assert.match(error.message, /\(request id srv-429\)$/);
    assert.deepEqual(h.delays, Array(5).fill(1000));
  });

  it("a Retry-After beyond the retry timeout fails at once and holds no other call back", async () => {
    const h = harness(() => failure(429, "slow down", {}, { retryAfter: "3600" }), {
      retry: { retryTimeoutMs: 60_000 },
    });
    await assert.rejects(h.client.getConnector(ACCOUNT, CONNECTOR), RateLimitError);
    assert.deepEqual(h.delays, []);
    assert.equal(h.limiter.paused, false, "the process is not paused for an hour it will not wait");
  });

  it("marks a final refusal that followed an unanswered attempt: the call may have been applied", async () => {
    const h = harness((_r, i) => {
      if (i === 1) throw new NetworkError({ route: "POST /x", requestId: "r" });
      return failure(403, "forbidden");
    });
    const error = await h.client.addConnectors(ACCOUNT, [CONNECTOR]).then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e as { earlierAttemptUnanswered?: boolean },
    );
    assert.equal(error.earlierAttemptUnanswered, true);
    const plain = harness(() => failure(403, "forbidden"));
    const refused = await plain.client.addConnectors(ACCOUNT, [CONNECTOR]).then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e as { earlierAttemptUnanswered?: boolean },
    );
    assert.equal(refused.earlierAttemptUnanswered, false);
  });

  it("Add: retried is true only when an earlier attempt may have been processed", async () => {
    const added = ok({ added: [], alreadyAdded: [CONNECTOR] });
    const dropped = harness((_r, i) => {
      if (i === 1) throw new NetworkError({ route: "POST /x", requestId: "r" });
      return added;
    });
    assert.equal((await dropped.client.addConnectors(ACCOUNT, [CONNECTOR])).retried, true);
    const limited = harness((_r, i) => (i === 1 ? failure(429, "slow", {}, { retryAfter: "0" }) : added));
    assert.equal((await limited.client.addConnectors(ACCOUNT, [CONNECTOR])).retried, false);
    const first = harness(() => added);
    assert.equal((await first.client.addConnectors(ACCOUNT, [CONNECTOR])).retried, false);
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const h = harness(
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return ok(viewG(CONNECTOR));
      },
      { concurrency: 3 },
    );
    await Promise.all(Array.from({ length: 20 }, () => h.client.getConnector(ACCOUNT, CONNECTOR)));
    assert.equal(h.limiter.peakRunning, 3);
  });
});

describe("client: getClient registry", () => {
  afterEach(() => closeClients());

  it("returns one client per base URL, client id and secret, sharing a limiter per base URL and client id", () => {
    const a = getClient({ baseUrl: "http://127.0.0.1:9/", clientId: "x", clientSecret: "s1" });
    const b = getClient({ baseUrl: "http://127.0.0.1:9", clientId: "x", clientSecret: "s1", concurrency: 4 });
    const c = getClient({ baseUrl: "http://127.0.0.1:9", clientId: "x", clientSecret: "s2" });
    assert.equal(a, b);
    assert.notEqual(a, c);
    assert.equal(a.limiter, c.limiter);
    assert.equal(a.limiter.concurrency, 4);
    // Another customer (client id) of the same base URL: its own limiter, so its own 429 pauses.
    const d = getClient({ baseUrl: "http://127.0.0.1:9", clientId: "y", clientSecret: "s1" });
    assert.notEqual(a.limiter, d.limiter);
  });

  it("refuses plain http to a remote host", () => {
    assert.throws(
      () => getClient({ baseUrl: "http://connectors.example.com", clientId: "x", clientSecret: "s" }),
      /refusing plain http/,
    );
  });

  it("checks its settings", () => {
    assert.throws(() => getClient({ ...settings, concurrency: 0 }), /concurrency/);
    assert.throws(() => getClient({ ...settings, clientSecret: "" }), /clientSecret/);
    assert.throws(() => getClient({ ...settings, pageSize: 500 }), /pageSize/);
  });
});
