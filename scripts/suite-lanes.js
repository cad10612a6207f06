// How `npm test` splits the suite's test files (dist/test/**/*.test.js) between mocha processes
// that run at once (scripts/run-suite.js): pure functions, tested by scripts/suite-lanes.test.ts.
//
// Files that share a set-up made once per process (a fleet, the registries, the packed package,
// an emulator: PROCESS_SHARED) stay in one group, so the set-up is still made once. Groups go to
// lanes longest first, each to the lane with the least work so far (LPT), by the durations the
// last recorded run measured (test/suite-durations.json); a file with no record weighs as the
// median recorded file.
const fs = require("node:fs");
const path = require("node:path");

/**
 * Modules (under dist/, without `.js`) whose set-up is made once per mocha process: every test
 * file that reaches one of them, directly or through other modules, runs in the same process.
 */
const PROCESS_SHARED = [
  "test/e2e/fleet-fixture",
  "test/e2e/yaml-example-stack",
  "test/e2e/by-name-registries",
  "test/e2e/regenerated-sdk",
  "test/consumer/project",
  "test/e2e/release-server", // the release archives, built once per process
  "harness/moto",
  "harness/azurite",
  "harness/gcs",
];

/** The modules a compiled file requires by a relative path, resolved under `dist` (without `.js`). */
function relativeRequires(distRoot, moduleId) {
  const file = path.join(distRoot, `${moduleId}.js`);
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const found = new Set();
  for (const match of text.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
    let target = path.posix.normalize(path.posix.join(path.posix.dirname(moduleId), match[1]));
    if (target.endsWith(".js")) target = target.slice(0, -3);
    if (fs.existsSync(path.join(distRoot, `${target}.js`))) found.add(target);
    else if (fs.existsSync(path.join(distRoot, target, "index.js"))) found.add(`${target}/index`);
  }
  return [...found];
}

/** The process-shared modules a test file reaches, directly or not. */
function sharedReached(distRoot, moduleId, shared = PROCESS_SHARED) {
  const seen = new Set();
  const stack = [moduleId];
  while (stack.length > 0) {
    const current = stack.pop();
    if (seen.has(current)) continue;
    seen.add(current);
    stack.push(...relativeRequires(distRoot, current));
  }
  return shared.filter((id) => seen.has(id));
}

/**
 * Groups of files that must share a process: files reaching a common process-shared module
 * are joined (union-find); every other file is a group alone.
 * @param {string[]} files module ids such as `test/e2e/fleet.test`
 * @param {(file: string) => string[]} reached the process-shared modules a file reaches
 */
function processGroups(files, reached) {
  const parent = new Map(files.map((file) => [file, file]));
  const find = (file) => {
    while (parent.get(file) !== file) file = parent.get(file);
    return file;
  };
  const owner = new Map();
  for (const file of files) {
    for (const shared of reached(file)) {
      if (owner.has(shared)) parent.set(find(file), find(owner.get(shared)));
      else owner.set(shared, file);
    }
  }
  const groups = new Map();
  for (const file of files) groups.set(find(file), [...(groups.get(find(file)) ?? []), file]);
  return [...groups.values()].map((group) => group.sort());
}

/** The median of the recorded durations (seconds), or `fallback` when none is recorded. */
function medianDuration(durations, fallback = 10) {
  const values = Object.values(durations)
    .filter((value) => typeof value === "number" && value >= 0)
    .sort((a, b) => a - b);
  if (values.length === 0) return fallback;
  return values[Math.floor(values.length / 2)];
}

/**
 * Assigns groups to `count` lanes, longest first, each to the least-loaded lane (ties: the lower
 * lane). The same files and durations give the same lanes on every run.
 * @param {string[][]} groups
 * @param {Record<string, number>} durations seconds per file
 * @param {number} count
 * @returns {{ files: string[], seconds: number }[]}
 */
function assignLanes(groups, durations, count) {
  const unknown = medianDuration(durations);
  const weigh = (group) => group.reduce((sum, file) => sum + (durations[file] ?? unknown), 0);
  const ordered = groups
    .map((group) => ({ group, seconds: weigh(group) }))
    .sort((a, b) => b.seconds - a.seconds || a.group[0].localeCompare(b.group[0]));
  const lanes = Array.from({ length: count }, () => ({ files: [], seconds: 0 }));
  for (const { group, seconds } of ordered) {
    const lane = lanes.reduce((least, candidate) => (candidate.seconds < least.seconds ? candidate : least));
    lane.files.push(...group);
    lane.seconds += seconds;
  }
  for (const lane of lanes) lane.files.sort();
  return lanes;
}

module.exports = { PROCESS_SHARED, relativeRequires, sharedReached, processGroups, medianDuration, assignLanes };
