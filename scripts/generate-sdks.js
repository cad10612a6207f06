// Writes the SDKs of the plugin `embedded` from its package schema (the one GetSchema serves):
// <out>/schema.json, then <out>/python and <out>/go by tools/sdkgen (Pulumi's own code generators,
// built from the Go module proxy). `npm run sdk` builds and writes them into sdk/, which is
// committed; test/sdk/ regenerates into a temporary directory and compares.
// Usage: node scripts/generate-sdks.js [--out <dir>]   (after npm run build; default: sdk/)
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const at = process.argv.indexOf("--out");
const out = path.resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(root, "sdk"));

let schema;
try {
  const { packageSchema } = require(path.join(root, "dist", "provider", "definitions", "package-schema.js"));
  const { PLUGIN_VERSION } = require(path.join(root, "dist", "provider", "plugin", "version.js"));
  schema = packageSchema(PLUGIN_VERSION);
} catch (error) {
  console.error(`generate-sdks: cannot load the built schema (${error.message}); run \`npm run build\` first`);
  process.exit(1);
}

fs.mkdirSync(out, { recursive: true });
const schemaFile = path.join(out, "schema.json");
fs.writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
// The tools' go.sum files are committed: they verify the downloads (no checksum database here).
// -trimpath and no cgo, as scripts/ensure-pulumi.sh builds the CLI (the same pkg/v3): the code
// generators' packages are then already in the Go build cache.
const env = { ...process.env, GOSUMDB: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
try {
  execFileSync("go", ["run", "-trimpath", ".", "--schema", schemaFile, "--out", out], {
    cwd: path.join(root, "tools", "sdkgen"),
    env,
    stdio: "inherit",
  });
} catch (error) {
  console.error(`generate-sdks: tools/sdkgen failed (${error.message})`);
  process.exit(1);
}
console.log(out);
