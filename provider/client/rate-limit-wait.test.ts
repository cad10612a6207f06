// The wait on a 429 (and a 503 with Retry-After). With the
// wait disabled, a client on a fake clock repeats the refused call at once, without end (the
// audit saw a 4 GB out-of-memory crash after 450 s). Here the transport answers a bounded
// number of requests and the clock moves only when the client waits, so a client that does
// not wait fails at once, by name.
import assert from "node:assert/strict";
import { EmbeddedClient, Limiter, type IncomingResponse, type OutgoingRequest } from "./";
import {
  ACCOUNT,
  CONNECTOR,
  ScriptedTransport,
  failure,
  ok,
  tokenAnswer,
  viewG,
} from "../../test/support/client-fakes";

const TOKEN = "/api/es/v2/oauth/client-token";
/** More requests than any test here needs: past it, the client is repeating without waiting. */
const MAX_REQUESTS = 8;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A client on a fake clock that only the client's own waits (sleep, the limiter's timer) move. */
function clientOnFakeClock(
  answer: (request: OutgoingRequest, index: number) => IncomingResponse,
  options: { gatedSleep?: boolean } = {},
) {
  const clock = { t: 1_000_000 };
  const sent: { request: OutgoingRequest; at: number }[] = [];
  const transport = new ScriptedTransport((request) => {
    if (request.target === TOKEN) return tokenAnswer();
    if (sent.length >= MAX_REQUESTS)
      throw new Error(
        `the client sent more than ${MAX_REQUESTS} requests without the clock moving: it does not wait on 429`,
      );
    sent.push({ request, at: clock.t });
    return answer(request, sent.length - 1);
  });
  // The limiter's timer: time passes while it holds calls (at once, unless the test steps it).
  const timers: { callback: () => void; at: number }[] = [];
  const setTimer = (callback: () => void, ms: number) => {
    const timer = { callback, at: clock.t + ms };
    if (options.gatedSleep) timers.push(timer);
    else setImmediate(() => advanceTo(timer.at, [timer]));
  };
  const limiter = new Limiter(8, { now: () => clock.t, setTimer });
  const sleeps: { ms: number; release: () => void }[] = [];
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const release = () => {
        clock.t += ms;
        resolve();
      };
      if (options.gatedSleep) sleeps.push({ ms, release });
      else release();
    });
  const client = EmbeddedClient.create(
    { baseUrl: "http://127.0.0.1:1/api", clientId: "demo-client", clientSecret: "very-secret-value" },
    { transport, limiter, now: () => clock.t, random: () => 0, sleep },
  );
  /** Moves the clock to `at` and fires the limiter's timers due by then. */
  function advanceTo(at: number, due = timers.splice(0)): void {
    clock.t = Math.max(clock.t, at);
    for (const timer of due) timer.callback();
  }
  return { client, clock, sent, limiter, sleeps, advanceTo };
}

describe("client: the wait on a 429 / 503 with Retry-After", () => {
  for (const [status, label] of [
    [429, "429"],
    [503, "503 with Retry-After"],
  ] as const) {
    it(`${label}: the next attempt is sent only once Retry-After has passed`, async () => {
      const h = clientOnFakeClock((_r, i) =>
        i < 2 ? failure(status, "slow down", {}, { retryAfter: "3" }) : ok(viewG(CONNECTOR)),
      );
      const result = await h.client.getConnector(ACCOUNT, CONNECTOR);
      assert.equal(result.connectorId, CONNECTOR);
      assert.equal(h.sent.length, 3, "two refusals, then the answer");
      for (let i = 1; i < h.sent.length; i++) {
        const gap = h.sent[i].at - h.sent[i - 1].at;
        assert.ok(
          gap >= 3_000,
          `attempt ${i + 1} was sent ${gap} ms after a ${label} that said Retry-After: 3 (the wait is disabled)`,
        );
      }
    });
  }

  it("429: every other call of the process is held until Retry-After has passed", async () => {
    const h = clientOnFakeClock(
      (_r, i) => (i === 0 ? failure(429, "slow down", {}, { retryAfter: "3" }) : ok(viewG(CONNECTOR))),
      { gatedSleep: true },
    );
    const refused = h.client.getConnector(ACCOUNT, CONNECTOR);
    for (let i = 0; i < 100 && h.sleeps.length === 0; i++) await tick();
    assert.equal(h.sleeps.length, 1, "the refused call waits");
    const pausedAt = h.clock.t;
    const other = h.client.getConnector(ACCOUNT, CONNECTOR);
    for (let i = 0; i < 100 && h.limiter.queued === 0 && h.sent.length === 1; i++) await tick();
    assert.equal(
      h.sent.length,
      1,
      "a call started during the 429's Retry-After was sent at once (the limiter does not hold it)",
    );
    h.advanceTo(pausedAt + 3_000);
    h.sleeps[0].release();
    await Promise.all([refused, other]);
    assert.equal(h.sent.length, 3);
    assert.ok(
      h.sent.slice(1).every((s) => s.at >= pausedAt + 3_000),
      "no call was sent before Retry-After had passed",
    );
  });
});
