// The quick chaos form in CI: every scenario of the fault matrix once, with 10 AddedConnectors
// and 5 ConnectorConfigurations (about 6 minutes on a 2-core machine). The full form is
// `npm run chaos -- --runs 3` (50 and 25); see RELIABILITY.md. The seed (fault draws, kill
// times) is fresh at every run; a failure names it, and CHAOS_SEED=<seed> replays it.
import assert from "node:assert/strict";
import { printSeedOnFailure, seedFrom } from "../support/seed";
import { runChaos, table } from "./run";
import { SCENARIOS } from "./scenarios";

const CHAOS_SEED = seedFrom("CHAOS_SEED");

describe("chaos (quick form): one run under transient faults, two after a kill; nothing lost, no secret in clear", function () {
  this.timeout(20 * 60_000);
  printSeedOnFailure("CHAOS_SEED", CHAOS_SEED);

  it("every scenario converges, with no duplicate, orphan, disagreement or leak", async () => {
    const rows = await runChaos({ runs: 1, connectors: 10, configurations: 5, seed: CHAOS_SEED, log: () => undefined });
    const report = `${table(rows)}\n(seed ${CHAOS_SEED}: replay with CHAOS_SEED=${CHAOS_SEED})`;
    for (const row of rows) {
      const notes = row.notes.join("\n");
      assert.equal(
        row.neverConverged,
        0,
        `${row.scenario} did not converge (a second run, or after a kill the adoptions its refusals ask for)\n${report}\n${notes}`,
      );
      assert.equal(
        row.duplicates + row.orphans + row.missing + row.disagreements,
        0,
        `${row.scenario} lost something\n${report}\n${notes}`,
      );
      assert.equal(row.leaks, 0, `${row.scenario}: a canary appeared in clear\n${report}`);
      // Transient faults (5xx, 429, resets, timeouts, lost answers, restarts) converge in one run.
      if (!SCENARIOS.find((s) => s.name === row.scenario)?.killsARun) {
        assert.equal(
          row.upIn1 + row.destroyIn1,
          2 * row.runs,
          `${row.scenario} needed a second run\n${report}\n${notes}`,
        );
      }
    }
  });
});
