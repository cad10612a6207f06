// BENCHMARKS.md draws its headline comparisons: each results table is followed
// by a Mermaid bar chart of the same rows (GitHub renders it), and the fleet section by a chart of
// its latest run's ways of checking the same stacks.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { axisMax, barChart } from "./charts";
import type { FleetBenchRecord } from "./fleet-results";
import { renderBenchmarks } from "./render";
import { benchRecord, machine } from "../test/support/bench-fixtures";

/** The ```mermaid blocks of a text, each as its lines. */
function charts(text: string): string[][] {
  return [...text.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1].trimEnd().split("\n"));
}

function fleetRecord(kind: FleetBenchRecord["kind"], wallMs: number, run = "r2", stacks = 50): FleetBenchRecord {
  return {
    run,
    kind,
    stacks,
    connectorsPerStack: 10,
    wallMs,
    perStackMs: wallMs / stacks,
    command: kind,
    measuredAt: run,
  };
}

describe("bench charts", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), "bench-charts-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a bar per row, labelled and valued as the row, right after its table", async () => {
    const file = path.join(dir, "BENCHMARKS.md");
    const records = [
      benchRecord({ provider: "this", operation: "up", wallMs: 7400 }),
      benchRecord({ provider: "floor", operation: "up", wallMs: 7000 }),
      benchRecord({ provider: "this", operation: "refresh", wallMs: 3250 }),
    ];
    const fleet = [
      fleetRecord("fleet-drift", 7800),
      fleetRecord("sequential-refresh", 43000),
      fleetRecord("sequential-preview", 214400),
      fleetRecord("fleet-drift", 222200, "r2", 1000),
      fleetRecord("fleet-drift", 72100, "r1"),
    ];
    await renderBenchmarks({ machine, commands: ["test"], records, fleet }, file, path.join(dir, "none.md"));
    const text = readFileSync(file, "utf8");
    const [results, drift] = charts(text);
    assert.ok(results && drift, text);
    assert.deepEqual(results.slice(0, 2), [
      "xychart-beta horizontal",
      '  title "N = 10, latency 0 ms: wall s (median) per operation and provider"',
    ]);
    assert.equal(results[2], '  x-axis ["up: this", "up: floor", "refresh: this"]');
    assert.equal(results[4], "  bar [7.4, 7, 3.25]");
    const table = text.indexOf("### N = 10, latency 0 ms");
    const lastRow = text.indexOf("| refresh | this |", table);
    assert.ok(lastRow > table && text.indexOf("```mermaid", table) > lastRow, "the chart follows its table");
    assert.match(drift[1], /^ {2}title "50 stacks checked for drift \(run r2\): wall s"$/);
    assert.equal(drift[2], '  x-axis ["fleet", "loop: refresh --preview-only", "loop: preview --refresh"]');
    assert.equal(drift[4], "  bar [7.8, 43, 214.4]");
  });

  it("the value axis ends at a round bound above the largest bar; no bars, no chart", () => {
    assert.deepEqual([axisMax(7.4), axisMax(43), axisMax(214.4), axisMax(0.3), axisMax(0)], [10, 50, 500, 0.5, 1]);
    assert.deepEqual(barChart("t", "s", []), []);
    assert.match(barChart('a "quoted" title', "s", [["x", 1]])[2], /title "a 'quoted' title"/);
  });
});
