// A bench record and machine for the bench tests: each test gives only what it is about.
import type { BenchRecord, Results } from "../../bench/results";

export const machine: Results["machine"] = {
  nproc: 2,
  memoryGiB: 1,
  cpuModel: "test",
  node: "v20",
  pulumi: "3.248.0",
  platform: "linux",
};

/** A record with empty counts; `overrides` sets the cell and what was measured. */
export function benchRecord(overrides: Partial<BenchRecord>): BenchRecord {
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
