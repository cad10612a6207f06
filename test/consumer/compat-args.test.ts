// What `npm test` runs of the compatibility matrix: every cell, (a) as
// consumer.test.ts under mocha and (b), (c) through compat.js; and COMPATIBILITY.md, a tracked
// file, is written only when asked (`npm run test:compat -- --write`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";
import { parseCompatArgs } from "./compat";
import { renderCompatibility } from "./compat-report";

describe("compatibility matrix: which cells run, and when COMPATIBILITY.md is written", () => {
  it("runs every cell by default and writes nothing unless --write is given", () => {
    assert.deepEqual(parseCompatArgs([]), { cells: ["a", "b", "c"], write: false });
    assert.deepEqual(parseCompatArgs(["b", "c"]), { cells: ["b", "c"], write: false });
    assert.deepEqual(parseCompatArgs(["--write"]), { cells: ["a", "b", "c"], write: true });
    assert.deepEqual(parseCompatArgs(["c", "--write"]), { cells: ["c"], write: true });
    assert.throws(() => parseCompatArgs(["d"]), /unknown cells or options d; cells: a b c, option: --write/);
  });

  it("npm test runs cell (a) in mocha, then cells (b) and (c), without --write", () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const steps = pkg.scripts.test.split("&&").map((step) => step.trim());
    // The unit tier, then test/ (dist/test/**, consumer.test.ts (cell (a)) among them, in
    // scripts/run-suite.js' lanes), then cells (b) and (c) in the lane free first.
    assert.ok(steps.includes("npm run test:unit:built"), pkg.scripts.test);
    const suite = steps.filter((step) => step.startsWith("node scripts/run-suite.js"));
    assert.equal(suite.length, 1, pkg.scripts.test);
    const compat = [...suite[0].matchAll(/--also "([^"]+)"/g)]
      .map((match) => match[1])
      .filter((command) => command.startsWith("node dist/test/consumer/compat.js"));
    assert.equal(compat.length, 1, pkg.scripts.test);
    assert.deepEqual(parseCompatArgs(compat[0].split(/\s+/).slice(2)), { cells: ["b", "c"], write: false });
  });

  it("writing the table keeps the Python and Go part, which other tests measure, as it is", () => {
    const tracked = readFileSync(path.join(repoRoot, "COMPATIBILITY.md"), "utf8");
    const part = /<!-- languages:begin[\s\S]*?<!-- languages:end -->/.exec(tracked)?.[0];
    assert.ok(part, "COMPATIBILITY.md has its languages part");
    const written = renderCompatibility([], tracked, ">=3.139.0 <4.0.0", new Date("2026-11-25T00:00:00Z"));
    assert.ok(written.includes(part), "the part is carried over");
    assert.equal(written.split("<!-- languages:begin").length, 2, "once");
  });
});
