// The fleet's guard of inline runs (cli/fleet/inline-errors.ts) cancels the runs in flight on
// an error no program caught, and leaves alone the error `@pulumi/pulumi` raises once an
// engine has closed its resource monitor. That one arrives late from a run already over, or
// from a run that is ending for its own error: taken as the program's error, it replaced a
// stack's real refusal with "Resource monitor is terminating" (a flaky CI failure of
// e2e/fleet-secret-sources). And it sends the engine a cancellation only while the engine
// can take one: a SIGINT before the CLI's first event or after its summary ends the process
// with the stack's lock held (a flaky CI failure of e2e/fleet-inline-errors: "the stack is
// currently locked" on the healthy neighbour's rerun).
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { RunGuard, isMonitorClosed } from "./inline-errors";

const EVENTS = ["unhandledRejection", "uncaughtException"] as const;

/** Emits an uncaught error to the guard alone (Mocha's own handlers would fail the test). */
function emitUncaught(event: (typeof EVENTS)[number], error: unknown): void {
  const others = EVENTS.map((name) => [name, process.rawListeners(name as "uncaughtException")] as const);
  const guardHandlers = new Map(others.map(([name, list]) => [name, list.slice(-1)]));
  for (const [name] of others) process.removeAllListeners(name);
  try {
    for (const handler of guardHandlers.get(event) ?? []) (handler as (e: unknown) => void)(error);
  } finally {
    for (const [name, list] of others) for (const handler of list) process.on(name, handler as never);
  }
}

const prelude = { sequence: 0, timestamp: 0, preludeEvent: { config: {} } } as EngineEvent;
const step = { sequence: 1, timestamp: 0, diagnosticEvent: { message: "", color: "never", severity: "info" } };
const summary = { sequence: 2, timestamp: 0, summaryEvent: {} } as unknown as EngineEvent;

/** The error `@pulumi/pulumi` rejects a registration with after the engine closed (gRPC code). */
function monitorClosed(code: number): Error {
  return Object.assign(new Error("failed to register new resource x [t]: Resource monitor is terminating"), { code });
}

describe("fleet: the guard of inline runs", () => {
  it("tells the engine's closing (gRPC UNAVAILABLE, CANCELLED) from a program's error", () => {
    assert.equal(isMonitorClosed(monitorClosed(14)), true);
    assert.equal(isMonitorClosed(monitorClosed(1)), true);
    assert.equal(isMonitorClosed(new Error("lookup refused")), false);
    assert.equal(isMonitorClosed(Object.assign(new Error("ENOENT"), { code: "ENOENT" })), false);
    assert.equal(isMonitorClosed(undefined), false);
    assert.equal(isMonitorClosed(null), false);
  });

  for (const event of EVENTS) {
    it(`a closing engine's ${event} leaves the run going; a program's error cancels it and is its error`, () => {
      const before = process.listenerCount(event);
      const guard = new RunGuard(undefined, true);
      const run = guard.start();
      run.onEvent(prelude);
      assert.equal(process.listenerCount(event), before + 1, "the guard listens while a run is in flight");
      try {
        emitUncaught(event, monitorClosed(14));
        assert.equal(run.signal.aborted, false, "a late error of a closed engine cancelled the run");
        assert.equal(run.uncaught(), undefined);
        const refusal = new Error("connector segment, field workspace is a Text field");
        emitUncaught(event, refusal);
        assert.equal(run.signal.aborted, true);
        assert.equal(run.uncaught()?.error, refusal);
        emitUncaught(event, monitorClosed(1));
        assert.equal(run.uncaught()?.error, refusal, "the first program error stays the run's");
      } finally {
        run.end();
      }
      assert.equal(process.listenerCount(event), before, "the guard stops listening once no run is in flight");
    });
  }

  it("holds a cancellation back until the engine's first event, and drops it after the summary", () => {
    const guard = new RunGuard(undefined, true);
    const early = guard.start();
    const late = guard.start();
    late.onEvent(prelude);
    late.onEvent(summary);
    try {
      const refusal = new Error("lookup refused");
      emitUncaught("unhandledRejection", refusal);
      assert.equal(early.signal.aborted, false, "a SIGINT before the engine's handler ends it with the lock held");
      assert.equal(late.signal.aborted, false, "a SIGINT after the summary can land after the handler is gone");
      assert.equal(early.uncaught()?.error, refusal, "the error is the run's all the same");
      early.onEvent(prelude);
      assert.equal(early.signal.aborted, true, "the held cancellation goes once the engine can take it");
      early.onEvent(step as unknown as EngineEvent);
      assert.equal(late.signal.aborted, false);
    } finally {
      early.end();
      late.end();
    }
  });

  it("gates the fleet's own abort (Ctrl-C) the same way, and a program run per stack adds no listener", () => {
    const before = process.listenerCount("unhandledRejection");
    const outer = new AbortController();
    const guard = new RunGuard(outer.signal, false);
    const run = guard.start();
    assert.equal(process.listenerCount("unhandledRejection"), before);
    try {
      outer.abort();
      assert.equal(run.signal.aborted, false);
      run.onEvent(prelude);
      assert.equal(run.signal.aborted, true);
      assert.equal(run.uncaught(), undefined, "an abort is not a program's error");
      const next = guard.start();
      next.onEvent(prelude);
      assert.equal(next.signal.aborted, true, "a run started after the abort is aborted too");
      next.end();
    } finally {
      run.end();
    }
  });
});
