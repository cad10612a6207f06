// bench/results.json's `fleet` records, added as `npm run bench:fleet` measures them, and
// BENCHMARKS.md rendered again from the file.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../harness/engine";
import { mergeFleetRecords, type FleetBenchRecord } from "./fleet-results";
import { loadResults, type Results } from "./results";
import { renderBenchmarks } from "./render";

/**
 * Adds the records (and the command) to bench/results.json as its text stands: the other
 * records are left byte for byte as they are, then BENCHMARKS.md is rendered again.
 */
export async function saveFleetRecords(
  command: string,
  records: FleetBenchRecord[],
  file = path.join(repoRoot, "bench", "results.json"),
): Promise<void> {
  const raw = JSON.parse(await fs.readFile(file, "utf8")) as { commands: string[]; fleet?: FleetBenchRecord[] };
  if (raw.commands.at(-1) !== command) raw.commands = [...raw.commands, command];
  raw.fleet = mergeFleetRecords(raw.fleet, records);
  await fs.writeFile(file, `${JSON.stringify(raw, null, 2)}\n`);
  const results: Results | undefined = await loadResults(file);
  if (!results) throw new Error(`${file} does not parse after adding the fleet's records`);
  const defaultFile = path.join(repoRoot, "bench", "results.json");
  const benchmarks =
    file === defaultFile ? path.join(repoRoot, "BENCHMARKS.md") : path.join(path.dirname(file), "BENCHMARKS.md");
  await renderBenchmarks(results, benchmarks);
}
