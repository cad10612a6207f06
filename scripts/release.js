// Writes a release's artifacts into one directory (default dist/release/), after `npm run build`:
// - pulumi-resource-embedded-v<version>-<os>-<arch>.tar.gz: the plugin (dist/plugin) under the
//   names the engine downloads (`pulumi plugin install resource embedded <version> --server
//   <url>`, or a program's SDK asking for it): one per OS and architecture the engine may ask
//   for. The plugin is JavaScript run by the `node` on PATH (Node.js 20+), so every archive holds
//   the same files; Windows is left out (its launcher would be a .cmd);
// - the npm tarball (npm pack), the Python wheel and sdist of sdk/python (built offline in the
//   virtualenv of scripts/ensure-python.sh), and the Go module sdk/go as a tar.gz;
// - SHA256SUMS.
// Where they are published is package.json's `pulumi.server` (the schema's pluginDownloadURL, so
// every SDK's): for github://<api host>/<owner>/<repo>, the assets of that repository's release
// v<version>; the script prints it.
// Usage: node scripts/release.js [--out <dir>] [--plugin-only]
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

const root = path.resolve(__dirname, "..");
const packageJson = require(path.join(root, "package.json"));
const version = packageJson.version;
const server = packageJson.pulumi.server;
const at = process.argv.indexOf("--out");
const out = path.resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(root, "dist", "release"));
const pluginOnly = process.argv.includes("--plugin-only");
const pluginDir = path.join(root, "dist", "plugin");
const PLUGIN_FILES = ["pulumi-resource-embedded", "embedded-plugin.js", "embedded-start.js"];
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];

/** The archive name the engine asks a plugin server for. */
function archiveName(platform) {
  return `pulumi-resource-embedded-v${version}-${platform}.tar.gz`;
}

/** A tar.gz of files from dir, byte-for-byte the same from one build to the next. */
function tarGz(file, dir, names) {
  const tar = execFileSync("tar", ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", "-", "-C", dir, ...names], {
    maxBuffer: 256 * 1024 * 1024,
  });
  fs.writeFileSync(file, zlib.gzipSync(tar, { level: 9 })); // no name, mtime 0
}

// The Node.js language host asks for the plugin version of the `pulumi` field; the plugin says it is the package's.
if (packageJson.pulumi.version !== version) {
  console.error(`release: package.json's pulumi.version (${packageJson.pulumi.version}) is not its version (${version}); make them equal`);
  process.exit(1);
}
for (const name of PLUGIN_FILES) {
  if (!fs.existsSync(path.join(pluginDir, name))) {
    console.error(`release: ${path.join(pluginDir, name)} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
for (const platform of PLATFORMS) tarGz(path.join(out, archiveName(platform)), pluginDir, PLUGIN_FILES);

if (!pluginOnly) {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  // The wheel and sdist, built by setuptools in the suite's virtualenv (no network), from a copy.
  const venv = execFileSync("bash", [path.join(root, "scripts", "ensure-python.sh")], { cwd: root, encoding: "utf8" }).trim().split("\n").pop();
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-sdk-python-"));
  fs.cpSync(path.join(root, "sdk", "python"), copy, { recursive: true });
  const build = `from setuptools import build_meta as b; b.build_wheel(${JSON.stringify(out)}); b.build_sdist(${JSON.stringify(out)})`;
  execFileSync(path.join(venv, "bin", "python"), ["-W", "ignore", "-c", build], { cwd: copy, stdio: ["ignore", "ignore", "inherit"] });
  fs.rmSync(copy, { recursive: true, force: true });
  const goFiles = fs.readdirSync(path.join(root, "sdk", "go"));
  tarGz(path.join(out, `pulumi-embedded-sdk-go-v${version}.tar.gz`), path.join(root, "sdk", "go"), goFiles);
}

const sums = fs
  .readdirSync(out)
  .sort()
  .map((name) => `${crypto.createHash("sha256").update(fs.readFileSync(path.join(out, name))).digest("hex")}  ${name}`);
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
