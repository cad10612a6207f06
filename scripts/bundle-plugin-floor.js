// Builds the bench's plugin `embeddedfloor` (bench/plugin-floor: a native plugin whose operations
// do nothing) into dist/bench/plugin-floor/, the way scripts/bundle-plugin.js builds the plugin
// `embedded` (one esbuild bundle of the compiled entry, and a launcher the engine runs):
// - embeddedfloor-plugin.js: dist/bench/plugin-floor/main.js and everything it loads;
// - pulumi-resource-embeddedfloor: node on the file beside it.
// Run by the bench (bench/plugin-floor/install.ts) after `npm run build`; not shipped.
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const compiled = path.join(root, "dist", "bench", "plugin-floor");
const out = path.join(compiled, "plugin");

async function main() {
  fs.mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(compiled, "main.js")],
    outfile: path.join(out, "embeddedfloor-plugin.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "eof",
    sourcemap: false,
    logLevel: "warning",
  });
  const launcher = path.join(out, "pulumi-resource-embeddedfloor");
  fs.writeFileSync(
    launcher,
    '#!/bin/sh\n# The bench\'s plugin `embeddedfloor` (the engine runs this file).\nexec node "$(dirname "$0")/embeddedfloor-plugin.js" "$@"\n',
  );
  fs.chmodSync(launcher, 0o755);
  process.stdout.write(`${out}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
