// Builds the plugin `embedded` into dist/plugin/, the directory that the package ships and that
// `pulumi-embedded-connectors plugin install` copies into the user's plugin cache:
// - embedded-plugin.js: dist/provider/plugin/main.js and everything it loads (the client,
//   undici, zod, the gRPC server and the protocol's stubs) in one file, so the plugin needs
//   nothing from the user's node_modules and can be moved anywhere;
// - pulumi-resource-embedded: the executable the engine runs (node on the file beside it).
// Run by `npm run build`, after tsc.
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const out = path.join(root, "dist", "plugin");

async function main() {
  fs.mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(root, "dist", "provider", "plugin", "main.js")],
    outfile: path.join(out, "embedded-plugin.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "eof",
    sourcemap: false,
    logLevel: "warning",
  });
  const launcher = path.join(out, "pulumi-resource-embedded");
  fs.writeFileSync(
    launcher,
    '#!/bin/sh\n# The plugin `embedded` of pulumi-embedded-connectors (the engine runs this file).\nexec node "$(dirname "$0")/embedded-plugin.js" "$@"\n',
  );
  fs.chmodSync(launcher, 0o755);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
