// Fault injection: the decision logic (deterministic, seeded) and each mode on
// a real listening server, where resets and dropped answers are real sockets.
import assert from "node:assert/strict";
import { FaultInjector, faultsFromFlags } from "./faults";
import { startLocalService, type LocalService } from "../harness/local-service";
import { byName } from "../test/support/service";
import { routeKey } from "../contract/routes";

const fb = byName("Facebook Custom Audiences");
const ADD = routeKey("addConnectors");

describe("service: fault decisions", () => {
  it("the same seed gives the same faults; rate is honoured; count spends the rule", () => {
    const draw = (seed: number) => {
      const f = new FaultInjector({ seed, rules: [{ mode: "error", rate: 0.3 }] });
      return Array.from({ length: 200 }, () => f.decide(ADD).action?.kind ?? "ok");
    };
    assert.deepEqual(draw(7), draw(7));
    assert.notDeepEqual(draw(7), draw(8));
    const errors = draw(7).filter((k) => k === "error").length;
    assert.ok(errors > 30 && errors < 90, `${errors} of 200 at rate 0.3`);
    const counted = new FaultInjector({ rules: [{ mode: "rateLimit", count: 2, route: ADD }] });
    assert.deepEqual(
      [0, 1, 2].map(() => counted.decide(ADD).action?.kind),
      ["rateLimit", "rateLimit", undefined],
    );
    assert.equal(counted.settings.rules[0].count, 0);
  });

  it("matches routes exactly or all; latency adds up with bounded jitter; the first other rule wins", () => {
    const f = new FaultInjector({
      rules: [
        { mode: "latency", latencyMs: 100, jitterMs: 50 },
        { mode: "latency", route: ADD, latencyMs: 10 },
        { mode: "reset", route: routeKey("listConnectors") },
        { mode: "error", status: 500, route: "*" },
      ],
    });
    const add = f.decide(ADD);
    assert.ok(add.delayMs >= 110 && add.delayMs < 160);
    assert.deepEqual(add.action, { kind: "error", status: 500 });
    assert.deepEqual(f.decide(routeKey("listConnectors")).action, { kind: "reset" });
  });

  it("builds settings from the command-line flags", () => {
    assert.deepEqual(faultsFromFlags(0, 0), { rules: [] });
    assert.deepEqual(faultsFromFlags(40, 0.1), {
      rules: [
        { mode: "latency", latencyMs: 40, jitterMs: 20 },
        { mode: "error", rate: 0.1 },
      ],
    });
  });
});

describe("service: fault modes on a real server", () => {
  let svc: LocalService;
  let token: string;
  let account: string;
  before(async () => {
    svc = await startLocalService();
    account = svc.customers[0].subAccountIds[0];
  });
  beforeEach(async () => {
    await svc.reset();
    token = await getToken();
  });
  after(() => svc.stop());

  async function getToken(): Promise<string> {
    const { clientId, clientSecret } = svc.customers[0];
    const res = await fetch(`${svc.baseUrl}/es/v2/oauth/client-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId, clientSecret }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { accessToken: string }).accessToken;
  }
  const add = () =>
    fetch(`${svc.baseUrl}/es/v2/connectors?accountId=${account}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ connectorIds: [fb.connectorId] }),
    });
  const list = async () => {
    const res = await fetch(`${svc.baseUrl}/es/v2/connectors/added?accountId=${account}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { response: { items: { connectorId: string }[] } }).response.items.map(
      (i) => i.connectorId,
    );
  };

  it("error: exactly the next N requests of the route get the envelope with the status", async () => {
    await svc.setFaults({ rules: [{ route: ADD, mode: "error", status: 503, count: 2 }] });
    for (let i = 0; i < 2; i++) {
      const res = await add();
      assert.equal(res.status, 503);
      assert.ok(res.headers.get("x-request-id"));
      const body = (await res.json()) as { statusCode: number; response: unknown };
      assert.equal(body.statusCode, 503);
      assert.equal(body.response, null);
    }
    assert.deepEqual(await list(), [], "failed requests change nothing; other routes unaffected");
    assert.equal((await add()).status, 200);
    assert.deepEqual((await svc.stats()).byRoute[ADD], { "200": 1, "503": 2 });
  });

  it("error without a status answers 500 or 503", async () => {
    await svc.setFaults({ seed: 3, rules: [{ mode: "error", count: 4 }] });
    for (let i = 0; i < 4; i++) assert.ok([500, 503].includes((await add()).status));
  });

  it("rateLimit: 429 bursts with Retry-After", async () => {
    await svc.setFaults({ rules: [{ route: ADD, mode: "rateLimit", retryAfterSeconds: 3, count: 1 }] });
    const res = await add();
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "3");
    assert.equal((await add()).status, 200);
  });

  it("reset: the socket is destroyed without an answer and nothing is done", async () => {
    await svc.setFaults({ rules: [{ route: ADD, mode: "reset", count: 1 }] });
    await assert.rejects(add());
    assert.deepEqual(await list(), []);
    assert.equal((await add()).status, 200);
    assert.deepEqual((await svc.stats()).byRoute[ADD], { reset: 1, "200": 1 });
  });

  it("commitThenDrop: the change is saved, the answer never arrives", async () => {
    await svc.setFaults({ rules: [{ route: ADD, mode: "commitThenDrop", count: 1 }] });
    await assert.rejects(add());
    assert.deepEqual(await list(), [fb.connectorId]);
    const retry = (await (await add()).json()) as { response: { alreadyAdded: string[] } };
    assert.deepEqual(retry.response.alreadyAdded, [fb.connectorId]);
    assert.deepEqual((await svc.stats()).byRoute[ADD], { dropped: 1, "200": 1 });
  });

  it("latency: the request is delayed, then answered normally", async () => {
    await svc.setFaults({ rules: [{ mode: "latency", latencyMs: 30, jitterMs: 10, count: 1 }] });
    assert.equal((await add()).status, 200);
  });

  it("faults for every route spare /_admin, and reach the token endpoint", async () => {
    await svc.setFaults({ rules: [{ mode: "error", status: 500 }] });
    const stats = await svc.stats();
    assert.equal(typeof stats.tokenRequests, "number");
    const res = await fetch(`${svc.baseUrl}/es/v2/oauth/client-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: "x", clientSecret: "y" }),
    });
    assert.equal(res.status, 500);
    await svc.setFaults({ rules: [] });
  });

  it("the helper's connection helpers drive the remove guard", async () => {
    const sf = byName("Salesforce CRM");
    const res = await fetch(`${svc.baseUrl}/es/v2/connectors?accountId=${account}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ connectorIds: [fb.connectorId, sf.connectorId] }),
    });
    assert.equal(res.status, 200);
    const id = await svc.createConnection(account, sf.connectorId, fb.connectorId);
    const remove = () =>
      fetch(`${svc.baseUrl}/es/v2/connectors/${sf.connectorId}?accountId=${account}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
    const refused = await remove();
    assert.equal(refused.status, 409);
    assert.deepEqual(((await refused.json()) as { response: unknown }).response, {
      srcConnections: 1,
      destConnections: 0,
    });
    await svc.deleteConnection(id);
    assert.equal((await remove()).status, 200);
  });
});
