// The fleet's project: one Pulumi program directory whose stacks are the files
// `Pulumi.<stack>.yaml` beside its Pulumi.yaml, one stack per sub-account.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { findProjectFile } from "../../provider/project/pulumi-project";
import { knowBackendOf } from "./shown-text";

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

/** A string setting of the project file (`runtime` may be `{ name: … }`). */
function setting(doc: Record<string, unknown>, key: string): string | undefined {
  const value = doc[key];
  if (typeof value === "string") return value;
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return key === "runtime" && typeof name === "string" ? name : undefined;
}

export async function readProject(dir: string): Promise<FleetProject> {
  const abs = path.resolve(dir);
  const found = findProjectFile(abs);
  if (!found || path.dirname(found.file) !== abs) {
    throw new Error(
      `no Pulumi.yaml in ${abs}: run the fleet in the program's directory, or pass --dir <program directory>`,
    );
  }
  const name = setting(found.doc, "name");
  const runtime = setting(found.doc, "runtime");
  if (!name || !runtime) throw new Error(`${found.file} has no ${name ? "runtime" : "name"}`);
  const stacks = (await fs.readdir(abs))
    .map(stackOfFile)
    .filter((s): s is string => s !== undefined)
    .sort();
  knowBackendOf(abs);
  return { dir: abs, name, runtime, main: setting(found.doc, "main"), stacks };
}
