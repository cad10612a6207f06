// The Python and Go SDKs (sdk/) are generated from the plugin's schema by tools/sdkgen, never
// edited by hand: regenerating them into a temporary directory must give exactly the committed
// files. The schema's descriptions are the SDKs' docs, and every input it marks secret is sent
// as a secret by both SDKs (a program passing a plain string still gets ciphertext in state).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);
const sdkDir = path.join(repoRoot, "sdk");
/** What the test tells to do when the committed SDKs are stale. */
const REGENERATE = "run `npm run sdk` and commit sdk/";

type SchemaProperty = { description?: string; secret?: boolean };
type SchemaSpec = {
  provider: { inputProperties: Record<string, SchemaProperty> };
  resources: Record<string, { description: string; inputProperties: Record<string, SchemaProperty> }>;
  functions: Record<string, { description: string }>;
};

/** Every file under dir (relative, `/`-separated), sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** The files of sdk/ a commit would hold: tracked or untracked, less what .gitignore ignores (pip's build output). */
async function committedFiles(): Promise<string[]> {
  const { stdout } = await execFileAsync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", "sdk"], { cwd: repoRoot });
  const listed = stdout.split("\n").filter((line) => line !== "").map((line) => line.slice("sdk/".length));
  // A file deleted from the work tree but still in the index is not there to compare.
  const present = await Promise.all(listed.map((name) => fs.access(path.join(sdkDir, name)).then(() => name, () => undefined)));
  return present.filter((name): name is string => name !== undefined).sort();
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const pascal = (name: string): string => name[0].toUpperCase() + name.slice(1);
const resourceName = (token: string): string => token.split(":")[2];

describe("sdk: the generated Python and Go SDKs", function () {
  let generated: string;
  let schema: SchemaSpec;

  before(async function () {
    this.timeout(15 * 60_000); // a cold Go build cache compiles the code generators
    generated = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-sdk-"));
    await execFileAsync(process.execPath, [path.join(repoRoot, "scripts", "generate-sdks.js"), "--out", generated], { cwd: repoRoot });
    schema = JSON.parse(await fs.readFile(path.join(generated, "schema.json"), "utf8")) as SchemaSpec;
  });

  after(async () => {
    if (generated) await fs.rm(generated, { recursive: true, force: true });
  });

  it("the committed sdk/ is exactly what the generator writes from today's schema", async () => {
    const expected = await filesUnder(generated);
    const committed = await committedFiles();
    const missing = expected.filter((f) => !committed.includes(f));
    const extra = committed.filter((f) => !expected.includes(f));
    const differing: string[] = [];
    for (const name of expected.filter((f) => committed.includes(f))) {
      const [want, have] = await Promise.all([fs.readFile(path.join(generated, name)), fs.readFile(path.join(sdkDir, name))]);
      if (!want.equals(have)) differing.push(name);
    }
    const problems = [
      ...missing.map((f) => `missing: sdk/${f}`),
      ...extra.map((f) => `not generated: sdk/${f}`),
      ...differing.map((f) => `differs: sdk/${f}`),
    ];
    assert.deepEqual(problems, [], `the committed SDKs are stale: ${REGENERATE}.\n${problems.slice(0, 20).join("\n")}`);
    assert.ok(expected.includes("python/pyproject.toml") && expected.includes("go/go.mod"), `the generator wrote both SDKs: ${expected.join(", ")}`);
  });

  it("names the packages as the README says: pip's pulumi_embedded, Go's pulumi-embedded-connectors/sdk/go/embedded", async () => {
    const pyproject = await fs.readFile(path.join(generated, "python", "pyproject.toml"), "utf8");
    assert.match(pyproject, /^\s*name = "pulumi_embedded"$/m);
    assert.match(pyproject, /"pulumi>=3\.\d+\.\d+,<4\.0\.0"/, "requires the pulumi SDK");
    const packageJson = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as { version: string; pulumi: { server: string } };
    const { version, pulumi: { server } } = packageJson;
    assert.match(pyproject, new RegExp(`^\\s*version = "${version.replace(/\./g, "\\.")}"$`, "m"), "the package's version");
    const goMod = await fs.readFile(path.join(generated, "go", "go.mod"), "utf8");
    assert.match(goMod, /^module pulumi-embedded-connectors\/sdk\/go$/m);
    // Both ask the engine for the plugin of the package's own version, from the release URL of package.json.
    for (const file of ["python/pulumi_embedded/pulumi-plugin.json", "go/embedded/pulumi-plugin.json"]) {
      const plugin = JSON.parse(await fs.readFile(path.join(generated, file), "utf8")) as { name: string; version: string; resource: boolean };
      assert.deepEqual(plugin, { resource: true, name: "embedded", version, server }, file);
    }
    // Go's resources and invokes, and Python's, also carry it as an option.
    const goUtilities = await fs.readFile(path.join(generated, "go", "embedded", "internal", "pulumiUtilities.go"), "utf8");
    assert.equal(goUtilities.split(`pulumi.PluginDownloadURL(${JSON.stringify(server)})`).length - 1, 2, "Go's default resource and invoke options");
    const pyUtilities = await fs.readFile(path.join(generated, "python", "pulumi_embedded", "_utilities.py"), "utf8");
    assert.ok(pyUtilities.includes(`return ${JSON.stringify(server)}`), "Python's get_plugin_download_url()");
  });

  it("every resource's and function's description is its docstring in Python and its doc comment in Go", async () => {
    const python = await fs.readFile(path.join(generated, "python", "pulumi_embedded", "__init__.py"), "utf8");
    assert.ok(python.length > 0);
    const entries = [...Object.entries(schema.resources), ...Object.entries(schema.functions)];
    assert.ok(entries.length >= 4, `resources and functions in the schema: ${entries.length}`);
    for (const [token, spec] of entries) {
      const name = resourceName(token);
      const first = spec.description.split("\n")[0];
      const py = await fs.readFile(path.join(generated, "python", "pulumi_embedded", `${snake(name).replace(/^_/, "")}.py`), "utf8");
      assert.ok(py.includes(first), `the Python docstring of ${token} holds its description`);
      const go = await fs.readFile(path.join(generated, "go", "embedded", `${name[0].toLowerCase()}${name.slice(1)}.go`), "utf8");
      assert.ok(go.includes(`// ${first.split(" ").slice(0, 6).join(" ")}`), `the Go doc comment of ${token} holds its description`);
    }
  });

  it("every input the schema marks secret is wrapped as a secret by both SDKs", async () => {
    const secrets: [string, string][] = Object.entries(schema.provider.inputProperties)
      .filter(([, p]) => p.secret)
      .map(([prop]) => ["provider", prop]);
    for (const [token, spec] of Object.entries(schema.resources)) {
      for (const [prop, p] of Object.entries(spec.inputProperties)) if (p.secret) secrets.push([resourceName(token), prop]);
    }
    assert.ok(secrets.some(([, prop]) => prop === "clientSecret") && secrets.some(([, prop]) => prop === "secretConfig"), JSON.stringify(secrets));
    for (const [owner, prop] of secrets) {
      const file = owner === "provider" ? "provider" : snake(owner).replace(/^_/, "");
      const py = await fs.readFile(path.join(generated, "python", "pulumi_embedded", `${file}.py`), "utf8");
      assert.ok(py.includes(`pulumi.Output.secret(${snake(prop)})`), `Python sends ${owner}.${prop} as a secret`);
      const goFile = owner === "provider" ? "provider" : `${owner[0].toLowerCase()}${owner.slice(1)}`;
      const go = await fs.readFile(path.join(generated, "go", "embedded", `${goFile}.go`), "utf8");
      assert.ok(go.includes(`args.${pascal(prop)} = pulumi.ToSecret(args.${pascal(prop)})`), `Go sends ${owner}.${prop} as a secret`);
    }
  });
});
