// provider/hosts/plugin/start.ts: the plugin's first module runs the bundle beside it through V8's
// code cache. The bundle must behave as under node's own loader (its require, __filename,
// __dirname, module.exports), the cache must be written once and then used, and nothing about
// the cache (missing, refused, corrupt, unwritable, another bundle's) may stop the plugin.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const START = path.resolve(__dirname, "start.js");

const BUNDLE_SOURCE = `
const os = require("node:os");
module.exports.loaded = true;
function square(x) { return x * x; }
process.stdout.write(JSON.stringify({ file: __filename, dir: __dirname, square: square(7), platform: os.platform(), exportsSeen: module.exports === exports }) + "\\n");
`;

/** Runs the bundle in a fresh node through runCached; what the bundle printed, then what became of the cache. */
function runInChild(bundle: string, hash: string): { printed: Record<string, unknown>; cache: string } {
  const script = `const use = require(${JSON.stringify(START)}).runCached(${JSON.stringify(bundle)}, ${JSON.stringify(hash)}); process.stdout.write(use + "\\n");`;
  const [printed, cache] = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim().split("\n");
  return { printed: JSON.parse(printed) as Record<string, unknown>, cache };
}

const cachesIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".v8cache"));

describe("plugin start: the bundle through V8's code cache", () => {
  let dir: string;
  let bundle: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "plugin-start-"));
    bundle = path.join(dir, "x-plugin.js");
    writeFileSync(bundle, BUNDLE_SOURCE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the bundle as node's loader would, writes the cache at exit, and uses it at the next start", () => {
    const first = runInChild(bundle, "h1");
    assert.deepEqual(first.printed, { file: bundle, dir, square: 49, platform: process.platform, exportsSeen: true });
    assert.equal(first.cache, "absent");
    assert.deepEqual(cachesIn(dir), [`.x-plugin.js.h1.${process.version}-${process.arch}.v8cache`]);
    const second = runInChild(bundle, "h1");
    assert.deepEqual(second.printed, first.printed);
    assert.equal(second.cache, "accepted");
  });

  it("a corrupt cache is refused, the bundle still runs, and a good cache replaces it", () => {
    runInChild(bundle, "h1");
    const [cacheFile] = cachesIn(dir);
    writeFileSync(path.join(dir, cacheFile), Buffer.alloc(4096, 7));
    const refused = runInChild(bundle, "h1");
    assert.equal(refused.printed.square, 49);
    assert.equal(refused.cache, "rejected");
    assert.notDeepEqual(readFileSync(path.join(dir, cacheFile)), Buffer.alloc(4096, 7));
    assert.equal(runInChild(bundle, "h1").cache, "accepted");
  });

  it("a new bundle (another hash) gets its own cache, and the old one is removed", () => {
    runInChild(bundle, "h1");
    writeFileSync(bundle, `${BUNDLE_SOURCE}\nmodule.exports.second = true;\n`);
    const next = runInChild(bundle, "h2");
    assert.equal(next.cache, "absent", "a cache of another bundle is never tried");
    assert.deepEqual(cachesIn(dir), [`.x-plugin.js.h2.${process.version}-${process.arch}.v8cache`]);
  });

  it("a cache it cannot read or write costs the cache, not the start, and leaves nothing behind", () => {
    // A directory where the cache file would be: unreadable as a cache, and no file can replace it.
    const blocked = path.join(dir, `.x-plugin.js.h1.${process.version}-${process.arch}.v8cache`);
    mkdirSync(path.join(blocked, "inside"), { recursive: true });
    for (let i = 0; i < 2; i++) {
      const run = runInChild(bundle, "h1");
      assert.equal(run.printed.square, 49);
      assert.equal(run.cache, "absent");
    }
    assert.deepEqual(readdirSync(dir).sort(), [path.basename(blocked), "x-plugin.js"].sort());
  });
});
