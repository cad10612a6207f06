// scripts/shard-tests.js: CI's matrix runs every test file of dist/test exactly once, each in a
// shard that does not depend on the directory's order nor on the other files (a shard that
// fails in CI fails the same way here).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shards = require(path.join(ROOT, "scripts/shard-tests.js")) as {
  shardOf(file: string, count: number): number;
  filesOfShard(files: string[], index: number, count: number): string[];
  parseShard(text: string | undefined): { index: number; count: number };
};

/** A small seeded generator (mulberry32): the shuffles below replay from the printed seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const FILES = Array.from(
  { length: 120 },
  (_, i) => `${["e2e", "docs", "release", "integration/cli"][i % 4]}/t${i}.test.js`,
);

describe("scripts/shard-tests.js: CI's shards of the suite", () => {
  afterEach(function () {
    if (this.currentTest?.state === "failed") console.error(`replay with PROPERTY_SEED=${SEED}`);
  });

  it("puts every file in exactly one shard, for every count", () => {
    for (let count = 1; count <= 8; count++) {
      const all = Array.from({ length: count }, (_, i) => shards.filesOfShard(FILES, i + 1, count)).flat();
      assert.deepEqual([...all].sort(), [...FILES].sort(), `count ${count}`);
    }
  });

  it("a file's shard depends on its path alone: not on the order, nor on the other files", () => {
    const next = random(SEED);
    const shuffled = [...FILES].sort(() => next() - 0.5);
    const fewer = shuffled.filter(() => next() < 0.5);
    for (let index = 1; index <= 4; index++) {
      const shard = shards.filesOfShard(FILES, index, 4);
      assert.deepEqual(shards.filesOfShard(shuffled, index, 4), shard, `seed ${SEED}: the order moved a file`);
      const kept = shard.filter((file) => fewer.includes(file));
      assert.deepEqual(shards.filesOfShard(fewer, index, 4), kept, `seed ${SEED}: removing files moved another`);
    }
    // The same shard on Windows' separators as on `/`.
    assert.equal(shards.shardOf("e2e/t1.test.js", 4), shards.shardOf(path.join("e2e", "t1.test.js"), 4));
  });

  it("spreads the files: no shard of four holds more than twice its share", () => {
    const sizes = [1, 2, 3, 4].map((index) => shards.filesOfShard(FILES, index, 4).length);
    for (const size of sizes) assert.ok(size > 0 && size <= (2 * FILES.length) / 4, JSON.stringify(sizes));
  });

  it("refuses a shard that is not <index>/<count> within range, saying what it takes", () => {
    assert.deepEqual(shards.parseShard("2/4"), { index: 2, count: 4 });
    for (const bad of [undefined, "0/4", "5/4", "2", "a/b", "1/0"])
      assert.throws(() => shards.parseShard(bad), /--shard takes <index>\/<count>/, String(bad));
  });

  it("prints a shard's files under the root, one a line, for mocha", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "shard-tests-"));
    try {
      for (const file of FILES.slice(0, 12)) {
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        writeFileSync(path.join(dir, file), "");
      }
      writeFileSync(path.join(dir, "e2e", "harness.js"), ""); // not a test file
      const printed = [1, 2, 3]
        .map((index) =>
          execFileSync(
            process.execPath,
            [path.join(ROOT, "scripts/shard-tests.js"), "--shard", `${index}/3`, "--root", dir],
            {
              encoding: "utf8",
            },
          ),
        )
        .join("")
        .split("\n")
        .filter(Boolean);
      assert.deepEqual(
        printed.sort(),
        FILES.slice(0, 12)
          .map((file) => path.join(dir, file))
          .sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
