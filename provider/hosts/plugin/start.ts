// The first module of a plugin process (pulumi-resource-<name> runs <name>-start.js with node):
// runs the bundle beside it, <name>-plugin.js, through V8's code cache. The engine starts one
// plugin process per provider and command, and compiling the bundle (about 2 MB) is most of
// what such a start costs before the engine gets its port (bench/analysis.md). Only for a
// bundle built by scripts/bundle-plugin.js, which passes the bundle's hash in:
// - the cache is written beside the bundle when the process ends, once per bundle, node
//   version and architecture (V8 checks the version and its flags, but of the source only its
//   length, so the name carries the content's hash);
// - a cache V8 refuses, or a directory this process cannot write to, costs nothing but the
//   compile the process would do anyway; no error of the cache ever stops the plugin.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { useBaselineWasmCompiler } from "../../runtime/baseline-wasm";

/** The bundle's content hash, defined by scripts/bundle-plugin.js when it bundles this file. */
declare const EMBEDDED_BUNDLE_HASH: string | undefined;

type ModuleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;

/** What every cache file of this bundle's name starts with, whatever its hash and node. */
function cachePrefix(bundle: string): string {
  return `.${path.basename(bundle)}.`;
}

/** The cache file of this bundle for this node: `.<bundle>.<hash>.<node version>-<arch>.v8cache`. */
export function cacheFileOf(bundle: string, hash: string): string {
  return path.join(path.dirname(bundle), `${cachePrefix(bundle)}${hash}.${process.version}-${process.arch}.v8cache`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Replaces the caches of other bundles and node versions; any failure leaves things as they were. */
function writeCache(bundle: string, file: string, script: vm.Script): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const dir = path.dirname(file);
    const prefix = cachePrefix(bundle);
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(".v8cache") && path.join(dir, name) !== file)
        fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // Read-only plugin directory, full disk: the next start compiles as this one did.
    fs.rmSync(temporary, { force: true });
  }
}

/** What became of the code cache at this start. */
export type CacheUse = "accepted" | "rejected" | "absent";

/** Runs a CommonJS file as node's loader would, compiled with (and then for) the code cache. */
export function runCached(bundle: string, hash: string): CacheUse {
  const file = cacheFileOf(bundle, hash);
  const cachedData = readCache(file);
  const source = fs.readFileSync(bundle, "utf8");
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  // Created when the process ends, so that it holds the functions compiled while it served.
  if (cachedData === undefined || script.cachedDataRejected === true)
    process.once("exit", () => writeCache(bundle, file, script));
  const run = script.runInThisContext() as ModuleFunction;
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  return cachedData === undefined ? "absent" : script.cachedDataRejected === true ? "rejected" : "accepted";
}

/** Runs the bundle beside this file; also the entry of the plugin folder run by a Node.js language host (<name>-folder.js). */
export function start(): void {
  // Before compiling: the flag is part of what V8 checks a cache against, and the bundle sets it.
  useBaselineWasmCompiler();
  // Unbundled, this file is not beside a bundle (nor named <name>-start.js): nothing to run.
  if (typeof EMBEDDED_BUNDLE_HASH !== "string")
    throw new Error("start.js runs only as bundled by scripts/bundle-plugin.js, as <name>-start.js");
  runCached(path.join(__dirname, path.basename(__filename).replace(/-start\.js$/, "-plugin.js")), EMBEDDED_BUNDLE_HASH);
}

if (require.main === module) start();
