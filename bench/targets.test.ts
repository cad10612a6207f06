// bench/targets.ts: the past-the-floor rows judge the recommended setup only against the dynamic floor
// measured by the same invocation, and each host against its own floor.
import assert from "node:assert/strict";
import { targets } from "./targets";
import { SETUPS, type BenchRecord } from "./results";
import { benchRecord, machine } from "../test/support/bench-fixtures";
import { routeKey } from "../contract/routes";

const ADD = routeKey("addConnectors");
const recommended = { parallel: SETUPS.recommended.parallel, env: { ...SETUPS.recommended.env } };

/** A dynamic floor's `up` of 500 in run "run-a" unless `overrides` says otherwise. */
function record(overrides: Partial<BenchRecord>): BenchRecord {
  return benchRecord({
    provider: "floor",
    n: 500,
    wallMs: 90_000,
    tokenRequests: 0,
    peakRssMiB: 150,
    run: "run-a",
    ...overrides,
  });
}

const rowOf = (lines: string[], start: string) => lines.find((line) => line.startsWith(`| ${start}`)) ?? "";

describe("bench targets", () => {
  it("compares the recommended setup with the floor of the same run, and counts ids per Add", () => {
    const fast = record({ provider: "plugin", wallMs: 10_000, calls: { [ADD]: 16 }, ...recommended });
    const row = rowOf(targets([record({}), fast], machine), "N=500 `up`, recommended");
    assert.match(row, /plugin: 10\.0 s against the floor's 90\.0 s = 9\.0× faster, 31\.3 ids\/Add \(16 Adds\)/);
    assert.match(row, /\| yes \|$/);
  });

  it("does not compare with a floor measured by another run", () => {
    const fast = record({ provider: "plugin", wallMs: 10_000, calls: { [ADD]: 16 }, run: "run-b", ...recommended });
    assert.match(rowOf(targets([record({}), fast], machine), "N=500 `up`, recommended"), /\| – \| not measured \|$/);
  });

  it("misses the target with too few ids per Add even when fast", () => {
    const fast = record({ provider: "plugin", wallMs: 10_000, calls: { [ADD]: 100 }, ...recommended });
    assert.match(rowOf(targets([record({}), fast], machine), "N=500 `up`, recommended"), /\*\*no\*\*/);
  });

  it("judges each host against its own floor, refresh at N=100 apart from the rest", () => {
    const lines = targets(
      [
        record({ provider: "this", n: 100, operation: "refresh", wallMs: 1100 }),
        record({ provider: "floor", n: 100, operation: "refresh", wallMs: 1000 }),
        record({ provider: "plugin", n: 100, operation: "refresh", wallMs: 1300 }),
        record({ provider: "plugin-floor", n: 100, operation: "refresh", wallMs: 1000 }),
        record({ provider: "plugin", n: 500, operation: "destroy", wallMs: 1000 }),
        record({ provider: "plugin-floor", n: 500, operation: "destroy", wallMs: 1000 }),
      ],
      machine,
    );
    const refresh = rowOf(lines, "Refresh at N=100");
    assert.match(refresh, /this N=100 refresh 1\.10; plugin N=100 refresh 1\.30/);
    assert.match(refresh, /\*\*no\*\*/);
    assert.match(rowOf(lines, "Every other operation"), /plugin N=500 destroy 1\.00 \| yes \|$/);
  });

  it("holds the provider's peak memory at N=500 against the floor's plus 10 MiB", () => {
    const within = targets([record({ provider: "this", peakRssMiB: 159 }), record({ peakRssMiB: 150 })], machine);
    assert.match(rowOf(within, "Peak RSS"), /`this` 159 MiB, floor 150 MiB: \+9\.0 MiB \| yes \|$/);
    const over = targets([record({ provider: "this", peakRssMiB: 161 }), record({ peakRssMiB: 150 })], machine);
    assert.match(rowOf(over, "Peak RSS"), /\*\*no\*\*/);
  });
});
