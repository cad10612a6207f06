// Builds a Pulumi resource plugin written in TypeScript into one directory that needs nothing
// from any node_modules (so it can be copied into Pulumi's plugin cache, or run in place):
// - <name>-plugin.js: the compiled entry and everything it loads (for the plugin `embedded`:
//   the client, undici, zod, the gRPC server and the protocol's stubs), bundled by esbuild;
// - <name>-start.js: the first module (dist/provider/hosts/plugin/start.js, bundled with the hash of
//   <name>-plugin.js), which runs the bundle through V8's code cache;
// - pulumi-resource-<name>: the executable the engine runs (node on <name>-start.js);
// - PulumiPlugin.yaml, package.json and <name>-folder.js: what `pulumi package add <dir>`,
//   `pulumi package get-schema <dir>` and `gen-sdk <dir>` need to take the folder itself, whose
//   name does not say the plugin's: they have the Node.js language host install the folder's
//   package.json (its one dependency, @pulumi/pulumi, holds the host's run-plugin) and run
//   `node <run-plugin> <dir> <engine>`, which requires the package's main, <name>-folder.js
//   (it starts <name>-start.js). The engine still runs pulumi-resource-<name> when it finds it;
//   `plugin install` and the release archives copy only the three files above.
// `node scripts/bundle-plugin.js` builds the plugin `embedded` (dist/provider/hosts/plugin/main.js)
// into dist/plugin/, the directory the package ships; `npm run build` runs it after tsc. The
// bench builds its no-op plugin with `--entry <main.js> --out <dir> --name embeddedfloor`.
// Prints the output directory.
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const esbuild = require("esbuild");
const { scriptArgs } = require("./args");

const root = path.resolve(__dirname, "..");
/** The @pulumi/pulumi the plugin folder's package.json asks for: the package's own peer range. */
const PULUMI_RANGE = require(path.join(root, "package.json")).peerDependencies["@pulumi/pulumi"];

// provider/client/undici-parts.ts loads undici's Pool and request API from their own modules
// and falls back to undici's entry only if a release moved them. In a bundle the parts are
// resolved here, at build time (a moved part fails the build), so the fallback can never run:
// its ~450 kB (fetch, WebSocket, caches) would only be parsed at every start.
const withoutUndiciEntry = {
  name: "without-undici-entry",
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: "undici-entry", namespace: "without-undici-entry" }));
    build.onLoad({ filter: /.*/, namespace: "without-undici-entry" }, () => ({
      contents:
        'throw new Error("undici\'s entry is not bundled into the plugin: provider/client/undici-parts.ts loads its parts");',
      loader: "js",
    }));
  },
};

async function main() {
  const args = scriptArgs("node scripts/bundle-plugin.js [--entry <main.js>] [--out <dir>] [--name <plugin name>]", {
    entry: { type: "string", default: "dist/provider/hosts/plugin/main.js" },
    out: { type: "string", default: "dist/plugin" },
    name: { type: "string", default: "embedded" },
  });
  const entry = path.resolve(root, args.entry);
  const out = path.resolve(root, args.out);
  const name = args.name;
  fs.mkdirSync(out, { recursive: true });
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "eof",
    sourcemap: false,
    logLevel: "warning",
  };
  const bundleFile = path.join(out, `${name}-plugin.js`);
  await esbuild.build({ ...common, entryPoints: [entry], outfile: bundleFile, plugins: [withoutUndiciEntry] });
  const hash = crypto.createHash("sha256").update(fs.readFileSync(bundleFile)).digest("hex").slice(0, 16);
  await esbuild.build({
    ...common,
    entryPoints: [path.resolve(root, "dist/provider/hosts/plugin/start.js")],
    outfile: path.join(out, `${name}-start.js`),
    define: { EMBEDDED_BUNDLE_HASH: JSON.stringify(hash) },
  });
  const launcher = path.join(out, `pulumi-resource-${name}`);
  fs.writeFileSync(
    launcher,
    `#!/bin/sh\n# The Pulumi resource plugin \`${name}\` (the engine runs this file).\nexec node "$(dirname "$0")/${name}-start.js" "$@"\n`,
  );
  fs.chmodSync(launcher, 0o755);
  fs.writeFileSync(
    path.join(out, "PulumiPlugin.yaml"),
    `# The resource plugin \`${name}\` as a folder: \`pulumi package add <this folder>\` runs ${name}-start.js.\nruntime: nodejs\n`,
  );
  const manifest = {
    name: `pulumi-resource-${name}`,
    private: true,
    main: `${name}-folder.js`,
    dependencies: { "@pulumi/pulumi": PULUMI_RANGE },
  };
  fs.writeFileSync(path.join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(
    path.join(out, `${name}-folder.js`),
    `// The plugin folder's entry under a Node.js language host (package.json main): starts the plugin.\nrequire("./${name}-start.js").start();\n`,
  );
  process.stdout.write(`${out}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
