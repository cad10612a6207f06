// The fleet's project: one Pulumi program directory whose stacks are the files
// `Pulumi.<stack>.yaml` beside its Pulumi.yaml, one stack per sub-account.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";

export interface FleetProject {
  /** The absolute directory holding Pulumi.yaml. */
  dir: string;
  /** The project's name (the namespace of its config keys). */
  name: string;
  /** nodejs, yaml, … */
  runtime: string;
  /** Pulumi.yaml's `main`, if set. */
  main?: string;
  /** Every stack with a file `Pulumi.<stack>.yaml`, sorted. */
  stacks: string[];
}

const STACK_FILE = /^Pulumi\.(.+)\.ya?ml$/s; // s: a name holding U+2028 is a stack file too (then refused by name)

/** The stack a file name belongs to (`Pulumi.acme-eu.yaml` → `acme-eu`), if it is a stack file. */
export function stackOfFile(fileName: string): string | undefined {
  const match = STACK_FILE.exec(fileName);
  return match ? match[1] : undefined;
}

/** Pulumi's rule for a stack's name (what `pulumi stack init` accepts). */
const STACK_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export function isStackName(name: string): boolean {
  return STACK_NAME.test(name);
}

export function stackFileName(stack: string): string {
  return `Pulumi.${stack}.yaml`;
}

/** The value of a top-level key of Pulumi.yaml (`key: value`, or `key:` with `name:` under it for runtime). */
function topLevel(text: string, key: string): string | undefined {
  const inline = new RegExp(`^${key}:[ \\t]*([^\\s#][^#\\n]*?)[ \\t]*(#.*)?$`, "m").exec(text);
  if (inline) return inline[1].replace(/^["']|["']$/g, "");
  const nested = new RegExp(`^${key}:[ \\t]*\\n[ \\t]+name:[ \\t]*(\\S+)`, "m").exec(text);
  return nested?.[1].replace(/^["']|["']$/g, "");
}

export async function readProject(dir: string): Promise<FleetProject> {
  const abs = path.resolve(dir);
  const projectFile = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(abs, f)).find((f) => existsSync(f));
  if (!projectFile) {
    throw new Error(
      `no Pulumi.yaml in ${abs}: run the fleet in the program's directory, or pass --dir <program directory>`,
    );
  }
  const text = await fs.readFile(projectFile, "utf8");
  const name = topLevel(text, "name");
  const runtime = topLevel(text, "runtime");
  if (!name || !runtime) throw new Error(`${projectFile} has no ${name ? "runtime" : "name"}`);
  const stacks = (await fs.readdir(abs))
    .map(stackOfFile)
    .filter((s): s is string => s !== undefined)
    .sort();
  return { dir: abs, name, runtime, main: topLevel(text, "main"), stacks };
}
