#!/usr/bin/env node
// Runs the suite's test files (dist/test/**/*.test.js, after `npm run build`) in mocha processes
// that work at once, one per lane, and then any `--also` commands in the lane that ends first:
//
//   node scripts/run-suite.js [--lanes N] [--also "<command>"]... [--plan] [--record]
//
// Most of the suite waits on engines, language hosts and services, so two lanes on two cores
// take a little over half the time of one. Files sharing a set-up made once per process stay in
// one lane (scripts/suite-lanes.js), and lanes are balanced by test/suite-durations.json (the
// seconds each file took in a recorded run; `--record` rewrites it from this run). Each line a
// lane prints is prefixed with `[lane]`; each lane ends with mocha's own summary and failures.
// `--plan` prints the lanes and exits. Exit status: 0 when every lane and command passed.
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const readline = require("node:readline");
const { scriptArgs } = require("./args");
const { sharedReached, processGroups, assignLanes } = require("./suite-lanes");

const repo = path.resolve(__dirname, "..");
const dist = path.join(repo, "dist");
const durationsFile = path.join(repo, "test", "suite-durations.json");
const usage = 'node scripts/run-suite.js [--lanes N] [--also "<command>"]... [--plan] [--record]';

function testIds() {
  return fs
    .readdirSync(path.join(dist, "test"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".test.js"))
    .map((file) => `test/${file.split(path.sep).join("/").replace(/\.js$/, "")}`)
    .sort();
}

function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(durationsFile, "utf8"));
  } catch {
    return {};
  }
}

/** Runs `command` (argv) with its output prefixed; resolves to its exit code. */
function run(label, argv, env) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${label}] ${line}\n`));
    }
    child.on("error", (error) => {
      process.stdout.write(`[${label}] could not start ${argv[0]}: ${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const args = scriptArgs(usage, {
    lanes: { type: "string", default: String(Math.max(1, Math.min(2, os.availableParallelism()))) },
    also: { type: "string", multiple: true, default: [] },
    plan: { type: "boolean", default: false },
    record: { type: "boolean", default: false },
  });
  const count = Number(args.lanes);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`--lanes takes a whole number of at least 1 (got ${JSON.stringify(args.lanes)})\nusage: ${usage}`);
    process.exit(2);
  }
  if (!fs.existsSync(path.join(dist, "test"))) {
    console.error("dist/test does not exist: run `npm run build` first");
    process.exit(1);
  }
  const ids = testIds();
  const durations = readDurations();
  const lanes = assignLanes(
    processGroups(ids, (id) => sharedReached(dist, id)),
    durations,
    count,
  ).filter((lane) => lane.files.length > 0);
  lanes.forEach((lane, index) =>
    console.log(`lane ${index + 1}: ${lane.files.length} files, about ${Math.round(lane.seconds / 60)} min recorded`),
  );
  if (args.plan) {
    lanes.forEach((lane, index) => lane.files.forEach((file) => console.log(`  ${index + 1} ${file}`)));
    return;
  }
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "suite-lanes-"));
  const mocha = path.join(repo, "node_modules", "mocha", "bin", "mocha.js");
  const reporter = path.join(repo, "scripts", "timed-spec-reporter.js");
  const also = [...args.also];
  const outcomes = await Promise.all(
    lanes.map(async (lane, index) => {
      const out = path.join(tmp, `lane-${index + 1}.json`);
      const files = lane.files.map((id) => path.join("dist", `${id}.js`));
      const env = { ...process.env, SUITE_DURATIONS_OUT: out, SUITE_LANE: String(index + 1) };
      let code = await run(String(index + 1), [process.execPath, mocha, "--reporter", reporter, ...files], env);
      const minutes = ((Date.now() - started) / 60000).toFixed(1);
      console.log(`lane ${index + 1}: mocha ${code === 0 ? "passed" : `failed (exit ${code})`} after ${minutes} min`);
      // The commands run in whichever lane is free first, one after another.
      for (let command = also.shift(); command !== undefined; command = also.shift()) {
        const commandCode = await run(`${index + 1}+`, ["/bin/sh", "-c", command], process.env);
        console.log(
          `lane ${index + 1}: \`${command}\` ${commandCode === 0 ? "passed" : `failed (exit ${commandCode})`}`,
        );
        code ||= commandCode;
      }
      return { code, out };
    }),
  );
  if (args.record) {
    const measured = Object.assign(
      {},
      ...outcomes.map(({ out }) => (fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : {})),
    );
    const kept = Object.fromEntries(
      Object.entries({ ...durations, ...measured })
        .filter(([id]) => ids.includes(id))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    fs.writeFileSync(durationsFile, `${JSON.stringify(kept, null, 2)}\n`);
    console.log(`recorded ${Object.keys(measured).length} files' durations in ${path.relative(repo, durationsFile)}`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const failed = outcomes.filter(({ code }) => code !== 0).length;
  console.log(
    `the suite: ${failed === 0 ? "passed" : `${failed} lane(s) failed`} in ${((Date.now() - started) / 60000).toFixed(1)} min`,
  );
  process.exit(failed === 0 ? 0 : 1);
}

main();
