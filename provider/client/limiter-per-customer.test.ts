// The limiter is per base URL and client id. Two customers of one base URL,
// through the process's registry (getClient) as the provider and the fleet use it, against the
// local service's per-customer rate limit on a frozen clock: one customer is refused with a
// 429 and pauses; the other's call is sent and answered while that pause is in force (read from
// the limiter's state and the service's counts, never from timing).
import assert from "node:assert/strict";
import { clientRegistry, closeClients, getClient, type EmbeddedClient } from "./";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { routeKey } from "../../contract/routes";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("client: one limiter per customer (base URL and client id)", function () {
  this.timeout(30_000);
  const clock = { t: Date.UTC(2030, 0, 1) };
  let svc: LocalService;

  before(async () => {
    // 2 calls a second per client id, with a burst of 2: on a frozen clock the third is refused.
    svc = await startLocalService({ rateLimitPerSecond: 2, now: () => clock.t });
  });
  after(async () => {
    await closeClients();
    await svc.stop();
  });

  function customer(index: number): EmbeddedClient {
    const { clientId, clientSecret } = svc.customers[index];
    return getClient({ baseUrl: svc.baseUrl, clientId, clientSecret });
  }

  it("a 429 for one customer's credentials holds back that customer's calls only", async () => {
    const a = customer(0);
    const b = customer(1);
    const connectorOf = async (client: EmbeddedClient, index: number) => {
      const sub = svc.customers[index].subAccountIds[0];
      for await (const c of client.listConnectors(sub)) return { sub, id: c.connectorId };
      throw new Error("no catalogue connector");
    };
    // Tokens and a connector id for each, then the service's counts start from zero.
    const [ca, cb] = [await connectorOf(a, 0), await connectorOf(b, 1)];
    clock.t += 60_000;
    await svc.reset();
    const getConnector = routeKey("getConnector");
    const counts = async () => (await svc.stats()).byRoute[getConnector] ?? {};

    // Customer A: two calls pass, the third is refused (Retry-After: 1) and pauses A's limiter.
    const first = [0, 1, 2].map(() => a.getConnector(ca.sub, ca.id));
    for (let i = 0; i < 1_000 && !a.limiter.paused; i++) await tick();
    assert.equal(a.limiter.paused, true, "customer A's 429 did not pause its limiter");
    const held = a.getConnector(ca.sub, ca.id);
    for (let i = 0; i < 100 && a.limiter.queued === 0; i++) await tick();
    assert.equal(a.limiter.queued, 1, "customer A's next call is held by its pause");

    // Customer B, same base URL, same process: not held back by A's pause.
    assert.notEqual(b.limiter, a.limiter, "two customers of one base URL share a limiter");
    assert.equal(b.limiter.paused, false);
    const answer = await b.getConnector(cb.sub, cb.id);
    assert.equal(answer.connectorId, cb.id);
    assert.equal(a.limiter.paused, true, "customer B's call was answered only after A's pause ended");
    assert.deepEqual(await counts(), { "200": 3, "429": 1 }, "A's two, B's one; A's third refused once");

    // A's pause ends; its held and refused calls then go through (the service's clock moves on).
    clock.t += 10_000;
    await Promise.all([...first, held]);
    assert.equal((await counts())["200"], 5);
  });

  it("keeps one pool per origin: both customers' clients send through the same pool", () => {
    const [a, b] = [customer(0), customer(1)];
    assert.notEqual(a, b);
    // Only this service's entries: under `mocha --parallel` other files' clients share the registry.
    const origin = new URL(svc.baseUrl).origin;
    const ours = <T>(map: Map<string, T>) => [...map].filter(([key]) => key.startsWith(origin)).map(([, v]) => v);
    assert.equal(new Set(ours(clientRegistry.pools)).size, 1, "one long-lived pool for the service's origin");
    assert.equal(ours(clientRegistry.limiters).length, 2, "one limiter per customer");
  });
});
