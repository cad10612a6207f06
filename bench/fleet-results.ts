// The fleet benchmark's records (bench/fleet.ts) in bench/results.json (`fleet`), and their
// section of BENCHMARKS.md: `fleet drift` against the sequential preview loop, same run.
import { z } from "zod";

export const FleetRecordSchema = z.object({
  /** The invocation that measured it (its start time): rows of one run compare. */
  run: z.string(),
  /** fleet-drift: `pulumi-embedded-connectors fleet drift`; sequential-preview: the per-stack loop. */
  kind: z.enum(["fleet-drift", "sequential-preview"]),
  stacks: z.number().int().positive(),
  connectorsPerStack: z.number().int().min(0),
  /** The fleet's --concurrency (fleet-drift only). */
  concurrency: z.number().int().positive().optional(),
  /** 1-minute load average when the measurement ended: other work on the machine skews wall times. */
  loadAverage: z.number().optional(),
  wallMs: z.number(),
  perStackMs: z.number(),
  command: z.string(),
  measuredAt: z.string(),
});
export type FleetBenchRecord = z.infer<typeof FleetRecordSchema>;

const keyOf = (r: FleetBenchRecord) => `${r.kind}|${r.stacks}|${r.connectorsPerStack}|${r.concurrency ?? ""}`;

/** Records of a later run replace those of the same kind, size and concurrency. */
export function mergeFleetRecords(base: FleetBenchRecord[] | undefined, next: FleetBenchRecord[]): FleetBenchRecord[] {
  const byKey = new Map((base ?? []).map((r) => [keyOf(r), r]));
  for (const r of next) byKey.set(keyOf(r), r);
  return [...byKey.values()];
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function fleetSection(records: FleetBenchRecord[] | undefined): string[] {
  if (!records || records.length === 0) return [];
  const lines = [
    "## A fleet of sub-accounts: `fleet drift` against the sequential loop",
    "",
    "`npm run bench:fleet` (bench/fleet.ts): examples/fleet (the plugin `embedded`, a TypeScript program),",
    "one stack per sub-account of the local service, every stack checked for drift two ways in the same",
    "run: `pulumi-embedded-connectors fleet drift`, and `pulumi preview --refresh --expect-no-changes`",
    "per stack one after the other. The rows with 0 connectors per stack are the per-stack bound: the",
    "engine's, the program's and the plugin's start, the token and the listing, with nothing to read.",
    "",
    "| run | stacks | connectors/stack | how | concurrency | wall s | per stack s | loop / fleet | load |",
    "|---|---:|---:|---|---:|---:|---:|---:|---:|",
  ];
  const sorted = [...records].sort(
    (a, b) =>
      (a.run < b.run ? -1 : a.run > b.run ? 1 : 0) ||
      b.connectorsPerStack - a.connectorsPerStack ||
      a.kind.localeCompare(b.kind) ||
      (b.concurrency ?? 0) - (a.concurrency ?? 0),
  );
  for (const r of sorted) {
    const loop = records.find(
      (x) =>
        x.run === r.run &&
        x.kind === "sequential-preview" &&
        x.stacks === r.stacks &&
        x.connectorsPerStack === r.connectorsPerStack,
    );
    const speedup = r.kind === "fleet-drift" && loop ? `${(loop.wallMs / r.wallMs).toFixed(2)}×` : "";
    lines.push(
      `| ${r.run} | ${r.stacks} | ${r.connectorsPerStack} | \`${r.command}\` | ${r.concurrency ?? ""} | ${seconds(r.wallMs)} | ${seconds(r.perStackMs)} | ${speedup} | ${r.loadAverage ?? ""} |`,
    );
  }
  return [...lines, ""];
}
