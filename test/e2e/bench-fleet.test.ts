// `npm run bench:fleet` at a tiny size, so that it cannot break silently (it once crashed
// after its first phase for months). Its records go to a copy of bench/results.json in a
// temporary directory, never to the repository's; every kind of row must be there, each drift
// check having found every stack clean (the bench fails otherwise), the stacks on moto's S3, the
// generated ones each under its own salt (the CLI itself refreshes one of them: the bench fails
// if it finds it unreadable or drifted).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { FleetBenchRecord } from "../../bench/fleet-results";
import { ensureEngine, repoRoot } from "./harness";

const execFileAsync = promisify(execFile);

describe("e2e: npm run bench:fleet at a tiny size", function () {
  this.timeout(20 * 60_000);

  it("runs every phase from a clean checkout and records each row, the generated stacks' too", async () => {
    await ensureEngine(); // builds the engine first if needed (the bench then finds it cached)
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-fleet-"));
    const results = path.join(dir, "results.json");
    await fs.copyFile(path.join(repoRoot, "bench", "results.json"), results);
    try {
      const started = Date.now();
      await execFileAsync(
        process.execPath,
        [
          path.join(repoRoot, "dist", "bench", "fleet.js"),
          ...["--stacks", "2", "--connectors", "1", "--large", "4", "--repeat", "2", "--results", results],
        ],
        { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
      ).catch((e: { stderr?: string; message: string }) => {
        throw new Error(`bench:fleet failed: ${(e.stderr ?? e.message).slice(-3000)}`);
      });
      console.log(
        `    bench:fleet --stacks 2 --connectors 1 --large 4 --repeat 2: ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      const raw = JSON.parse(await fs.readFile(results, "utf8")) as { fleet: FleetBenchRecord[] };
      const run = raw.fleet
        .map((r) => r.run)
        .sort()
        .at(-1);
      const rows = raw.fleet.filter((r) => r.run === run);
      // The generated stacks: fleet drift without and with discovery and history (issue 46, point 8), the refresh
      // loop on them, and the bound their passphrase keys set.
      assert.deepEqual(rows.map((r) => `${r.kind} ${r.stacks}${r.flags ? ` ${r.flags}` : ""}`).sort(), [
        "fleet-drift 2",
        "fleet-drift 4 --history backend",
        "fleet-drift 4 --no-discovery",
        "fleet-drift-engine 2",
        "key-derivation 4",
        "sequential-preview 2",
        "sequential-refresh 2",
        "sequential-refresh 4",
      ]);
      // On S3 (moto) by default, each row with the CPU time of what it ran.
      assert.ok(
        rows.every((r) => r.backend === "s3" && typeof r.cpuMs === "number" && r.cpuMs > 0),
        JSON.stringify(rows),
      );
      // The small fleet's two compared rows: each the median of its --repeat runs, every run kept.
      for (const small of rows.filter((r) => r.stacks === 2 && ["fleet-drift", "sequential-refresh"].includes(r.kind)))
        assert.equal(small.wallRunsMs?.length, 2, `${small.kind}: ${JSON.stringify(small.wallRunsMs)}`);
      for (const large of rows.filter((r) => r.kind === "fleet-drift" && r.stacks === 4))
        assert.equal(large.tokensRequested, 2, "one token per customer for the generated stacks");
      const markdown = await fs.readFile(path.join(dir, "BENCHMARKS.md"), "utf8");
      assert.match(markdown, /refresh loop \/ this/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
