// Builds a Pulumi resource plugin written in TypeScript into one directory that needs nothing
// from any node_modules (so it can be copied into Pulumi's plugin cache, or run in place):
// - <name>-plugin.js: the compiled entry and everything it loads (for the plugin `embedded`:
//   the client, undici, zod, the gRPC server and the protocol's stubs), bundled by esbuild;
// - pulumi-resource-<name>: the executable the engine runs (node on the file beside it).
// `node scripts/bundle-plugin.js` builds the plugin `embedded` (dist/provider/plugin/main.js)
// into dist/plugin/, the directory the package ships; `npm run build` runs it after tsc. The
// bench builds its no-op plugin with `--entry <main.js> --out <dir> --name embeddedfloor`.
// Prints the output directory.
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

async function main() {
  const entry = path.resolve(root, option("entry", "dist/provider/plugin/main.js"));
  const out = path.resolve(root, option("out", "dist/plugin"));
  const name = option("name", "embedded");
  fs.mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile: path.join(out, `${name}-plugin.js`),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "eof",
    sourcemap: false,
    logLevel: "warning",
  });
  const launcher = path.join(out, `pulumi-resource-${name}`);
  fs.writeFileSync(
    launcher,
    `#!/bin/sh\n# The Pulumi resource plugin \`${name}\` (the engine runs this file).\nexec node "$(dirname "$0")/${name}-plugin.js" "$@"\n`,
  );
  fs.chmodSync(launcher, 0o755);
  process.stdout.write(`${out}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
