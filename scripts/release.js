// Writes a release's artifacts into one directory (default dist/release/), after `npm run build`:
// - pulumi-resource-embedded-v<version>-<os>-<arch>.tar.gz: the plugin under the names the
//   engine downloads (`pulumi plugin install resource embedded <version> --server <url>`, or a
//   program's SDK asking for it), one per OS and architecture the engine may ask for:
//   - linux-amd64, linux-arm64: pulumi-resource-embedded is one executable that carries its own
//     Node.js (scripts/sea-plugin.js), so a YAML, Python or Go user needs no Node.js; Node.js's
//     license is beside it. Measured against the launcher's archive in BENCHMARKS.md
//     (bench/plugin-archive.ts): 43 MB instead of 0.4 MB, and a start no slower;
//   - darwin-amd64, darwin-arm64: the JavaScript plugin (dist/plugin) and its launcher, run by
//     the `node` on PATH (Node.js 20+); scripts/sea-plugin.js says why macOS gets no executable.
//   Windows is left out (its launcher would be a .cmd);
// - the npm tarball (npm pack), the Python wheel and sdist of sdk/python (built offline in the
//   virtualenv of scripts/ensure-python.sh, or RELEASE_PYTHON: the release workflow's), and the Go module sdk/go as a tar.gz;
// - SHA256SUMS.
// Where they are published is package.json's `pulumi.server` (the schema's pluginDownloadURL, so
// every SDK's): for github://<api host>/<owner>/<repo>, the assets of that repository's release
// v<version>; the script prints it.
// Usage: node scripts/release.js [--out <dir>] [--plugin-only] [--launcher-only] [--platforms <os-arch,…>]
// --launcher-only: every archive holds the launcher's plugin (no Node.js fetched, no SEA built:
// a quicker release, for a machine that is not Linux, or to compare).
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");
const { SEA_PACKAGES, buildSeaPlugin, canBuildSea, hostPlatform } = require("./sea-plugin");

const root = path.resolve(__dirname, "..");
const packageJson = require(path.join(root, "package.json"));
const version = packageJson.version;
const server = packageJson.pulumi.server;
const at = process.argv.indexOf("--out");
const out = path.resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(root, "dist", "release"));
const pluginOnly = process.argv.includes("--plugin-only");
const launcherOnly = process.argv.includes("--launcher-only");
const pluginDir = path.join(root, "dist", "plugin");
const PLUGIN_FILES = ["pulumi-resource-embedded", "embedded-plugin.js", "embedded-start.js"];
const ALL_PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];
// --platforms a,b: only those archives (the tests build this machine's alone).
const platformsAt = process.argv.indexOf("--platforms");
const platformsArg = platformsAt >= 0 ? process.argv[platformsAt + 1] : ALL_PLATFORMS.join(",");
if (!platformsArg || platformsArg.startsWith("--")) {
  console.error(
    `release: --platforms needs a list, e.g. --platforms linux-amd64,darwin-arm64 (of ${ALL_PLATFORMS.join(", ")})`,
  );
  process.exit(2);
}
const PLATFORMS = platformsArg.split(",");
const unknownPlatform = PLATFORMS.find((p) => !ALL_PLATFORMS.includes(p));
if (unknownPlatform) {
  console.error(`release: no archive for platform ${unknownPlatform}; choose among ${ALL_PLATFORMS.join(", ")}`);
  process.exit(2);
}

/** The archive name the engine asks a plugin server for. */
function archiveName(platform) {
  return `pulumi-resource-embedded-v${version}-${platform}.tar.gz`;
}

/** A tar.gz of files from dir, byte-for-byte the same from one build to the next. */
function tarGz(file, dir, names) {
  const tar = execFileSync(
    "tar",
    ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", "-", "-C", dir, ...names],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  fs.writeFileSync(file, zlib.gzipSync(tar, { level: 9 })); // no name, mtime 0
}

/** The archive of one platform: the single executable where there is one, else the launcher's plugin. */
async function writePluginArchive(platform) {
  if (launcherOnly || !(platform in SEA_PACKAGES))
    return tarGz(path.join(out, archiveName(platform)), pluginDir, PLUGIN_FILES);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `embedded-sea-${platform}-`));
  try {
    const names = await buildSeaPlugin(platform, dir);
    tarGz(path.join(out, archiveName(platform)), dir, names);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The names a release writes into --out (this version's or an earlier one's): nothing else is ever removed. */
const RELEASE_OUTPUT = [
  /^pulumi-resource-embedded-v[^/]+-(linux|darwin|windows)-[a-z0-9]+\.tar\.gz$/,
  /^pulumi-embedded-connectors-[^/]+\.tgz$/,
  /^pulumi_embedded-[^/]+(\.tar\.gz|\.whl)$/,
  /^pulumi-embedded-sdk-go-v[^/]+\.tar\.gz$/,
  /^SHA256SUMS$/,
];

/**
 * Empties `dir` of an earlier release's files, or refuses: a directory holding anything else
 * (a subdirectory, a link, a file a release does not write) is left as it is, since --out may
 * name a directory by mistake, and the release would delete what it holds.
 */
function clearEarlierRelease(dir) {
  if (!fs.existsSync(dir)) return;
  if (!fs.lstatSync(dir).isDirectory()) {
    console.error(`release: --out ${dir} is not a directory; name a new or an earlier release's directory`);
    process.exit(1);
  }
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const foreign = entries.filter((e) => !e.isFile() || !RELEASE_OUTPUT.some((name) => name.test(e.name)));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).map((e) => JSON.stringify(e.name) + (e.isFile() ? "" : " (not a file)"));
    console.error(
      `release: --out ${dir} holds what no release writes (${shown.join(", ")}${foreign.length > 3 ? `, and ${foreign.length - 3} more` : ""}); ` +
        "it is left as it is: name an empty or new directory, or an earlier release's output",
    );
    process.exit(1);
  }
  for (const entry of entries) fs.rmSync(path.join(dir, entry.name));
}

async function main() {
  // The Node.js language host asks for the plugin version of the `pulumi` field; the plugin says it is the package's.
  if (packageJson.pulumi.version !== version) {
    console.error(
      `release: package.json's pulumi.version (${packageJson.pulumi.version}) is not its version (${version}); make them equal`,
    );
    process.exit(1);
  }
  for (const name of PLUGIN_FILES) {
    if (!fs.existsSync(path.join(pluginDir, name))) {
      console.error(`release: ${path.join(pluginDir, name)} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
  if (!launcherOnly && PLATFORMS.some((p) => p in SEA_PACKAGES) && !canBuildSea()) {
    console.error(
      `release: this machine (${hostPlatform()}) cannot build the Linux archives' single executables; run on Linux, or pass --launcher-only`,
    );
    process.exit(1);
  }
  clearEarlierRelease(out);
  fs.mkdirSync(out, { recursive: true });
  for (const platform of PLATFORMS) await writePluginArchive(platform);

  if (!pluginOnly) {
    execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    // The wheel and sdist, built by setuptools from a copy: with RELEASE_PYTHON's (the release
    // workflow's virtualenv, scripts/release-requirements.txt installed by hash), else in the
    // suite's virtualenv (no network).
    const python =
      process.env.RELEASE_PYTHON ||
      path.join(
        execFileSync("bash", [path.join(root, "scripts", "ensure-python.sh")], { cwd: root, encoding: "utf8" })
          .trim()
          .split("\n")
          .pop(),
        "bin",
        "python",
      );
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-sdk-python-"));
    fs.cpSync(path.join(root, "sdk", "python"), copy, { recursive: true });
    const build = `from setuptools import build_meta as b; b.build_wheel(${JSON.stringify(out)}); b.build_sdist(${JSON.stringify(out)})`;
    execFileSync(python, ["-W", "ignore", "-c", build], {
      cwd: copy,
      stdio: ["ignore", "ignore", "inherit"],
    });
    fs.rmSync(copy, { recursive: true, force: true });
    const goFiles = fs.readdirSync(path.join(root, "sdk", "go"));
    tarGz(path.join(out, `pulumi-embedded-sdk-go-v${version}.tar.gz`), path.join(root, "sdk", "go"), goFiles);
  }

  const sums = fs
    .readdirSync(out)
    .sort()
    .map(
      (name) =>
        `${crypto
          .createHash("sha256")
          .update(fs.readFileSync(path.join(out, name)))
          .digest("hex")}  ${name}`,
    );
  fs.writeFileSync(path.join(out, "SHA256SUMS"), `${sums.join("\n")}\n`);
  for (const name of fs.readdirSync(out).sort()) {
    console.error(`release: ${name} ${Math.round(fs.statSync(path.join(out, name)).size / 1024)} kB`);
  }
  const github = /^github:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(server);
  console.error(
    github
      ? `release: publish the plugin archives as assets of the release v${version} of ${github[2]}/${github[3]} (${server}, package.json pulumi.server)`
      : `release: publish the plugin archives at ${server} (package.json pulumi.server)`,
  );
  console.log(out);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
