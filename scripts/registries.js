/* global AbortController */
// `npm run registries`: installing by name before a release, as a person would. Starts loopback
// registries for npm (verdaccio), PyPI (pypiserver), Go (a bare git repository that git's
// url.<bare>.insteadOf puts in place of the GitHub repository) and the plugin's release URL
// (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), fills them with this checkout's release by the
// release workflow's own scripts (harness/registries.ts), prints the environment to use, and
// runs until Ctrl-C or SIGTERM, which stop every server and remove their directory (unless --keep).
// The by-name e2e tests (test/e2e/by-name-registries.ts) start their registries with this command.
// Usage: node scripts/registries.js [--json] [--write-env <file>] [--keep]   (after `npm run build`)
// --json: one line of JSON on stdout once ready (where each registry is, and `env`), nothing else.
// --write-env: also writes the `export` lines to <file> once ready (`source <file>` in another
// shell). Not --env-file: Node.js 20 takes that flag as its own even after the script's name.
const fs = require("fs");
const path = require("path");
const { scriptArgs } = require("./args");

const root = path.resolve(__dirname, "..");
const args = scriptArgs("node scripts/registries.js [--json] [--write-env <file>] [--keep]", {
  json: { type: "boolean", default: false },
  "write-env": { type: "string" },
  keep: { type: "boolean", default: false },
});

function load(name) {
  const file = path.join(root, "dist", "harness", `${name}.js`);
  if (!fs.existsSync(file)) {
    console.error(
      `registries: ${path.relative(root, file)} is missing: run \`npm run registries\`, which builds first`,
    );
    process.exit(1);
  }
  return require(file);
}
const { startRegistries } = load("registries");
const { exportLines, registriesText } = load("registries-text");

const controller = new AbortController();
/** @type {import("../harness/registries").Registries | undefined} */
let registries;
let stopping = false;

/** Stops the registries and exits 0. */
async function stopStarted(started) {
  await started.stop();
  console.error(`registries: stopped; ${args.keep ? "kept" : "removed"} ${started.dir}`);
  process.exit(0);
}

function onSignal(signal) {
  if (stopping) return;
  stopping = true;
  console.error(`registries: ${signal}: stopping`);
  if (registries) void stopStarted(registries);
  else controller.abort(); // the start stops what it started, then rejects
}
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

async function main() {
  try {
    registries = await startRegistries({
      keep: args.keep,
      signal: controller.signal,
      log: (line) => console.error(`registries: ${line}`),
    });
  } catch (error) {
    if (controller.signal.aborted) {
      console.error("registries: stopped before they were ready; nothing is left running");
      process.exit(130);
    }
    console.error(`registries: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (stopping) return stopStarted(registries); // the signal came as the start ended
  const { npm, pypi, go, release, releaseFiles, dir, env } = registries;
  const info = { npm, pypi, go, release, releaseFiles, dir, env, pid: process.pid };
  if (args["write-env"]) fs.writeFileSync(path.resolve(args["write-env"]), exportLines(env));
  if (args.json) process.stdout.write(`${JSON.stringify(info)}\n`);
  else process.stdout.write(registriesText(info));
}

void main();
