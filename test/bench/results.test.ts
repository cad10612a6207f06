// bench/results.ts: repeated measurements keep the median run, and merging a partial run
// replaces only the cells it measured (what BENCHMARKS.md is rendered from).
import assert from "node:assert/strict";
import { medianRecords, mergeResults, recordKey, type BenchRecord, type Results } from "../../bench/results";

function record(overrides: Partial<BenchRecord>): BenchRecord {
  return {
    provider: "this",
    n: 10,
    latencyMs: 0,
    operation: "up",
    wallMs: 1000,
    calls: {},
    failedCalls: 0,
    tokenRequests: 1,
    peakRssMiB: 100,
    resourceChanges: {},
    measuredAt: "2026-11-22T00:00:00.000Z",
    ...overrides,
  };
}

const machine: Results["machine"] = { nproc: 2, memoryGiB: 1, cpuModel: "test", node: "v20", pulumi: "3.248.0", platform: "linux" };

describe("bench results", () => {
  it("keeps the median run of each cell, its own counts, and every run's wall time", () => {
    const runs = [
      record({ wallMs: 900, tokenRequests: 1, calls: { a: 1 } }),
      record({ wallMs: 3000, tokenRequests: 2, calls: { a: 2 } }),
      record({ wallMs: 1200, tokenRequests: 3, calls: { a: 3 } }),
      record({ provider: "floor", wallMs: 700 }),
    ];
    const [mine, floor] = medianRecords(runs);
    assert.equal(mine.wallMs, 1200);
    assert.equal(mine.tokenRequests, 3, "the other fields are the median run's");
    assert.deepEqual(mine.calls, { a: 3 });
    assert.deepEqual(mine.wallRunsMs, [900, 3000, 1200]);
    assert.equal(floor.wallMs, 700);
    assert.deepEqual(floor.wallRunsMs, [700]);
  });

  it("takes the lower middle run of an even count", () => {
    const [only] = medianRecords([record({ wallMs: 4 }), record({ wallMs: 1 }), record({ wallMs: 3 }), record({ wallMs: 2 })]);
    assert.equal(only.wallMs, 2);
  });

  it("tells a cell at another --parallel apart from the default one", () => {
    assert.notEqual(recordKey(record({})), recordKey(record({ parallel: 16 })));
    assert.equal(medianRecords([record({}), record({ parallel: 16 })]).length, 2);
  });

  it("merging replaces the measured cells and keeps the others", () => {
    const base: Results = { machine, commands: ["full"], records: [record({ n: 10, wallMs: 1 }), record({ n: 500, wallMs: 2 })] };
    const next: Results = { machine, commands: ["partial"], records: [record({ n: 10, wallMs: 3 })] };
    const merged = mergeResults(base, next);
    assert.deepEqual(merged.commands, ["full", "partial"]);
    assert.deepEqual(
      merged.records.map((r) => [r.n, r.wallMs]).sort((x, y) => x[0] - y[0]),
      [
        [10, 3],
        [500, 2],
      ],
    );
  });
});
