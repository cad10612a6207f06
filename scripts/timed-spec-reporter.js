// Mocha's spec reporter, which also measures each test file's wall time (its top suite, hooks
// included) and, when SUITE_DURATIONS_OUT names a file, writes them there as JSON at the end:
// { "test/e2e/fleet.test": 183.2, ... } (seconds, by module id under dist/). scripts/run-suite.js
// uses it to balance its lanes; the durations are a record of a run, never asserted.
const path = require("node:path");
const fs = require("node:fs");
const Mocha = require("mocha");

const dist = path.resolve(__dirname, "..", "dist");

class TimedSpec extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const durations = {};
    const idOf = (file) => path.relative(dist, file).split(path.sep).join("/").replace(/\.js$/, "");
    runner.on("suite", (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, process.hrtime.bigint());
    });
    runner.on("suite end", (suite) => {
      const start = started.get(suite);
      if (start === undefined) return;
      const id = idOf(suite.file);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      durations[id] = Math.round(((durations[id] ?? 0) + seconds) * 10) / 10;
    });
    runner.once("end", () => {
      const out = process.env.SUITE_DURATIONS_OUT;
      if (out) fs.writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
    });
  }
}

module.exports = TimedSpec;
