// The quick chaos form in CI: every scenario of the fault matrix once, with 10 AddedConnectors
// and 5 ConnectorConfigurations (about 6 minutes on a 2-core machine). The full form is
// `npm run chaos -- --runs 3` (50 and 25); see RELIABILITY.md.
import assert from "node:assert/strict";
import { runChaos, table } from "./run";

describe("chaos (quick form): nothing lost after at most two runs, no secret in clear", function () {
  this.timeout(20 * 60_000);

  it("every scenario converges, with no duplicate, orphan, disagreement or leak", async () => {
    const rows = await runChaos({ runs: 1, connectors: 10, configurations: 5, seed: 1, log: () => undefined });
    const report = table(rows);
    for (const row of rows) {
      const notes = row.notes.join("\n");
      assert.equal(row.neverConverged, 0, `${row.scenario} did not converge in two runs\n${report}\n${notes}`);
      assert.equal(row.duplicates + row.orphans + row.missing + row.disagreements, 0, `${row.scenario} lost something\n${report}\n${notes}`);
      assert.equal(row.leaks, 0, `${row.scenario}: a canary appeared in clear\n${report}`);
    }
  });
});
