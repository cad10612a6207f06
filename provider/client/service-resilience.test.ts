// The client against the local service: rate limits, token renewal, and retries under each
// fault mode. Clients that need a clock share a fake one with the service (buildApp's
// `now`), so nothing waits for real and nothing asserts on timing.
import assert from "node:assert/strict";
import {
  EmbeddedClient,
  Limiter,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  collect,
  UndiciTransport,
  type Transport,
} from "./";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { secretConfigFor, useLocalService } from "../../test/support/local-client";
import { routeKey } from "../../contract/routes";

describe("client against the local service: resilience", function () {
  this.timeout(30_000);
  const ctx = useLocalService();

  describe("rate limit", () => {
    it("429: the service's rate limit, waited out on a clock shared with the service", async () => {
      const clock = { t: Date.UTC(2030, 0, 1) };
      const limited = await startLocalService({ rateLimitPerSecond: 2, now: () => clock.t });
      const pool = ctx.pool(limited.baseUrl);
      const now = () => clock.t;
      // Time passes while the limiter holds calls (its timer moves the shared clock).
      const setTimer = (callback: () => void, ms: number) => {
        const at = clock.t + ms;
        setImmediate(() => {
          clock.t = Math.max(clock.t, at);
          callback();
        });
      };
      const limiter = new Limiter(8, { now, setTimer });
      // Only the client's waits move the shared clock: a client that does not wait would be
      // refused without end, so the requests are bounded (a named failure, not a hang).
      const undici = new UndiciTransport(pool);
      let sent = 0;
      const transport: Transport = {
        send: (request) => {
          if (++sent > 50)
            throw new Error(
              "the client sent more than 50 requests to a service at 2 per second: it does not wait on 429",
            );
          return undici.send(request);
        },
      };
      const client = EmbeddedClient.create(
        {
          baseUrl: limited.baseUrl,
          clientId: limited.customers[0].clientId,
          clientSecret: limited.customers[0].clientSecret,
        },
        { transport, limiter, now, random: () => 0, sleep: async (ms) => void (clock.t += ms) },
      );
      const waits: number[] = [];
      const sub = limited.customers[0].subAccountIds[0];
      try {
        for (let i = 0; i < 4; i++) {
          const before = clock.t;
          await client.getConnector(sub, ctx.source.connectorId);
          waits.push(clock.t - before);
        }
        const stats = await limited.stats();
        assert.ok((stats.byRoute[routeKey("getConnector")]["429"] ?? 0) >= 1, JSON.stringify(stats));
        assert.equal(stats.byRoute[routeKey("getConnector")]["200"], 4);
        assert.ok(
          waits.some((w) => w >= 1000),
          `waited Retry-After: ${waits.join()}`,
        );
      } finally {
        await limited.stop();
      }
      // A Retry-After beyond the retry timeout: the 429 reaches the caller typed, at once.
      const once = ctx.direct({ retry: { retryTimeoutMs: 1_000 } });
      await ctx.svc.setFaults({
        rules: [{ route: routeKey("getConnector"), mode: "rateLimit", retryAfterSeconds: 3 }],
      });
      await assert.rejects(
        once.getConnector(ctx.account, ctx.source.connectorId),
        (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 3000,
      );
    });
  });

  describe("token renewal", () => {
    async function withClock(
      run: (local: { service: LocalService; clock: { t: number }; sub: string }) => Promise<void>,
    ) {
      const clock = { t: Date.UTC(2030, 0, 1) };
      const service = await startLocalService({ tokenTtlSeconds: 1, now: () => clock.t });
      try {
        await run({ service, clock, sub: service.customers[0].subAccountIds[0] });
      } finally {
        await service.stop();
      }
    }
    const clientFor = (service: LocalService, now: () => number) => {
      const pool = ctx.pool(service.baseUrl);
      const c = service.customers[0];
      return EmbeddedClient.create(
        { baseUrl: service.baseUrl, clientId: c.clientId, clientSecret: c.clientSecret },
        { transport: new UndiciTransport(pool), now },
      );
    };

    it("renews before expiry (tokenTtlSeconds 1), without a 401", async () => {
      await withClock(async ({ service, clock, sub }) => {
        const client = clientFor(service, () => clock.t);
        await client.getConnector(sub, ctx.source.connectorId);
        clock.t += 950; // inside the last 10% of the 1 s lifetime
        await client.getConnector(sub, ctx.source.connectorId);
        const stats = await service.stats();
        assert.equal(stats.tokenRequests, 2);
        assert.deepEqual(stats.byRoute[routeKey("getConnector")], { "200": 2 });
      });
    });

    it("renews once on a 401 (the service's clock ran ahead) and repeats the call", async () => {
      await withClock(async ({ service, clock, sub }) => {
        const client = clientFor(service, Date.now); // the client believes its token is fresh
        await client.getConnector(sub, ctx.source.connectorId);
        clock.t += 5_000;
        const results = await Promise.all([1, 2, 3].map(() => client.getConnector(sub, ctx.source.connectorId)));
        assert.equal(results.length, 3);
        const stats = await service.stats();
        assert.equal(stats.tokenRequests, 2, "three concurrent 401s cause one renewal");
        assert.equal(stats.byRoute[routeKey("getConnector")]["401"], 3);
        assert.equal(stats.byRoute[routeKey("getConnector")]["200"], 4);
      });
    });
  });

  describe("retries under each fault mode", () => {
    const GET = routeKey("getConnector");
    const ADD = routeKey("addConnectors");

    it("error: 5xx twice, then the answer", async () => {
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "error", count: 2 }] });
      assert.equal(
        (await ctx.direct().getConnector(ctx.account, ctx.source.connectorId)).connectorId,
        ctx.source.connectorId,
      );
      const stats = await ctx.routeStats(GET);
      assert.equal((stats["500"] ?? 0) + (stats["503"] ?? 0), 2);
      assert.equal(stats["200"], 1);
    });

    it("error without end: ServerError after maxAttempts", async () => {
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "error", status: 503 }] });
      await assert.rejects(
        ctx.direct({ retry: { maxAttempts: 3 } }).getConnector(ctx.account, ctx.source.connectorId),
        (e: unknown) => e instanceof ServerError && e.status === 503,
      );
      assert.deepEqual(await ctx.routeStats(GET), { "503": 3 });
    });

    it("error without end: the error says how often it was tried and which setting changes that", async () => {
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "error", status: 503 }] });
      const error = await ctx
        .direct({ retry: { maxAttempts: 3 } })
        .getConnector(ctx.account, ctx.source.connectorId)
        .then(
          () => assert.fail("expected a ServerError"),
          (e: unknown) => e as Error,
        );
      assert.match(error.message, /tried 3 times: embedded:maxRetries \(EMBEDDED_MAX_RETRIES, now 2\)/, error.message);
      assert.match(error.message, /\(request id \S+\)$/, "the request id still ends it");
    });

    it("rateLimit: 429 once, then the answer", async () => {
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "rateLimit", count: 1, retryAfterSeconds: 0 }] });
      await ctx.direct().getConnector(ctx.account, ctx.source.connectorId);
      assert.deepEqual(await ctx.routeStats(GET), { "429": 1, "200": 1 });
    });

    it("reset: no answer, then the answer; Add reports retried", async () => {
      await ctx.svc.setFaults({ rules: [{ route: ADD, mode: "reset", count: 1 }] });
      const result = await ctx.direct().addConnectors(ctx.account, [ctx.source.connectorId]);
      assert.deepEqual(
        result.added.map((a) => a.connectorId),
        [ctx.source.connectorId],
      );
      assert.equal(result.retried, true);
      assert.deepEqual(await ctx.routeStats(ADD), { reset: 1, "200": 1 });
    });

    it("commitThenDrop on Add: the retry finds its own work in alreadyAdded", async () => {
      await ctx.svc.setFaults({ rules: [{ route: ADD, mode: "commitThenDrop", count: 1 }] });
      const result = await ctx.direct().addConnectors(ctx.account, [ctx.source.connectorId]);
      assert.deepEqual(result.added, []);
      assert.deepEqual(result.alreadyAdded, [ctx.source.connectorId]);
      assert.equal(result.retried, true);
      assert.deepEqual(await ctx.routeStats(ADD), { dropped: 1, "200": 1 });
    });

    it("commitThenDrop on Configure: PUT is repeated safely", async () => {
      const client = ctx.direct();
      await client.addConnectors(ctx.account, [ctx.source.connectorId]);
      const conf = await client.getConfiguration(ctx.account, ctx.source.connectorId);
      await ctx.svc.setFaults({ rules: [{ route: routeKey("configure"), mode: "commitThenDrop", count: 1 }] });
      const result = await client.configure(ctx.account, ctx.source.connectorId, {
        configurationId: conf.secretConfig[0].configurationId,
        secretConfig: secretConfigFor(conf),
      });
      assert.equal(result.configured, true);
    });

    it("commitThenDrop on Remove: the retry answers 404 (the provider counts it as removed)", async () => {
      const client = ctx.direct();
      await client.addConnectors(ctx.account, [ctx.source.connectorId]);
      await ctx.svc.setFaults({ rules: [{ route: routeKey("removeConnector"), mode: "commitThenDrop", count: 1 }] });
      await assert.rejects(client.removeConnector(ctx.account, ctx.source.connectorId), NotFoundError);
      assert.deepEqual(await collect(client.listAddedConnectors(ctx.account)), []);
    });

    it("latency: a headers timeout is a NetworkError, retried", async () => {
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "latency", latencyMs: 1_500, count: 1 }] });
      const client = ctx.direct({ timeouts: { headersMs: 300 } });
      assert.equal(
        (await client.getConnector(ctx.account, ctx.source.connectorId)).connectorId,
        ctx.source.connectorId,
      );
      const none = ctx.direct({ timeouts: { headersMs: 300 }, retry: { maxAttempts: 1 } });
      await ctx.svc.setFaults({ rules: [{ route: GET, mode: "latency", latencyMs: 1_500, count: 1 }] });
      await assert.rejects(
        none.getConnector(ctx.account, ctx.source.connectorId),
        (e: unknown) => e instanceof NetworkError && e.code === "UND_ERR_HEADERS_TIMEOUT",
      );
    });

    it("faults on the token route are retried by the token fetch itself", async () => {
      await ctx.svc.setFaults({
        rules: [
          { route: routeKey("getToken"), mode: "error", count: 1 },
          { route: routeKey("getToken"), mode: "reset", count: 1 },
        ],
      });
      const client = ctx.direct();
      await client.getConnector(ctx.account, ctx.source.connectorId);
      assert.equal(client.tokenRequests, 1, "one token fetch, retried inside");
      const stats = await ctx.routeStats(routeKey("getToken"));
      assert.equal(stats.reset, 1);
      assert.equal(stats["200"], 1);
      assert.equal((stats["500"] ?? 0) + (stats["503"] ?? 0), 1);
    });
  });
});
