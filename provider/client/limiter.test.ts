import assert from "node:assert/strict";
import { Limiter } from "./";

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("client limiter", () => {
  it("never runs more than the bound at once, and runs everything", async () => {
    const limiter = new Limiter(3);
    const gates = Array.from({ length: 10 }, gate);
    const done = gates.map((g, i) => limiter.run(async () => (await g.promise, i)));
    await tick();
    assert.equal(limiter.running, 3);
    assert.equal(limiter.queued, 7);
    for (const g of gates) {
      g.open();
      await tick();
      assert.ok(limiter.running <= 3);
    }
    assert.deepEqual(await Promise.all(done), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(limiter.peakRunning, 3);
    assert.equal(limiter.running, 0);
  });

  it("releases the slot of a failed task", async () => {
    const limiter = new Limiter(1);
    await assert.rejects(limiter.run(async () => Promise.reject(new Error("x"))));
    assert.equal(await limiter.run(async () => 7), 7);
  });

  it("holds every new call during a pause and lets them go when it ends", async () => {
    let now = 1000;
    const timers: { callback: () => void; ms: number }[] = [];
    const limiter = new Limiter(4, { now: () => now, setTimer: (callback, ms) => void timers.push({ callback, ms }) });
    limiter.pause(2000);
    assert.equal(limiter.paused, true);
    let started = 0;
    const done = [1, 2, 3].map(() => limiter.run(async () => void started++));
    await tick();
    assert.equal(started, 0);
    assert.equal(limiter.queued, 3);
    assert.equal(timers.length, 1);
    assert.equal(timers[0].ms, 2000);
    // A second 429 extends the pause; the early timer re-arms.
    limiter.pause(3000);
    now = 3000;
    timers[0].callback();
    await tick();
    assert.equal(started, 0);
    assert.equal(timers.length, 2);
    now = 4000;
    timers[1].callback();
    await Promise.all(done);
    assert.equal(started, 3);
  });

  it("can be widened while calls wait", async () => {
    const limiter = new Limiter(1);
    const g = gate();
    const first = limiter.run(() => g.promise);
    let second = false;
    const next = limiter.run(async () => void (second = true));
    await tick();
    assert.equal(second, false);
    limiter.concurrency = 2;
    await next;
    assert.equal(second, true);
    g.open();
    await first;
  });

  it("refuses a bound below 1", () => {
    assert.throws(() => new Limiter(0), RangeError);
    assert.throws(() => new Limiter(1.5), RangeError);
  });
});
