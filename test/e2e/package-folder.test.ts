// `pulumi package get-schema` and `gen-sdk` on the plugin folder the npm package ships
// (dist/plugin), under NEWEST_CLI (v3.274.1), with the language hosts scripts/ensure-pulumi.sh
// builds. A folder's name does not say the plugin's, so the CLI takes it only with a
// PulumiPlugin.yaml (runtime nodejs): the Node.js host installs the folder's package.json and
// runs `node <@pulumi/pulumi's run-plugin> <folder> <engine>`. The plugin's executable inside it
// is taken by its name (pulumi-resource-embedded). What needs a host newer than the module proxy
// serves (RunPlugin of Node.js, GeneratePackage of Python and Go: sdk v3.68.0 / v3.60.0 here) is
// skipped, saying so, and runs wherever a current host is on PATH.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ENGINE_TIMEOUT_MS, ensureEngine, NEWEST_CLI, repoRoot, type Engine } from "../../harness/engine";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pluginSchema } = require(path.join(repoRoot, "scripts", "plugin-schema.js")) as {
  pluginSchema(executable?: string, args?: string[]): Promise<string>;
};

const folder = path.join(repoRoot, "dist", "plugin");
const executable = path.join(folder, "pulumi-resource-embedded");
/** What a language host older than the feature answers (the CLI prints it). */
const HOST_TOO_OLD =
  /could not read plugin \[[^\]]*\]: not supported|GeneratePackage not implemented|unknown method GeneratePackage/;

/**
 * A schema as the CLI prints it: `get-schema` binds the served schema and writes it back, which
 * drops empty `required` lists and every `replaceOnChange` (v3.274.1); the rest is the served text's.
 */
function asCliPrints(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === "replaceOnChange" || (key === "required" && Array.isArray(value) && value.length === 0) ? undefined : value,
  );
}

interface Run {
  ok: boolean;
  output: string;
}

describe(`e2e: pulumi package on the plugin folder dist/plugin (CLI ${NEWEST_CLI})`, function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let engine: Engine;
  let served: unknown;
  let work: string;

  before(async function () {
    this.timeout(30 * 60_000); // a cold machine builds the CLI
    engine = await ensureEngine(NEWEST_CLI);
    served = JSON.parse(await pluginSchema());
    work = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-package-folder-"));
  });

  after(async () => {
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  async function pulumi(args: string[], env: Record<string, string> = {}): Promise<Run> {
    try {
      const { stdout, stderr } = await promisify(execFile)("pulumi", args, {
        cwd: work,
        env: { ...process.env, ...engine.env, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { ok: true, output: `${stdout}${stderr}` };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? failed.message}` };
    }
  }

  it("the folder carries PulumiPlugin.yaml (runtime nodejs) and a package.json whose main starts the plugin", async () => {
    assert.match(await fs.readFile(path.join(folder, "PulumiPlugin.yaml"), "utf8"), /^runtime: nodejs$/m);
    const manifest = JSON.parse(await fs.readFile(path.join(folder, "package.json"), "utf8")) as {
      main: string;
      dependencies: Record<string, string>;
    };
    assert.deepEqual(Object.keys(manifest.dependencies), ["@pulumi/pulumi"], "run-plugin's package, and nothing else");
    await fs.access(path.join(folder, manifest.main));
  });

  it("the folder started as a Node.js host's RunPlugin starts it (node <run-plugin> <folder>) serves the plugin's schema", async () => {
    const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [folder] });
    const schema = JSON.parse(await pluginSchema(process.execPath, [runPlugin, folder])) as unknown;
    assert.deepEqual(schema, served);
  });

  it("`pulumi package get-schema <folder>/pulumi-resource-embedded` prints the schema the plugin serves", async () => {
    const run = await pulumi(["package", "get-schema", executable]);
    assert.ok(run.ok, run.output);
    assert.deepEqual(JSON.parse(run.output) as unknown, asCliPrints(served));
  });

  it("`pulumi package gen-sdk <folder>/pulumi-resource-embedded --language yaml` writes the package's lock", async () => {
    const run = await pulumi([
      "package",
      "gen-sdk",
      executable,
      "--language",
      "yaml",
      "--out",
      path.join(work, "yaml"),
    ]);
    assert.ok(run.ok, run.output);
    const lock = await fs.readFile(path.join(work, "yaml", "yaml", "embedded-0.1.0.yaml"), "utf8");
    assert.match(lock, /packageDeclarationVersion|name: embedded/);
  });

  it("`pulumi package get-schema <folder>` (PulumiPlugin.yaml, through the Node.js host's RunPlugin)", async function () {
    // A copy, so that the host's `npm install` writes nothing into dist/; @pulumi/pulumi linked
    // in and npm offline: no network.
    const copy = path.join(work, "plugin");
    await fs.cp(folder, copy, { recursive: true, filter: (source) => !source.endsWith(".v8cache") });
    await fs.mkdir(path.join(copy, "node_modules", "@pulumi"), { recursive: true });
    await fs.symlink(
      path.join(repoRoot, "node_modules", "@pulumi", "pulumi"),
      path.join(copy, "node_modules", "@pulumi", "pulumi"),
      "dir",
    );
    const run = await pulumi(["package", "get-schema", copy], { npm_config_offline: "true" });
    if (!run.ok && HOST_TOO_OLD.test(run.output)) {
      console.error(`      skipped: the Node.js host on PATH has no RunPlugin (${HOST_TOO_OLD.exec(run.output)?.[0]})`);
      this.skip();
    }
    assert.ok(run.ok, run.output);
    assert.deepEqual(JSON.parse(run.output.slice(run.output.indexOf("{"))) as unknown, asCliPrints(served));
  });

  for (const language of ["python", "go"])
    it(`\`pulumi package gen-sdk <folder>/pulumi-resource-embedded --language ${language}\` writes the SDK of sdk/${language}`, async function () {
      const out = path.join(work, `gen-${language}`);
      const run = await pulumi(["package", "gen-sdk", executable, "--language", language, "--out", out]);
      if (!run.ok && HOST_TOO_OLD.test(run.output)) {
        console.error(
          `      skipped: the ${language} host on PATH has no GeneratePackage (${HOST_TOO_OLD.exec(run.output)?.[0]})`,
        );
        this.skip();
      }
      assert.ok(run.ok, run.output);
      const file = language === "python" ? "pulumi_embedded/added_connector.py" : "embedded/addedConnector.go";
      const [want, have] = await Promise.all([
        fs.readFile(path.join(repoRoot, "sdk", language, file), "utf8"),
        fs.readFile(path.join(out, language, file), "utf8"),
      ]);
      // The generator's name in the header differs; the code does not.
      const body = (text: string) => text.split("\n").slice(3).join("\n");
      assert.equal(body(have), body(want));
    });
});
