// scripts/suite-lanes.js: `npm test` runs every test file exactly once, files sharing a
// once-per-process set-up in one lane (so it is still made once), lanes balanced by the recorded
// durations.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";

const ROOT = path.join(__dirname, "../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lanes = require(path.join(ROOT, "scripts/suite-lanes.js")) as {
  sharedReached(distRoot: string, id: string, shared?: string[]): string[];
  processGroups(files: string[], reached: (file: string) => string[]): string[][];
  assignLanes(
    groups: string[][],
    durations: Record<string, number>,
    count: number,
  ): { files: string[]; seconds: number }[];
};

const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe("scripts/suite-lanes.js", () => {
  it("finds a once-per-process module reached through other modules, and none a file does not reach", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "suite-lanes-"));
    try {
      mkdirSync(path.join(dist, "test/e2e"), { recursive: true });
      mkdirSync(path.join(dist, "harness"), { recursive: true });
      writeFileSync(path.join(dist, "test/e2e/a.test.js"), 'const s = require("./suite");');
      writeFileSync(path.join(dist, "test/e2e/suite.js"), 'require("../../harness/moto"); require("node:fs");');
      writeFileSync(path.join(dist, "harness/moto.js"), "");
      writeFileSync(path.join(dist, "test/e2e/b.test.js"), 'require("./other.js");');
      writeFileSync(path.join(dist, "test/e2e/other.js"), 'require("./b.test");'); // a cycle ends
      assert.deepEqual(lanes.sharedReached(dist, "test/e2e/a.test", ["harness/moto"]), ["harness/moto"]);
      assert.deepEqual(lanes.sharedReached(dist, "test/e2e/b.test", ["harness/moto"]), []);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it(`puts every file in exactly one lane, and files sharing a set-up in the same lane (seed ${SEED})`, () => {
    const file = fc.integer({ min: 0, max: 40 }).map((n) => `test/e2e/f${n}.test`);
    fc.assert(
      fc.property(
        fc.uniqueArray(file, { minLength: 1, maxLength: 30 }),
        fc.dictionary(file, fc.subarray(["fleet", "registries", "moto"])),
        fc.dictionary(file, fc.float({ min: 0, max: 600, noNaN: true })),
        fc.integer({ min: 1, max: 4 }),
        (files, shares, durations, count) => {
          const groups = lanes.processGroups(files, (f) => shares[f] ?? []);
          const result = lanes.assignLanes(groups, durations, count);
          const all = result.flatMap((lane) => lane.files);
          assert.deepEqual([...all].sort(), [...files].sort(), "every file once");
          for (const shared of ["fleet", "registries", "moto"]) {
            const users = files.filter((f) => (shares[f] ?? []).includes(shared));
            const holding = result.filter((lane) => lane.files.some((f) => users.includes(f)));
            assert.ok(holding.length <= 1, `the users of ${shared} in one lane`);
          }
        },
      ),
      { seed: SEED },
    );
  });

  it("balances by the recorded durations: the longest file alone, the rest beside it", () => {
    const durations = { "test/a.test": 600, "test/b.test": 200, "test/c.test": 250, "test/d.test": 100 };
    const groups = Object.keys(durations).map((file) => [file]);
    const [first, second] = lanes.assignLanes(groups, durations, 2);
    assert.deepEqual(first.files, ["test/a.test"]);
    assert.deepEqual(second.files, ["test/b.test", "test/c.test", "test/d.test"]);
    assert.equal(second.seconds, 550);
  });

  it("weighs a file with no record as the median recorded file", () => {
    const durations = { "test/a.test": 10, "test/b.test": 30, "test/c.test": 500 };
    const result = lanes.assignLanes(
      [["test/c.test"], ["test/a.test"], ["test/b.test"], ["test/new.test"]],
      durations,
      2,
    );
    assert.equal(
      result.reduce((sum, lane) => sum + lane.seconds, 0),
      570,
    );
  });
});
