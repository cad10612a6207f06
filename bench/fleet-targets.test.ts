// bench/fleet-targets.ts: issue 46 point 8's targets, each judged on records of one run.
import { strict as assert } from "node:assert";
import type { FleetBenchRecord } from "./fleet-results";
import { issue46Targets } from "./fleet-targets";

function rec(overrides: Partial<FleetBenchRecord>): FleetBenchRecord {
  return {
    run: "run-a",
    kind: "fleet-drift",
    backend: "s3",
    stacks: 20,
    connectorsPerStack: 10,
    wallMs: 4_000,
    perStackMs: 200,
    command: "c",
    measuredAt: "2026-12-02T00:00:00.000Z",
    loadAverage: 2,
    ...overrides,
  };
}

const rowOf = (lines: string[], start: string) => lines.find((l) => l.startsWith(`| ${start}`)) ?? "";
const gen = { backend: "s3", generated: true, stacks: 1000 } as const;

describe("bench: issue 46 point 8 targets (fleet-targets.ts)", () => {
  it("judges the 20-stack ratio per backend from one run's loop and fleet drift", () => {
    const lines = issue46Targets([
      rec({ backend: "file" }),
      rec({ backend: "file", kind: "sequential-refresh", wallMs: 21_000 }),
      rec({ backend: "s3", wallMs: 5_000 }),
      rec({ backend: "s3", kind: "sequential-refresh", wallMs: 21_000 }),
    ]);
    assert.match(rowOf(lines, "20 stacks × 10 connectors, `file://`"), /5\.25× .*\| yes \|$/);
    assert.match(rowOf(lines, "20 stacks × 10 connectors, S3"), /4\.20× .*\| \*\*no\*\* \|$/);
  });

  it("says when the ratio is of medians of runs taken in turn", () => {
    const lines = issue46Targets([
      rec({ backend: "file", wallMs: 2_500, wallRunsMs: [3_100, 2_500, 2_400] }),
      rec({ backend: "file", kind: "sequential-refresh", wallMs: 15_000, wallRunsMs: [15_000, 14_000, 15_500] }),
    ]);
    assert.match(
      rowOf(lines, "20 stacks × 10 connectors, `file://`"),
      /6\.00× .*medians of 3 runs in turn.*\| yes \|$/,
    );
  });

  it("does not compare a fleet drift with a loop of another run, nor generated stacks with applied ones", () => {
    const lines = issue46Targets([
      rec({ backend: "file" }),
      rec({ backend: "file", kind: "sequential-refresh", run: "run-b", wallMs: 30_000 }),
      rec({ backend: "s3", generated: true }),
      rec({ backend: "s3", kind: "sequential-refresh", wallMs: 30_000 }),
    ]);
    assert.match(rowOf(lines, "20 stacks × 10 connectors, `file://`"), /\| – \| not measured \|$/);
    assert.match(rowOf(lines, "20 stacks × 10 connectors, S3"), /\| – \| not measured \|$/);
  });

  it("allows discovery and history 10 % more wall and CPU and one request per sub-account", () => {
    const off = rec({ ...gen, flags: "--no-discovery", wallMs: 100_000, cpuMs: 80_000, requests: 12_000 });
    const within = rec({ ...gen, flags: "--history backend", wallMs: 109_000, cpuMs: 85_000, requests: 12_900 });
    const row = rowOf(issue46Targets([off, within]), "1000 generated stacks");
    assert.match(row, /\+9\.0 %.*\+6\.3 %.*12\.00 → 12\.90 \(\+0\.90\).*\| yes \|$/);
    const slow = rec({ ...within, wallMs: 111_000 });
    assert.match(rowOf(issue46Targets([off, slow]), "1000 generated stacks"), /\| \*\*no\*\* \|$/);
    const chatty = rec({ ...within, requests: 13_100 });
    assert.match(rowOf(issue46Targets([off, chatty]), "1000 generated stacks"), /\| \*\*no\*\* \|$/);
  });

  it("compares per stack: awskms against the loop on 50, the passphrase against the key derivation bound", () => {
    const kms = { ...gen, secrets: "awskms" } as const;
    const lines = issue46Targets([
      rec({ ...kms, flags: "--history backend", wallMs: 100_000 }),
      rec({ ...kms, kind: "sequential-refresh", stacks: 50, wallMs: 60_000 }),
      rec({ ...gen, flags: "--history backend", wallMs: 130_000 }),
      rec({ ...gen, kind: "key-derivation", stacks: 40, wallMs: 4_800 }),
      rec({ ...gen, kind: "sequential-refresh", stacks: 50, wallMs: 60_000 }),
    ]);
    assert.match(
      rowOf(lines, "`awskms://`"),
      /12\.00× \(loop 1\.20 s a stack over 50, fleet drift 0\.10 s.*\| yes \|$/,
    );
    assert.match(
      rowOf(lines, "Passphrase"),
      /1\.08 × the bound \(fleet drift 0\.13 s .* bound 0\.12 s a key.*\| yes \|$/,
    );
  });
});
