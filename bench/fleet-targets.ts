// Issue 46's point 8 (cost at scale) with the measured value beside each target, from the
// `fleet` records of bench/results.json (`npm run bench:fleet`): each comparison between
// records of one run only, the latest run that measured it.
import type { FleetBenchRecord } from "./fleet-results";

const verdict = (met: boolean | undefined) => (met === undefined ? "not measured" : met ? "yes" : "**no**");
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perStack = (r: FleetBenchRecord) => r.wallMs / r.stacks;

type Match = Partial<Pick<FleetBenchRecord, "kind" | "backend" | "stacks" | "flags">> & {
  secrets?: "passphrase" | "awskms";
  generated?: boolean;
};

function matches(r: FleetBenchRecord, m: Match): boolean {
  return (
    (m.kind === undefined || r.kind === m.kind) &&
    (m.backend === undefined || (r.backend ?? "file") === m.backend) &&
    (m.stacks === undefined || r.stacks === m.stacks) &&
    (m.secrets === undefined || (r.secrets ?? "passphrase") === m.secrets) &&
    (m.generated === undefined || (r.generated ?? false) === m.generated) &&
    (!("flags" in m) || (r.flags ?? "") === (m.flags ?? ""))
  );
}

/** The latest run holding one record of each `match`; those records, in order. */
function latestTogether(records: FleetBenchRecord[], ...match: Match[]): FleetBenchRecord[] | undefined {
  const runs = [...new Set(records.map((r) => r.run))].sort().reverse();
  for (const run of runs) {
    const found = match.map((m) => records.find((r) => r.run === run && matches(r, m)));
    if (found.every((r) => r !== undefined)) return found as FleetBenchRecord[];
  }
  return undefined;
}

const medianOf = (r: FleetBenchRecord) =>
  r.wallRunsMs && r.wallRunsMs.length > 1 ? `, medians of ${r.wallRunsMs.length} runs in turn` : "";
const load = (rs: FleetBenchRecord[]) => `load ${rs.map((r) => r.loadAverage ?? "?").join("/")}, run ${rs[0].run}`;

export function issue46Targets(records: FleetBenchRecord[] | undefined): string[] {
  const all = records ?? [];
  const lines = ["### Issue 46, point 8 (cost at scale)", "", "| target | measured | met? |", "|---|---|---|"];
  const row = (target: string, measured: string, met: boolean | undefined) =>
    lines.push(`| ${target} | ${measured} | ${verdict(met)} |`);

  for (const backend of ["file", "s3"] as const) {
    const small = { backend, stacks: 20, secrets: "passphrase", generated: false } as const;
    const found = latestTogether(
      all,
      { ...small, kind: "fleet-drift", flags: undefined },
      { ...small, kind: "sequential-refresh" },
    );
    const x = found && found[1].wallMs / found[0].wallMs;
    row(
      `20 stacks × 10 connectors, ${backend === "file" ? "`file://`" : "S3"}, passphrase: the \`refresh --preview-only\` loop / \`fleet drift\` ≥ 5× (it was 4.34×)`,
      found && x !== undefined
        ? `${x.toFixed(2)}× (loop ${s(found[1].wallMs)}, fleet drift ${s(found[0].wallMs)}${medianOf(found[0])}; ${load(found)})`
        : "–",
      x === undefined ? undefined : x >= 5,
    );
  }

  const scale = { kind: "fleet-drift", backend: "s3", generated: true, secrets: "passphrase" } as const;
  const pair = latestTogether(all, { ...scale, flags: "--no-discovery" }, { ...scale, flags: "--history backend" });
  if (pair && pair[0].stacks === pair[1].stacks) {
    const [off, on] = pair;
    const req = (r: FleetBenchRecord) => (r.requests ?? NaN) / r.stacks;
    const wall = on.wallMs / off.wallMs - 1;
    const cpu = (on.cpuMs ?? NaN) / (off.cpuMs ?? NaN) - 1;
    const extra = req(on) - req(off);
    const pct = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} %`;
    row(
      `${off.stacks} generated stacks, S3: \`fleet drift\` with discovery and \`--history backend\` against \`--no-discovery\`: ≤ +10 % wall and CPU, ≤ 1 request more per sub-account`,
      `wall ${s(off.wallMs)} → ${s(on.wallMs)} (${pct(wall)}); CPU ${s(off.cpuMs ?? NaN)} → ${s(on.cpuMs ?? NaN)} (${pct(cpu)}); requests per sub-account ${req(off).toFixed(2)} → ${req(on).toFixed(2)} (${extra >= 0 ? "+" : ""}${extra.toFixed(2)}); ${load(pair)}`,
      wall <= 0.1 && cpu <= 0.1 && extra <= 1,
    );
  } else
    row("1,000 generated stacks, S3: discovery and history ≤ +10 % and ≤ 1 request per sub-account", "–", undefined);

  const kms = { backend: "s3", generated: true, secrets: "awskms" } as const;
  const k = latestTogether(
    all,
    { ...kms, kind: "fleet-drift", flags: "--history backend" },
    { ...kms, kind: "sequential-refresh" },
  );
  const kx = k && perStack(k[1]) / perStack(k[0]);
  row(
    "`awskms://` (moto's KMS), S3: per stack, the refresh loop (on 50 of the generated stacks) / `fleet drift` (all of them, discovery and history on) ≥ 10×",
    k && kx !== undefined
      ? `${kx.toFixed(2)}× (loop ${s(perStack(k[1]))} a stack over ${k[1].stacks}, fleet drift ${s(perStack(k[0]))} a stack over ${k[0].stacks}; ${load(k)})`
      : "–",
    kx === undefined ? undefined : kx >= 10,
  );

  const pass = { backend: "s3", generated: true, secrets: "passphrase" } as const;
  const p = latestTogether(
    all,
    { ...pass, kind: "fleet-drift", flags: "--history backend" },
    { ...pass, kind: "key-derivation" },
    { ...pass, kind: "sequential-refresh" },
  );
  const px = p && perStack(p[0]) / perStack(p[1]);
  row(
    "Passphrase, S3: `fleet drift` per stack (discovery and history on) ≤ 1.2 × the bound of key derivation (one key per stack over this machine's cores)",
    p && px !== undefined
      ? `${px.toFixed(2)} × the bound (fleet drift ${s(perStack(p[0]))} a stack over ${p[0].stacks}, bound ${s(perStack(p[1]))} a key; the loop ${s(perStack(p[2]))} a stack, ${(perStack(p[2]) / perStack(p[0])).toFixed(2)}× slower; ${load(p)})`
      : "–",
    px === undefined ? undefined : px <= 1.2,
  );
  return [...lines, ""];
}
