#!/usr/bin/env node
// Splits the suite's test files (dist/test/**/*.test.js, what `npm test` runs after the unit tier)
// into N shards for CI's matrix (.github/workflows/ci.yml), and prints one shard's files, one a
// line, for `mocha`:
//
//   node scripts/shard-tests.js --shard 2/4            dist/test's files of shard 2 of 4
//   node scripts/shard-tests.js --shard 2/4 --root dist/test/e2e
//
// A file's shard is a hash of its path (relative to the root, `/`-separated) modulo N: the same
// file lands in the same shard on every machine and in every run, whatever the directory's order,
// and adding or removing a test moves no other. So a shard that fails in CI fails the same way
// here, with the same command. Every file is in exactly one shard; a shard may be empty (the
// workflow then has nothing to run).
const fs = require("node:fs");
const { Buffer } = require("node:buffer");
const path = require("node:path");
const { scriptArgs } = require("./args");

/** FNV-1a, 32 bits: a stable hash of a path, the same in every Node.js version. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The shard (1..count) of a test file, by its path relative to the root.
 * @param {string} file
 * @param {number} count
 */
function shardOf(file, count) {
  return (fnv1a(file.split(path.sep).join("/")) % count) + 1;
}

/**
 * The files of shard `index` of `count`, sorted (mocha runs them in that order).
 * @param {string[]} files paths relative to the root
 * @param {number} index 1..count
 * @param {number} count
 */
function filesOfShard(files, index, count) {
  return files.filter((file) => shardOf(file, count) === index).sort();
}

/** Every `*.test.js` under `root`, relative to it, sorted. */
function testFiles(root) {
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".test.js"))
    .sort();
}

/** `2/4` as { index: 2, count: 4 }, or a message saying what it takes. */
function parseShard(text) {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? "");
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!(count >= 1 && index >= 1 && index <= count))
    throw new Error(`--shard takes <index>/<count>, 1 <= index <= count (got ${JSON.stringify(text)})`);
  return { index, count };
}

function main() {
  const usage = "node scripts/shard-tests.js --shard <index>/<count> [--root dist/test]";
  const args = scriptArgs(usage, { shard: { type: "string" }, root: { type: "string", default: "dist/test" } });
  let shard;
  try {
    shard = parseShard(args.shard);
  } catch (error) {
    console.error(`${error.message}\nusage: ${usage}`);
    process.exit(2);
  }
  if (!fs.existsSync(args.root)) {
    console.error(`${args.root} does not exist: run \`npm run build\` first`);
    process.exit(1);
  }
  for (const file of filesOfShard(testFiles(args.root), shard.index, shard.count))
    console.log(path.join(args.root, file));
}

if (require.main === module) main();

module.exports = { shardOf, filesOfShard, testFiles, parseShard };
