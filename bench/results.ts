// bench/results.json: one record per measurement, plus the machine and the commands that
// produced them. Records of a later run replace those of the same provider, N, latency,
// operation, --parallel and --env, so a partial run (`--append`) adds to a full one instead of
// erasing it.
import { promises as fs } from "node:fs";
import { z } from "zod";
import { FleetRecordSchema, mergeFleetRecords } from "./fleet-results";

export const PROVIDERS = ["this", "floor", "naive", "plugin", "plugin-floor"] as const;
export const OPERATIONS = ["up", "preview", "refresh", "rotate", "destroy"] as const;

/**
 * Named engine setups a provider can be run with in an invocation (`--providers plugin:recommended`),
 * beside the others at the invocation's own `--parallel`/`--env`, so that one run compares them.
 * `recommended`: the levers BENCHMARKS.md recommends for a large stack (bench/analysis.md says why).
 */
export const SETUPS = {
  recommended: { parallel: 32, env: { PULUMI_SKIP_CHECKPOINTS: "true" } },
} as const satisfies Record<string, { parallel: number; env: Record<string, string> }>;
export type SetupName = keyof typeof SETUPS;
export const SETUP_NAMES = Object.keys(SETUPS) as [SetupName, ...SetupName[]];

export const RecordSchema = z.object({
  provider: z.enum(PROVIDERS),
  n: z.number().int().positive(),
  latencyMs: z.number().int().min(0),
  /** up (create), preview (no change), refresh, rotate (secret-rotation up), destroy. */
  operation: z.enum(OPERATIONS),
  /** The engine's --parallel; absent: its default (4 × CPUs). */
  parallel: z.number().int().positive().optional(),
  /** Environment variables given to every engine run (`--env`, e.g. PULUMI_SKIP_CHECKPOINTS); absent: none. */
  env: z.record(z.string(), z.string()).optional(),
  /** The median of `wallRunsMs`; the other fields are those of the run with that wall time. */
  wallMs: z.number(),
  /** Wall time of every repetition (`--repeat`), in the order run. */
  wallRunsMs: z.array(z.number()).optional(),
  /** Requests per route ("METHOD /pattern"), any status, token route included. */
  calls: z.record(z.string(), z.number().int()),
  /** Requests that did not answer 2xx. */
  failedCalls: z.number().int(),
  tokenRequests: z.number().int(),
  /** Largest VmHWM of the provider process(es) of the operation (dynamic-provider or plugin); null when not seen. */
  peakRssMiB: z.number().nullable(),
  /** Resources the engine reported for the operation (create, same, update, delete …). */
  resourceChanges: z.record(z.string(), z.number()),
  measuredAt: z.string(),
  /** The invocation that measured it (its start time): records of one run compare "in the same run". */
  run: z.string().optional(),
});
export type BenchRecord = z.infer<typeof RecordSchema>;

export const MachineSchema = z.object({
  nproc: z.number().int(),
  memoryGiB: z.number(),
  cpuModel: z.string(),
  node: z.string(),
  pulumi: z.string(),
  platform: z.string(),
  /** 1-minute load average when the run started: other work on the machine skews wall times. */
  loadAverage: z.number().optional(),
});
export type Machine = z.infer<typeof MachineSchema>;

export const ResultsSchema = z.object({
  machine: MachineSchema,
  /** Every command that contributed records, in order. */
  commands: z.array(z.string()),
  records: z.array(RecordSchema),
  /** `npm run bench:fleet` (bench/fleet-results.ts). */
  fleet: z.array(FleetRecordSchema).optional(),
});
export type Results = z.infer<typeof ResultsSchema>;

/** `--env` as text, `K=V,K=V` sorted by name; "" for none. */
export function envText(env: Record<string, string> | undefined): string {
  return Object.entries(env ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join(",");
}

export function recordKey(
  r: Pick<BenchRecord, "provider" | "n" | "latencyMs" | "operation" | "parallel" | "env">,
): string {
  const env = envText(r.env);
  return `${r.provider}|${r.n}|${r.latencyMs}|${r.operation}|${r.parallel ?? "default"}${env ? `|${env}` : ""}`;
}

/**
 * One record per key from repeated measurements: the run with the median wall time (the
 * lower middle one for an even count), with every run's wall time kept in `wallRunsMs`.
 */
export function medianRecords(records: BenchRecord[]): BenchRecord[] {
  const groups = new Map<string, BenchRecord[]>();
  for (const r of records) groups.set(recordKey(r), [...(groups.get(recordKey(r)) ?? []), r]);
  return [...groups.values()].map((runs) => ({ ...medianRun(runs), wallRunsMs: runs.map((r) => r.wallMs) }));
}

/** The run with the median wall time: the lower middle one for an even count. */
export function medianRun<T extends { wallMs: number }>(runs: T[]): T {
  if (runs.length === 0) throw new Error("no run to take the median of");
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
}

export async function loadResults(file: string): Promise<Results | undefined> {
  try {
    return ResultsSchema.parse(JSON.parse(await fs.readFile(file, "utf8")));
  } catch {
    return undefined;
  }
}

/** Merges `next` into `base` (same key: the newer record wins). */
export function mergeResults(base: Results | undefined, next: Results): Results {
  if (!base) return next;
  const byKey = new Map(base.records.map((r) => [recordKey(r), r]));
  for (const r of next.records) byKey.set(recordKey(r), r);
  const fleet = next.fleet || base.fleet ? { fleet: mergeFleetRecords(base.fleet, next.fleet ?? []) } : {};
  return {
    machine: next.machine,
    commands: [...base.commands, ...next.commands],
    records: [...byKey.values()],
    ...fleet,
  };
}

export async function saveResults(file: string, results: Results): Promise<void> {
  // Grouped as the tables are (--parallel, --env, latency, N), then provider and operation.
  const order = (r: BenchRecord) => [r.latencyMs, r.n, PROVIDERS.indexOf(r.provider), OPERATIONS.indexOf(r.operation)];
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...results.records].sort((a, b) => {
    const group = (a.parallel ?? 0) - (b.parallel ?? 0) || text(envText(a.env), envText(b.env));
    if (group !== 0) return group;
    const [x, y] = [order(a), order(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  });
  await fs.writeFile(file, `${JSON.stringify({ ...results, records: sorted }, null, 2)}\n`);
}

/** Calls to routes whose key matches `pattern`, summed. */
export function callsMatching(r: BenchRecord, pattern: RegExp): number {
  return Object.entries(r.calls).reduce((sum, [route, n]) => sum + (pattern.test(route) ? n : 0), 0);
}

/** Service calls excluding the token route. */
export function apiCalls(r: BenchRecord): number {
  return callsMatching(r, /^(?!POST \/es\/v2\/oauth)/);
}

/** Route keys of the service's stats, as the tables and targets count them. */
export const ROUTE = {
  add: /^POST \/es\/v2\/connectors$/,
  listAdded: /^GET \/es\/v2\/connectors\/added$/,
  getConnector: /^GET \/es\/v2\/connectors\/:connectorId$/,
  getConfiguration: /^GET \/es\/v2\/connectors\/:connectorId\/configuration$/,
  putConfiguration: /^PUT /,
  remove: /^DELETE /,
} as const;

/** The engine settings of a table: --parallel (undefined: the engine's default) and --env ("" for none). */
export interface Setting {
  parallel?: number;
  env: string;
}

export const DEFAULT_SETTING: Setting = { parallel: undefined, env: "" };

/** The engine's --parallel and environment of a run: a named setup's (SETUPS), else the invocation's own. */
export function engineSetup(
  setup: SetupName | undefined,
  invocation: { parallel?: number; env?: Record<string, string> },
): { parallel?: number; env?: Record<string, string> } {
  return setup
    ? { parallel: SETUPS[setup].parallel, env: { ...SETUPS[setup].env } }
    : { parallel: invocation.parallel, env: invocation.env };
}

/** The setting a named setup gives (SETUPS), in a table's terms. */
export function settingOf(setup: SetupName): Setting {
  const { parallel, env } = engineSetup(setup, {});
  return { parallel, env: envText(env) };
}

export function findRecord(
  records: BenchRecord[],
  provider: string,
  n: number,
  latencyMs: number,
  operation: string,
  setting = DEFAULT_SETTING,
): BenchRecord | undefined {
  return records.find(
    (r) =>
      r.provider === provider &&
      r.n === n &&
      r.latencyMs === latencyMs &&
      r.operation === operation &&
      r.parallel === setting.parallel &&
      envText(r.env) === setting.env,
  );
}
