// package.json's `engines` holds for every package a user installs with it: each runtime
// dependency (the lock's non-dev packages) accepts the lowest Node.js the range admits, and each
// optional peer has a version that does (docs/installation-configuration.md, "Node.js"). The
// checkout's own dev tools ask more (Google's SDK 8 and its dependencies want Node.js 22): that is
// development's business (docs/development.md), not a user's, and the test names them.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import semver from "semver";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as Record<string, unknown>;
const manifest = read("package.json") as { engines: { node: string } };
const lock = read("package-lock.json") as {
  packages: Record<string, { engines?: { node?: string }; dev?: boolean; peer?: boolean }>;
};
const LOWEST = semver.minVersion(manifest.engines.node)?.version ?? "";

function refusing(dev: boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([at, p]) => at !== "" && (p.dev ?? false) === dev && typeof p.engines?.node === "string")
    .filter(([, p]) => !semver.satisfies(LOWEST, p.engines?.node ?? "*"))
    .map(([at, p]) => `${at.replace(/^.*node_modules\//, "")} (node ${p.engines?.node})`);
}

describe(`engines (node ${manifest.engines.node}) holds for what a user installs`, () => {
  it(`every runtime dependency accepts Node.js ${LOWEST}`, () => {
    assert.deepEqual(refusing(false), []);
  });

  it("the docs name the Google SDK version for Node.js 20, since its 8 wants Node.js 22", () => {
    const docs = readFileSync(path.join(ROOT, "docs", "fleets.md"), "utf8");
    assert.match(docs, /Node\.js 20: `npm install @google-cloud\/storage@7`/);
    // What the checkout's dev tools ask beyond it (printed: npm ci's EBADENGINE warnings on Node.js 20).
    console.error(`      dev-only packages wanting more than Node.js ${LOWEST}: ${refusing(true).join(", ")}`);
  });
});
