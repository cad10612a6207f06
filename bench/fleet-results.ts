// The fleet benchmark's records (bench/fleet.ts) in bench/results.json (`fleet`), and their
// section of BENCHMARKS.md: `fleet drift` against the sequential preview loop, same run.
import { z } from "zod";
import { barChart } from "./charts";

export const FleetRecordSchema = z.object({
  /** The invocation that measured it (its start time): rows of one run compare. */
  run: z.string(),
  /**
   * fleet-drift: `pulumi-embedded-connectors fleet drift` (before issue 34: `preview --refresh`
   * per stack inside it; since: checkpoints read, the provider's code in process);
   * fleet-drift-engine: `fleet drift --engine` (`refresh --preview-only` per stack);
   * sequential-refresh / sequential-preview: the per-stack loops of `pulumi refresh
   * --preview-only` / `pulumi preview --refresh`, with --expect-no-changes;
   * key-derivation: the bound the passphrase sets: one key derived per stack as Pulumi's
   * passphrase secrets manager derives it (PBKDF2-SHA256, 1 000 000 rounds), one per core at a
   * time, in the bench's own process (no service, no backend).
   */
  kind: z.enum(["fleet-drift", "fleet-drift-engine", "sequential-refresh", "sequential-preview", "key-derivation"]),
  /** The stacks' secrets provider (absent: the passphrase, every run before issue 46). */
  secrets: z.enum(["passphrase", "awskms"]).optional(),
  /** The stacks were generated (bench/fleet-large.ts), not applied by `fleet up`. */
  generated: z.boolean().optional(),
  /** fleet-drift's flags beyond the default (e.g. `--no-discovery`, `--history backend`). */
  flags: z.string().optional(),
  /** Requests the service answered during the measurement (any route and status, the token's included). */
  requests: z.number().int().optional(),
  /** Where the stacks' state is: moto's S3 on loopback, or a file:// directory (runs before 2026-11-27: file). */
  backend: z.enum(["s3", "file"]).optional(),
  stacks: z.number().int().positive(),
  connectorsPerStack: z.number().int().min(0),
  /** The fleet's --concurrency (fleet-drift only). */
  concurrency: z.number().int().positive().optional(),
  /** 1-minute load average when the measurement ended: other work on the machine skews wall times. */
  loadAverage: z.number().optional(),
  /** The measurement's wall time: with `--repeat N`, the median run's (its CPU and counts with it). */
  wallMs: z.number(),
  /** With `--repeat N` (N > 1): every run's wall time, in the order measured. */
  wallRunsMs: z.array(z.number()).optional(),
  /** CPU time of the processes the measurement started (reaped: the fleet's, or every engine's and host's). */
  cpuMs: z.number().optional(),
  /** Tokens the service issued during the measurement. */
  tokensRequested: z.number().int().optional(),
  /** 429 answers the service gave during the measurement (each waited out). */
  throttled: z.number().int().optional(),
  /** The service's rate limit per client id (0: off). */
  rateLimitPerSecond: z.number().int().optional(),
  perStackMs: z.number(),
  command: z.string(),
  measuredAt: z.string(),
});
export type FleetBenchRecord = z.infer<typeof FleetRecordSchema>;

const keyOf = (r: FleetBenchRecord) =>
  `${r.kind}|${r.backend ?? "file"}|${r.stacks}|${r.connectorsPerStack}|${r.concurrency ?? ""}` +
  `${r.secrets && r.secrets !== "passphrase" ? `|${r.secrets}` : ""}${r.generated ? "|generated" : ""}${r.flags ? `|${r.flags}` : ""}`;

/** Records of a later run replace those of the same kind, size and concurrency. */
export function mergeFleetRecords(base: FleetBenchRecord[] | undefined, next: FleetBenchRecord[]): FleetBenchRecord[] {
  const byKey = new Map((base ?? []).map((r) => [keyOf(r), r]));
  for (const r of next) byKey.set(keyOf(r), r);
  return [...byKey.values()];
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The latest run's rows at its smallest fleet: the same stacks checked each way, as one chart. */
function latestComparison(records: FleetBenchRecord[]): string[] {
  const latest = records.reduce((a, b) => (b.run > a.run ? b : a)).run;
  const rows = records.filter((r) => r.run === latest);
  const stacks = Math.min(...rows.map((r) => r.stacks));
  const same = rows.filter((r) => r.stacks === stacks).sort((a, b) => a.wallMs - b.wallMs);
  const label = (r: FleetBenchRecord) => `${HOW[r.kind]}${r.concurrency ? `, concurrency ${r.concurrency}` : ""}`;
  return barChart(
    `${stacks} stacks checked for drift (run ${latest}): wall s`,
    "wall s",
    same.map((r) => [label(r), r.wallMs / 1000]),
  );
}

const HOW: Record<FleetBenchRecord["kind"], string> = {
  "fleet-drift": "fleet",
  "fleet-drift-engine": "fleet, --engine",
  "sequential-refresh": "loop: refresh --preview-only",
  "sequential-preview": "loop: preview --refresh",
  "key-derivation": "bound: passphrase keys",
};

/** The ratio of a run's loop of `kind` (same size) to this record's wall time. */
function ratio(records: FleetBenchRecord[], r: FleetBenchRecord, kind: FleetBenchRecord["kind"]): string {
  if (!r.kind.startsWith("fleet-")) return "";
  const loop = records.find(
    (x) =>
      x.run === r.run &&
      x.kind === kind &&
      (x.backend ?? "file") === (r.backend ?? "file") &&
      x.stacks === r.stacks &&
      (x.secrets ?? "passphrase") === (r.secrets ?? "passphrase") &&
      (x.generated ?? false) === (r.generated ?? false) &&
      x.connectorsPerStack === r.connectorsPerStack,
  );
  return loop ? `${(loop.wallMs / r.wallMs).toFixed(2)}×` : "";
}

export function fleetSection(records: FleetBenchRecord[] | undefined): string[] {
  if (!records || records.length === 0) return [];
  const lines = [
    "## A fleet of sub-accounts: `fleet drift` against the sequential loops",
    "",
    "`npm run bench:fleet` (bench/fleet.ts): examples/fleet (the plugin `embedded`, a TypeScript program),",
    "one stack per sub-account of the local service, every stack checked for drift in the same run:",
    "`pulumi-embedded-connectors fleet drift` (each stack's checkpoint read from the backend, its",
    "sub-account read and compared by the provider's own code in the fleet's process, one client per",
    "customer), `fleet drift --engine` (`pulumi refresh --preview-only` per stack, k at a time), and the",
    "loops one stack after the other: `pulumi refresh --preview-only --expect-no-changes` (Pulumi's drift",
    "check) and `pulumi preview --refresh --expect-no-changes` (also runs the program). The generated rows",
    "(`--large`) are stacks written from a template stack's checkpoint (bench/fleet-large.ts), checked under",
    "the service's rate limit; since 2026-11-27 each has its own encryption salt (one passphrase key to derive",
    "per stack, as `pulumi stack init` makes them; before, they shared their template's). The backend is",
    "`s3` (moto's server on loopback, which the CLI and the fleet both use: `--backend s3`, the default) or",
    "`file` (a file:// directory; every run before 2026-11-27). CPU s: the processes the measurement started,",
    "reaped (the fleet's own, or every engine's, language host's and provider's of the loop); not the local",
    "service's nor moto's. Runs before 2026-11-26 measured a `fleet drift` that ran `preview --refresh`",
    "per stack, and rows with 0 connectors per stack the per-stack bound of the engine. Since 2026-12-02 the",
    "small fleet's `fleet drift` and refresh loop run `--repeat` times each (3 by default), in turn; the row",
    "is the median run, the others in brackets.",
    "",
    "| run | backend | secrets | stacks | connectors/stack | how | concurrency | wall s | CPU s | per stack s | refresh loop / this | preview loop / this | requests/stack | tokens | 429s | rate limit/s | load |",
    "|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const sorted = [...records].sort(
    (a, b) =>
      (a.run < b.run ? -1 : a.run > b.run ? 1 : 0) ||
      a.stacks - b.stacks ||
      b.connectorsPerStack - a.connectorsPerStack ||
      (a.secrets ?? "").localeCompare(b.secrets ?? "") ||
      a.kind.localeCompare(b.kind) ||
      (a.flags ?? "").localeCompare(b.flags ?? "") ||
      (b.concurrency ?? 0) - (a.concurrency ?? 0),
  );
  for (const r of sorted) {
    const cells = [
      r.run,
      r.backend ?? "file",
      r.secrets ?? "passphrase",
      `${r.stacks}${r.generated ? " generated" : ""}`,
      r.connectorsPerStack,
      `${HOW[r.kind]}: \`${r.command}\``,
      r.concurrency ?? "",
      r.wallRunsMs && r.wallRunsMs.length > 1
        ? `${seconds(r.wallMs)} (median of ${r.wallRunsMs.map(seconds).join(" / ")})`
        : seconds(r.wallMs),
      r.cpuMs === undefined ? "" : seconds(r.cpuMs),
      (r.perStackMs / 1000).toFixed(2),
      ratio(records, r, "sequential-refresh"),
      ratio(records, r, "sequential-preview"),
      r.requests === undefined ? "" : (r.requests / r.stacks).toFixed(2),
      r.tokensRequested ?? "",
      r.throttled ?? "",
      r.rateLimitPerSecond ?? "",
      r.loadAverage ?? "",
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return [...lines, "", ...latestComparison(records)];
}
