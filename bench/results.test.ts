// bench/results.ts: repeated measurements keep the median run, and merging a partial run
// replaces only the cells it measured (what BENCHMARKS.md is rendered from).
import assert from "node:assert/strict";
import { medianRecords, mergeResults, recordKey, type Results } from "./results";
import { benchRecord, machine } from "../test/support/bench-fixtures";

describe("bench results", () => {
  it("keeps the median run of each cell, its own counts, and every run's wall time", () => {
    const runs = [
      benchRecord({ wallMs: 900, tokenRequests: 1, calls: { a: 1 } }),
      benchRecord({ wallMs: 3000, tokenRequests: 2, calls: { a: 2 } }),
      benchRecord({ wallMs: 1200, tokenRequests: 3, calls: { a: 3 } }),
      benchRecord({ provider: "floor", wallMs: 700 }),
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
    const [only] = medianRecords([
      benchRecord({ wallMs: 4 }),
      benchRecord({ wallMs: 1 }),
      benchRecord({ wallMs: 3 }),
      benchRecord({ wallMs: 2 }),
    ]);
    assert.equal(only.wallMs, 2);
  });

  it("tells a cell at another --parallel apart from the default one", () => {
    assert.notEqual(recordKey(benchRecord({})), recordKey(benchRecord({ parallel: 16 })));
    assert.equal(medianRecords([benchRecord({}), benchRecord({ parallel: 16 })]).length, 2);
  });

  it("merging replaces the measured cells and keeps the others", () => {
    const base: Results = {
      machine,
      commands: ["full"],
      records: [benchRecord({ n: 10, wallMs: 1 }), benchRecord({ n: 500, wallMs: 2 })],
    };
    const next: Results = { machine, commands: ["partial"], records: [benchRecord({ n: 10, wallMs: 3 })] };
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
