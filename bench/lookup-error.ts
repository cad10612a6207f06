// How long a failing lookup takes to show, against a plain error in the same program shape
// (issue 25, item 4): `preview` of test/e2e/programs/lookups, shape "readme" (the README's
// example with its first lookup's name misspelt) and shape "thrown" (that lookup replaced by
// `pulumi.output(Promise.reject(new Error(…)))`), for the dynamic provider's functions and
// the plugin's SDK, interleaved, `--repeat` times each (median kept). Writes
// bench/lookup-error.json and bench/sections/lookup-error.md, then re-renders BENCHMARKS.md.
//
//   npm run bench:lookup-error [-- --repeat 3]
import { parseArgs } from "node:util";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot, disposeEngine, ensureEngine } from "../harness/engine";
import { startServiceProcess } from "../harness/service-process";
import { writeMeasuredSection } from "./render";
import { createBenchStack } from "./stack";

const HOSTS = ["dynamic", "plugin"] as const;
const SHAPES = ["readme", "thrown"] as const;

interface Measurement {
  host: (typeof HOSTS)[number];
  shape: (typeof SHAPES)[number];
  wallRunsMs: number[];
  medianMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  // Strict: a misspelled flag fails instead of running the default.
  const { values } = parseArgs({ options: { repeat: { type: "string", default: "3" } }, strict: true });
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat takes a whole number from 1");
  const run = new Date().toISOString();
  // Other work on the machine skews wall times: said beside the numbers.
  const loadAtStart = os.loadavg()[0];
  const engine = await ensureEngine();
  const service = await startServiceProcess();
  const customer = service.customers[0];
  const settings = {
    baseUrl: service.baseUrl,
    clientId: customer.clientId,
    clientSecret: customer.clientSecret,
    accountId: customer.subAccountIds[0],
  };
  const programDir = path.join(repoRoot, "test", "e2e", "programs", "lookups");
  const measurements: Measurement[] = [];
  try {
    for (const host of HOSTS) {
      const bench = await createBenchStack("lookups", settings, { host }, {}, programDir);
      try {
        const runs = new Map<string, number[]>(SHAPES.map((shape) => [shape, []]));
        for (let i = 0; i < repeat; i++) {
          for (const shape of SHAPES) {
            await bench.stack.setConfig("e2e-lookups:shape", { value: shape });
            const started = performance.now();
            const failed = await bench.stack.preview().then(
              () => false,
              () => true,
            );
            const elapsed = performance.now() - started;
            if (!failed) throw new Error(`the ${shape} program of ${host} did not fail`);
            runs.get(shape)!.push(Math.round(elapsed));
          }
        }
        for (const shape of SHAPES) {
          const wallRunsMs = runs.get(shape)!;
          measurements.push({ host, shape, wallRunsMs, medianMs: median(wallRunsMs) });
        }
      } finally {
        await bench.dispose();
      }
    }
  } finally {
    await service.stop();
    await disposeEngine();
  }
  const machine =
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), Node ${process.version}, Pulumi CLI ${engine.command.version?.toString() ?? "unknown"}, ` +
    `load average (1 min) ${loadAtStart.toFixed(1)} at the start`;
  const command = `npm run bench:lookup-error -- --repeat ${repeat}`;
  await fs.writeFile(
    path.join(repoRoot, "bench", "lookup-error.json"),
    `${JSON.stringify({ run, machine, command, measurements }, null, 2)}\n`,
  );
  const row = (host: string) => {
    const of = (shape: string) => measurements.find((m) => m.host === host && m.shape === shape)!;
    const lookup = of("readme");
    const thrown = of("thrown");
    return `| ${host} | ${(lookup.medianMs / 1000).toFixed(1)} s (${lookup.wallRunsMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")}) | ${(thrown.medianMs / 1000).toFixed(1)} s (${thrown.wallRunsMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")}) | ${(lookup.medianMs / thrown.medianMs).toFixed(2)} |`;
  };
  const section = [
    "## Time to a failing lookup's error (issue 25)",
    "",
    `Run ${run}, ${machine}. Command: \`${command}\` (bench/lookup-error.ts; data in bench/lookup-error.json).`,
    "`pulumi preview` of test/e2e/programs/lookups until it fails: the README's example with the first lookup's",
    'name misspelt ("Amazon S4"), against the same program with that lookup replaced by a plain rejected Output.',
    "Wall time of the whole preview (engine start included), median of the runs listed.",
    "",
    "| lookups of | failing lookup | plain thrown error | ratio |",
    "|---|---|---|---|",
    ...HOSTS.map(row),
    "",
  ].join("\n");
  await writeMeasuredSection(repoRoot, "lookup-error", section);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
