// Issue 13: the package as a user's infrastructure repository gets it. The packed package
// is installed into a project outside the repository; what it brings, what it declares and
// whether the README's and the examples' programs compile there under the tsconfig of
// `pulumi new typescript` (strict, no skipLibCheck, no esModuleInterop).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import * as semver from "semver";
import { repoRoot } from "../e2e/engine";
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
        const exists = await fs.stat(asFile).then(() => true, () => false);
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

  it("ships the provider and the generate command, not the local service", async () => {
    const { stdout } = await execFileAsync("tar", ["-tzf", project.tarball], { maxBuffer: 16 * 1024 * 1024 });
    const files = stdout.split("\n").filter(Boolean);
    assert.ok(files.includes("package/dist/provider/index.js"));
    assert.ok(files.includes("package/dist/provider/index.d.ts"));
    assert.ok(files.includes("package/dist/cli/main.js"), "the generate command");
    const unwanted = files.filter((f) => /^package\/(dist\/(service|test|bench)\/|dist\/cli\/start\.|service\/)/.test(f));
    assert.deepEqual(unwanted, []);
  });

  it("depends on undici, zod and commander only, with @pulumi/pulumi a peer admitting every tested version", async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(installed, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      scripts?: Record<string, string>;
    };
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["commander", "undici", "zod"]);
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
    assert.deepEqual(footprint.addedPackages, ["commander", "pulumi-embedded-connectors", "undici", "zod"]);
    const ours = footprint.withInstallScripts.filter((name) => footprint.addedPackages.includes(name));
    assert.deepEqual(ours, [], "no package the provider brings has an install script");
  });

  it("declares its public API without zod or the client's internals", async () => {
    const { files, bareImports } = await declarationGraph(path.join(installed, "dist", "provider", "index.d.ts"));
    assert.deepEqual([...bareImports].sort(), ["@pulumi/pulumi"]);
    const relative = files.map((f) => path.relative(installed, f));
    assert.ok(!relative.some((f) => f.endsWith("client/schemas.d.ts") || f.endsWith("client/client.d.ts")), relative.join(", "));
  });

  it("compiles the README's TypeScript, every example and the result types under the template tsconfig", async () => {
    const checkDir = path.join(project.dir, "typecheck");
    await fs.rm(checkDir, { recursive: true, force: true });
    const files: string[] = [];
    const readme = typescriptBlocks(await fs.readFile(path.join(repoRoot, "README.md"), "utf8"));
    assert.ok(readme.length >= 1, "the README has a TypeScript example");
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
        if (name.endsWith(".ts") || name.endsWith(".json")) await fs.copyFile(path.join(source, name), path.join(target, name));
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
        'export const side: pulumi.Output<"Source" | "Destination"> = found.supportedType;',
        "export const fields: pulumi.Output<ec.ConfigurationField[]> =",
        "  ec.getConnectorConfigurationOutput({ connectorId: id }).fields;",
        "// @ts-expect-error no index signature: an unknown field does not compile",
        "export const typo = found.conectorId;",
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
