// Writes the SDKs of the plugin `embedded` from the schema the built plugin serves (asked over
// gRPC as the engine asks it: scripts/plugin-schema.js): <out>/schema.json (that schema, indented
// for reading), then <out>/python and <out>/go by tools/sdkgen, Pulumi's own code generators
// (built from the Go module proxy) given exactly the served schema, their files written as they
// are. `npm run sdk` writes into sdk/, which is committed; test/sdk/ regenerates into a temporary
// directory and compares.
// The generators write no go.mod and no READMEs at the SDKs' roots: HAND_KEPT lists those files,
// kept by hand in sdk/ and left in place here.
// Usage: node scripts/generate-sdks.js [--out <dir>]   (after npm run build; default: sdk/)
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { scriptArgs } = require("./args");
const { pluginSchema } = require("./plugin-schema");

const root = path.resolve(__dirname, "..");
/** The files of sdk/ that no generator writes (relative to sdk/). */
const HAND_KEPT = ["go/go.mod", "go/README.md", "python/README.md"];

/** Removes every file under dir but the HAND_KEPT ones (a file the generators no longer write must not linger). */
function clearGenerated(out, language) {
  const dir = path.join(out, language);
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const name = path.relative(out, file).split(path.sep).join("/");
    if (entry.isFile() && !HAND_KEPT.includes(name)) fs.rmSync(file);
  }
}

async function main() {
  const args = scriptArgs("node scripts/generate-sdks.js [--out <dir>]", {
    out: { type: "string", default: path.join(root, "sdk") },
  });
  const out = path.resolve(args.out);
  let served;
  try {
    served = await pluginSchema();
  } catch (error) {
    throw new Error(`cannot ask the built plugin for its schema (${error.message})`);
  }
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "schema.json"), `${JSON.stringify(JSON.parse(served), null, 2)}\n`);
  const servedFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "embedded-schema-")), "schema.json");
  fs.writeFileSync(servedFile, served);
  for (const language of ["python", "go"]) clearGenerated(out, language);
  // The tools' go.sum files are committed: they verify the downloads (no checksum database here).
  // -trimpath and no cgo, as scripts/ensure-pulumi.sh builds the CLI (the same pkg/v3): the code
  // generators' packages are then already in the Go build cache.
  const env = { ...process.env, GOSUMDB: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
  try {
    execFileSync("go", ["run", "-trimpath", ".", "--schema", servedFile, "--out", out], {
      cwd: path.join(root, "tools", "sdkgen"),
      env,
      stdio: "inherit",
    });
  } catch (error) {
    throw new Error(`tools/sdkgen failed (${error.message})`);
  } finally {
    fs.rmSync(path.dirname(servedFile), { recursive: true, force: true });
  }
  console.log(out);
}

module.exports = { HAND_KEPT };

if (require.main === module) {
  main().catch((error) => {
    console.error(`generate-sdks: ${error.message}`);
    process.exit(1);
  });
}
