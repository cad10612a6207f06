// The package as a user's infrastructure repository gets it. The packed package
// is installed into a project outside the repository; what it brings, what it declares and
// whether the README's and the examples' programs compile there under the tsconfig of
// `pulumi new typescript` (strict, no skipLibCheck, no esModuleInterop).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { constants as fsConstants, promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import * as semver from "semver";
import { repoRoot } from "../../harness/engine";
import {
  installFootprint,
  PACKAGE_NAME,
  sharedConsumerProject,
  TEMPLATE_TSCONFIG,
  typeCheck,
  typescriptBlocks,
  type ConsumerProject,
} from "./project";

const execFileAsync = promisify(execFile);
const EXAMPLES = ["quickstart", "sub-account-baseline", "gitops"];

/** The oldest and newest @pulumi/pulumi of COMPATIBILITY.md: the peer range must admit both. */
const TESTED_PULUMI_VERSIONS = ["3.139.0", "3.248.0", "3.270.0"];

/** Every declaration file the package's entry point reaches, and the bare module names they import. */
async function declarationGraph(entry: string): Promise<{ files: string[]; bareImports: Set<string> }> {
  const files: string[] = [];
  const bareImports = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.includes(file)) continue;
    files.push(file);
    const text = await fs.readFile(file, "utf8");
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*"([^"]+)"/g)) {
      if (specifier.startsWith(".")) {
        const target = path.join(path.dirname(file), specifier);
        const asFile = target.endsWith(".d.ts") ? target : `${target}.d.ts`;
        const exists = await fs.stat(asFile).then(
          () => true,
          () => false,
        );
        queue.push(exists ? asFile : path.join(target, "index.d.ts"));
      } else {
        bareImports.add(specifier);
      }
    }
  }
  return { files, bareImports };
}

describe("consumer: the packed package in a user's project", function () {
  this.timeout(300_000);
  let project: ConsumerProject;
  let installed: string;

  before(async () => {
    project = await sharedConsumerProject();
    installed = path.join(project.dir, "node_modules", PACKAGE_NAME);
  });

  it("ships the provider, the plugin `embedded` and the commands, not the local service", async () => {
    // tar -tv: "<mode> <owner> <size> <date> <time> <path>", the mode as ls prints it.
    const { stdout } = await execFileAsync("tar", ["-tvzf", project.tarball], { maxBuffer: 16 * 1024 * 1024 });
    const modes = new Map(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const fields = line.trim().split(/\s+/);
          return [fields[fields.length - 1], fields[0]] as const;
        }),
    );
    const files = [...modes.keys()];
    assert.ok(files.includes("package/dist/provider/index.js"));
    assert.ok(files.includes("package/dist/provider/index.d.ts"));
    assert.ok(files.includes("package/dist/cli/main.js"), "the generate and plugin install commands");
    assert.ok(files.includes("package/dist/cli/plugin-install.js"), "the plugin install command");
    assert.ok(files.includes("package/dist/plugin/embedded-plugin.js"), "the plugin's bundle");
    assert.ok(files.includes("package/dist/plugin/embedded-start.js"), "the module the launcher runs");
    assert.deepEqual(
      files.filter((f) => f.endsWith(".v8cache")),
      [],
      "no code cache of the machine that packed it",
    );
    const launcher = modes.get("package/dist/plugin/pulumi-resource-embedded");
    assert.ok(launcher, "the plugin's executable");
    assert.match(launcher, /^-rwx/, `the plugin's executable keeps its executable bit in the tarball (${launcher})`);
    const unwanted = files.filter((f) =>
      /^package\/(dist\/(service|test|bench)\/|dist\/cli\/start\.|service\/)/.test(f),
    );
    assert.deepEqual(unwanted, []);
    // What the user's npm install made of it: the engine runs the launcher as it is.
    await fs.access(path.join(installed, "dist", "plugin", "pulumi-resource-embedded"), fsConstants.X_OK);
  });

  it("never packs a plugin code cache, even one that a run left in dist/plugin", async () => {
    // The plugin writes its code cache beside its bundle (provider/hosts/plugin/start.ts), so a run in
    // place leaves one in dist/plugin; package.json's `files` must keep it out of the tarball.
    const planted = path.join(repoRoot, "dist", "plugin", ".embedded-plugin.js.0123456789abcdef.v0.0.0-test.v8cache");
    await fs.writeFile(planted, "left by a run in place");
    try {
      const { stdout } = await execFileAsync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
        cwd: repoRoot,
        maxBuffer: 16 * 1024 * 1024,
      });
      const [info] = JSON.parse(stdout) as { files: { path: string }[] }[];
      const packed = info.files.map((file) => file.path);
      assert.ok(packed.includes("dist/plugin/embedded-start.js"), "the plugin directory is packed");
      assert.deepEqual(
        packed.filter((file) => file.endsWith(".v8cache")),
        [],
      );
    } finally {
      await fs.rm(planted, { force: true });
    }
  });

  // yaml: service profiles (docs/service-profile.md) may be YAML files, read by every host.
  it("depends on undici, zod, yaml and commander only, with @pulumi/pulumi a peer admitting every tested version", async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(installed, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      scripts?: Record<string, string>;
    };
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["commander", "undici", "yaml", "zod"]);
    // npm lists these to the user as install scripts (and would run them from a git install).
    const lifecycle = Object.keys(pkg.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare)$/.test(s));
    assert.deepEqual(lifecycle, [], "no install-time script in the package's manifest");
    const range = pkg.peerDependencies["@pulumi/pulumi"];
    for (const version of TESTED_PULUMI_VERSIONS) {
      assert.ok(semver.satisfies(version, range), `the peer range ${range} admits @pulumi/pulumi ${version}`);
    }
  });

  it("adds fewer than 10 packages beyond @pulumi/pulumi's own and builds nothing native", async () => {
    const footprint = await installFootprint(project);
    assert.deepEqual(footprint.addedPackages, ["commander", "pulumi-embedded-connectors", "undici", "yaml", "zod"]);
    const ours = footprint.withInstallScripts.filter((name) => footprint.addedPackages.includes(name));
    assert.deepEqual(ours, [], "no package the provider brings has an install script");
  });

  it("declares its public API without zod or the client's internals", async () => {
    const { files, bareImports } = await declarationGraph(path.join(installed, "dist", "provider", "index.d.ts"));
    assert.deepEqual([...bareImports].sort(), ["@pulumi/pulumi"]);
    const relative = files.map((f) => path.relative(installed, f));
    // The plugin's SDK (the namespace `embedded`) is part of the graph, not a separate entry.
    for (const file of ["index", "provider", "added-connector", "connector-configuration", "functions"]) {
      assert.ok(
        relative.includes(`dist/provider/hosts/sdk/${file}.d.ts`),
        `embedded/${file}.d.ts in ${relative.join(", ")}`,
      );
    }
    assert.ok(
      !relative.some((f) => f.endsWith("client/schemas.d.ts") || f.endsWith("client/client.d.ts")),
      relative.join(", "),
    );
  });

  it("compiles the TypeScript of README.md and docs/, every example and the result types under the template tsconfig", async () => {
    const checkDir = path.join(project.dir, "typecheck");
    await fs.rm(checkDir, { recursive: true, force: true });
    const files: string[] = [];
    // README.md and every page of docs/ (the plugin's example is in docs/plugin.md).
    const docsDir = path.join(repoRoot, "docs");
    const pages = [path.join(repoRoot, "README.md")];
    // DESIGN.md's blocks are interface sketches for contributors, not programs.
    for (const name of (await fs.readdir(docsDir)).sort())
      if (name.endsWith(".md") && name !== "DESIGN.md") pages.push(path.join(docsDir, name));
    const readme: string[] = [];
    for (const page of pages) readme.push(...typescriptBlocks(await fs.readFile(page, "utf8")));
    assert.ok(readme.length >= 1, "the README has a TypeScript example");
    assert.ok(
      readme.some((block) => block.includes("embedded.Provider")),
      "the docs have the plugin's TypeScript example",
    );
    for (const [i, block] of readme.entries()) {
      await fs.mkdir(path.join(checkDir, `readme-${i}`), { recursive: true });
      await fs.writeFile(path.join(checkDir, `readme-${i}`, "index.ts"), block);
      files.push(`readme-${i}/index.ts`);
    }
    for (const example of EXAMPLES) {
      const source = path.join(repoRoot, "examples", example);
      const target = path.join(checkDir, `example-${example}`);
      await fs.mkdir(target, { recursive: true });
      for (const name of await fs.readdir(source)) {
        if (name.endsWith(".ts") || name.endsWith(".json"))
          await fs.copyFile(path.join(source, name), path.join(target, name));
      }
      files.push(`example-${example}/index.ts`);
    }
    // The result types are exact: a field is an Output of its type, and a typo is an error.
    await fs.writeFile(
      path.join(checkDir, "result-types.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as ec from "pulumi-embedded-connectors";',
        'const found = ec.findConnectorOutput({ name: "Amazon S3", supportedType: "Source" });',
        "export const id: pulumi.Output<string> = found.connectorId;",
        "// Source, Destination, or another side a service may have (docs/service-contract.md): still a string.",
        "export const side: pulumi.Output<string> = found.supportedType;",
        "// @ts-expect-error a number is not a side",
        "export const notSide: pulumi.Output<number> = found.supportedType;",
        "export const fields: pulumi.Output<ec.ConfigurationField[]> =",
        "  ec.getConnectorConfigurationOutput({ connectorId: id }).fields;",
        "// @ts-expect-error no index signature: an unknown field does not compile",
        "export const typo = found.conectorId;",
        "// The plugin's SDK: the same types, with explicit providers.",
        'const customer = new ec.embedded.Provider("p", { timeoutMs: 1 });',
        "const byPlugin = ec.embedded.findConnectorOutput(",
        '  { name: "Amazon S3", supportedType: "Source" },',
        "  { provider: customer },",
        ");",
        "export const pluginId: pulumi.Output<string> = byPlugin.connectorId;",
        "export const pluginSide: pulumi.Output<string> = byPlugin.supportedType;",
        'const added = new ec.embedded.AddedConnector("a", { connectorId: pluginId }, { provider: customer });',
        "export const addedAccount: pulumi.Output<string> = added.accountId;",
        "export const pluginFields: pulumi.Output<ec.ConfigurationField[]> =",
        "  ec.embedded.getConnectorConfigurationOutput({ connectorId: added.connectorId }, { provider: customer }).fields;",
        'export const configured = new ec.embedded.ConnectorConfiguration("c", {',
        "  connectorId: added.connectorId,",
        '  secretConfig: { bucket: "b", secretAccessKey: pulumi.secret("s") },',
        "});",
        "// @ts-expect-error a typo'd argument of the plugin's AddedConnector does not compile",
        'new ec.embedded.AddedConnector("b", { connectorId: pluginId, adoptExistng: true });',
        "// @ts-expect-error an unknown setting of an explicit provider does not compile",
        'new ec.embedded.Provider("q", { timeout: 1 });',
        "// @ts-expect-error a setting's type is checked",
        'new ec.embedded.Provider("r", { timeoutMs: "1" });',
        "// @ts-expect-error the plugin's AddedConnector has no such output",
        "export const pluginTypo = added.conectorId;",
        "",
      ].join("\n"),
    );
    files.push("result-types.ts");
    await fs.writeFile(path.join(checkDir, "tsconfig.json"), JSON.stringify({ ...TEMPLATE_TSCONFIG, files }, null, 2));
    assert.equal(await typeCheck(project, checkDir), "");
  });

  it("keeps every example's own tsconfig the template's (no noCheck, no skipLibCheck)", async () => {
    for (const example of EXAMPLES) {
      const own = JSON.parse(await fs.readFile(path.join(repoRoot, "examples", example, "tsconfig.json"), "utf8")) as {
        compilerOptions: Record<string, unknown>;
      };
      assert.deepEqual(own.compilerOptions, TEMPLATE_TSCONFIG.compilerOptions, `examples/${example}/tsconfig.json`);
    }
  });
});
