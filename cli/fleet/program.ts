// Loads the fleet's program once for every stack: a Node.js program whose module exports a
// function (`export = async () => …`, what the Node.js language host calls too) runs as an Automation API inline program in this process, so
// `@pulumi/pulumi`, the program and its TypeScript compiler start once for the whole fleet
// instead of once per stack. Any other program (Pulumi YAML, a module with top-level
// resources) runs per stack through its language host, as `pulumi up` runs it.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import type { FleetProject } from "./project";

export type Automation = typeof automation;
export type InlineProgram = automation.PulumiFn;

/**
 * The Automation API of the copy of `@pulumi/pulumi` the program itself resolves: an inline
 * program must register its resources with the same copy that runs the engine.
 */
export function loadAutomation(project: FleetProject): Automation {
  let resolved: string;
  try {
    resolved = require.resolve("@pulumi/pulumi/automation", { paths: [project.dir] });
  } catch {
    throw new Error(
      `cannot load @pulumi/pulumi from ${project.dir}: run \`npm install\` (or npm ci) in the program's project`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolved) as Automation;
}

async function readPackageMain(dir: string): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(dir, "package.json"), "utf8")) as { main?: string };
    return pkg.main;
  } catch {
    return undefined;
  }
}

/** The program's entry file, as the Node.js language host finds it (main, package.json's main, index). */
async function entryFile(project: FleetProject): Promise<string | undefined> {
  const base = path.resolve(project.dir, project.main ?? ".");
  const candidates: string[] = [];
  const pkgMain = await readPackageMain(existsSync(base) && (await fs.stat(base)).isDirectory() ? base : project.dir);
  for (const stem of [base, ...(pkgMain ? [path.resolve(base, pkgMain)] : []), path.join(base, "index")]) {
    candidates.push(stem, `${stem}.ts`, `${stem}.js`);
  }
  for (const file of candidates) {
    if (existsSync(file) && (await fs.stat(file)).isFile()) return file;
  }
  return undefined;
}

/** Whether the entry module's source exports one value (TypeScript `export =`/`export default`, or CommonJS). */
function exportsAFunction(source: string): boolean {
  return /^\s*export\s+default\b|^\s*export\s*=|^\s*module\.exports\s*=|^\s*exports\.default\s*=/m.test(source);
}

function registerTypeScript(project: FleetProject): void {
  let tsNode: string;
  try {
    tsNode = require.resolve("ts-node", { paths: [project.dir] });
  } catch {
    throw new Error(
      `the program of ${project.dir} is TypeScript but ts-node is not installed there: \`npm install --save-dev ts-node typescript\``,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { register } = require(tsNode) as { register: (opts: object) => unknown };
  const tsconfig = path.join(project.dir, "tsconfig.json");
  register({
    transpileOnly: true, // as PULUMI_NODEJS_TRANSPILE_ONLY: the type check belongs to CI's build step, not to each run
    ...(existsSync(tsconfig) ? { project: tsconfig } : { skipProject: true }),
    compilerOptions: { module: "commonjs" },
  });
}

export interface LoadedProgram {
  program?: InlineProgram;
  /** Why the program runs per stack, when it does. */
  perStackBecause?: string;
}

export async function loadProgram(project: FleetProject, allowInline: boolean): Promise<LoadedProgram> {
  if (!allowInline) return { perStackBecause: "--no-inline" };
  if (project.runtime !== "nodejs") return { perStackBecause: `runtime ${project.runtime} (not nodejs)` };
  const entry = await entryFile(project);
  if (!entry) return { perStackBecause: "no entry file found" };
  if (!exportsAFunction(await fs.readFile(entry, "utf8"))) {
    return { perStackBecause: `${path.basename(entry)} does not export a function (\`export = async () => …\`)` };
  }
  if (entry.endsWith(".ts")) registerTypeScript(project);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(entry) as { default?: unknown } | (() => unknown);
  const fn = typeof loaded === "function" ? loaded : loaded.default;
  if (typeof fn !== "function")
    return { perStackBecause: `${path.basename(entry)}'s default export is not a function` };
  return { program: fn as InlineProgram };
}
