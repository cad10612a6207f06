// The fleet program is an export of the package, `pulumi-embedded-connectors/fleet`
// (compiled with the rest, with types, shipped), the example's index.ts only calls it, and the
// program finds customers.json beside the module that calls it, whatever the working directory
// (the fleet runs it in its own process). Under the real engine: test/e2e/fleet-package.test.ts.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { RunError } from "@pulumi/pulumi";
import { repoRoot } from "../../../../harness/engine";

interface Manifest {
  exports: Record<string, { types: string; default: string }>;
  typesVersions: Record<string, Record<string, string[]>>;
  files: string[];
}

/** The files `npm pack` would ship from the built tree (no file written, no script run). */
async function packedFiles(): Promise<Set<string>> {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
}

const manifest = async () => JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as Manifest;

describe("fleet: the program in the package", () => {
  let tmp: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-export-"));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it("`pulumi-embedded-connectors/fleet` resolves by name to the built program and its rules, with types for every resolution mode, and ships", async () => {
    const { exports, typesVersions, files } = await manifest();
    const entry = exports["./fleet"];
    assert.ok(entry, 'package.json exports "./fleet"');
    assert.ok(existsSync(path.join(repoRoot, entry.types)), `${entry.types} is built`);
    assert.equal(
      typesVersions["*"].fleet?.[0],
      entry.types.replace(/^\.\//, ""),
      "moduleResolution node finds the same types",
    );
    assert.ok(files.includes("dist/provider"), "dist/provider/fleet ships");
    assert.ok(files.includes("examples/fleet"), "the example the docs copy from node_modules ships");
    const resolved = require.resolve("pulumi-embedded-connectors/fleet", { paths: [repoRoot] });
    assert.equal(resolved, path.join(repoRoot, entry.default));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fleet = require(resolved) as Record<string, unknown>;
    for (const name of ["fleetProgram", "envSourceRefusal", "clearFieldRefusal", "ALWAYS_REFUSED"])
      assert.ok(name in fleet, `exports ${name}`);
  });

  it("the packed package holds every module its own modules require (`fleet` once needed an unshipped dist/cli/text-table.js)", async function () {
    this.timeout(60_000);
    const packed = await packedFiles();
    const missing: string[] = [];
    for (const file of [...packed].filter((f) => f.endsWith(".js") && !f.startsWith("examples/"))) {
      const source = await fs.readFile(path.join(repoRoot, file), "utf8");
      for (const [, request] of source.matchAll(/\brequire\("(\.{1,2}\/[^"]+)"\)/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), request));
        if (![target, `${target}.js`, `${target}.json`, `${target}/index.js`].some((t) => packed.has(t)))
          missing.push(`${file} requires ${request}`);
      }
    }
    assert.deepEqual(missing, [], "package.json's files leaves out a module the package loads");
    for (const file of [
      "examples/fleet/index.ts",
      "examples/fleet/customers.json",
      "examples/fleet/connectors/acme.json",
    ])
      assert.ok(packed.has(file), `ships ${file} (docs/fleets.md copies it from node_modules)`);
  });

  it("examples/fleet holds no copy of the rules: its index.ts calls the package's program", async () => {
    const dir = path.join(repoRoot, "examples", "fleet");
    assert.ok(!existsSync(path.join(dir, "secret-sources.ts")));
    const source = await fs.readFile(path.join(dir, "index.ts"), "utf8");
    assert.match(source, /from "pulumi-embedded-connectors\/fleet"/);
    assert.match(source, /^export = fleetProgram\(\);$/m);
  });

  it("reads customers.json beside the module that calls fleetProgram, not in the working directory; `dir` and `customersFile` override it", async () => {
    const program = path.join(tmp, "index.js");
    await fs.writeFile(
      program,
      `module.exports = require(${JSON.stringify(path.join(repoRoot, "dist", "provider", "fleet"))}).fleetProgram();\n`,
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const run = require(program) as () => Promise<unknown>;
    assert.notEqual(process.cwd(), tmp);
    await assert.rejects(run(), (error: Error) => {
      assert.equal(
        error.message,
        `the fleet's customers file ${path.join(tmp, "customers.json")} cannot be read (ENOENT): create it (docs/fleets.md), or pass fleetProgram({ dir, customersFile })`,
      );
      assert.ok(RunError.isInstance(error), "an expected refusal (RunError): the engine prints no stack trace");
      return true;
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { fleetProgram } = require("pulumi-embedded-connectors/fleet") as typeof import("../../../../provider/fleet");
    await fs.writeFile(path.join(tmp, "accounts.json"), "{ not json");
    await assert.rejects(
      fleetProgram({ dir: tmp, customersFile: "accounts.json" })(),
      new RegExp(`customers file ${path.join(tmp, "accounts.json").replace(/[.\\/]/g, "\\$&")} is not JSON`),
    );
  });
});
