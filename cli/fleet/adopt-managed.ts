// Which stacks already manage a sub-account, for `fleet adopt`'s refusal: two stacks holding the
// same sub-account each think its connectors are theirs, and removing a connector from either
// stack file sends a DELETE for the connector the other manages (with a Password the service held
// for the customer). Told from two places, either enough: the fleet's stack files (their
// `<project>:accountId`), and the backend's stacks, of every project (the accountId of the
// connectors their last checkpoint holds: a stack whose file was deleted or lives elsewhere
// still manages them). A checkpoint is read from the backend's store as `fleet drift` reads it;
// one it cannot read (the Pulumi Cloud, another backend) is exported through the engine. A stack
// whose checkpoint can be neither read nor exported, or a backend whose stacks of every project
// cannot be listed, refuses the adoption: "manages nothing" is never concluded from a failed read.
import type { Workspace } from "@pulumi/pulumi/automation";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseMapping } from "../../provider/project/pulumi-project";
import { openBackend } from "./drift/backend";
import { stackFileName, type FleetProject } from "./project";

export interface Manager {
  /** The stack's project (the fleet's, or another program's in the same backend). */
  project: string;
  stack: string;
  /** Where it was found: its stack file, or its checkpoint in the backend. */
  where: "stack file" | "backend";
}

/** Sub-account id → the stacks that manage it. */
export type Managers = Map<string, Manager[]>;

const PROVIDER_TYPES = /(^embedded:index:|:embedded-connectors:)(AddedConnector|ConnectorConfiguration)$/;

/** The sub-accounts a deployment's connectors name (their accountId input, else output). */
export function accountIdsOf(resources: unknown): string[] {
  if (!Array.isArray(resources)) return [];
  const ids = new Set<string>();
  for (const r of resources as {
    type?: unknown;
    inputs?: { accountId?: unknown };
    outputs?: { accountId?: unknown };
  }[]) {
    if (typeof r?.type !== "string" || !PROVIDER_TYPES.test(r.type)) continue;
    const id = r.inputs?.accountId ?? r.outputs?.accountId;
    if (typeof id === "string" && id !== "") ids.add(id);
  }
  return [...ids];
}

function add(managers: Managers, accountId: string, manager: Manager): void {
  const known = managers.get(accountId) ?? [];
  if (!known.some((m) => m.project === manager.project && m.stack === manager.stack && m.where === manager.where))
    known.push(manager);
  managers.set(accountId, known);
}

/** `org/project/stack`, `project/stack` or `stack` (the fleet's project) as `pulumi stack ls --all` names it. */
function nameParts(name: string, project: string): { project: string; stack: string } {
  const parts = name.split("/");
  return parts.length >= 2
    ? { project: parts[parts.length - 2], stack: parts[parts.length - 1] }
    : { project, stack: name };
}

/** Every stack of the fleet's files and of its backend, by the sub-account it manages. */
export async function managedSubAccounts(project: FleetProject, workspace: Workspace): Promise<Managers> {
  const managers: Managers = new Map();
  for (const stack of project.stacks) {
    const file = path.join(project.dir, stackFileName(stack));
    let accountId: unknown;
    try {
      const config = parseMapping(await fs.readFile(file, "utf8"), file).config as Record<string, unknown> | undefined;
      accountId = config?.[`${project.name}:accountId`];
    } catch {
      continue; // a file that cannot be read names no sub-account; the backend may still tell
    }
    if (typeof accountId === "string") add(managers, accountId, { project: project.name, stack, where: "stack file" });
  }
  const summaries = await workspace.listStacks({ all: true }).catch((e: unknown) => {
    throw new Error(
      "fleet adopt: could not list the backend's stacks of every project (`pulumi stack ls --all`), so it cannot " +
        `tell which sub-accounts they manage: ${firstLine(e)}. Check the backend's access (PULUMI_BACKEND_URL), then run it again`,
    );
  });
  const backend = await openBackend(project.dir);
  const unreadable: string[] = [];
  await Promise.all(
    summaries
      .filter((s) => (s.resourceCount ?? 1) > 0)
      .map(async (summary) => {
        const { project: owner, stack } = nameParts(summary.name, project.name);
        let resources: unknown;
        const read = "reason" in backend ? backend : await backend.stacks.readCheckpoint(owner, stack);
        if ("checkpoint" in read) resources = read.checkpoint.resources;
        else {
          const exported = await workspace.exportStack(summary.name).catch((e: unknown) => {
            unreadable.push(`${summary.name} (${firstLine(e)})`);
            return undefined;
          });
          resources = (exported?.deployment as { resources?: unknown } | undefined)?.resources;
        }
        for (const id of accountIdsOf(resources)) add(managers, id, { project: owner, stack, where: "backend" });
      }),
  );
  if (unreadable.length > 0)
    throw new Error(
      `fleet adopt: could not read the checkpoint of stack ${unreadable.sort().join(", ")}, so it cannot tell ` +
        "whether a sub-account to adopt is managed there already. Give this backend's credentials read access " +
        "to every stack (or remove the stack), then run it again; nothing was adopted",
    );
  return managers;
}

/** An error's first line (the CLI's own scrub, shownText, applies to what is printed). */
function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).trim().split("\n")[0];
}

function describe(m: Manager, fleet: FleetProject): string {
  const name = m.project === fleet.name ? m.stack : `${m.project}/${m.stack}`;
  return `${name} (${m.where === "stack file" ? stackFileName(m.stack) : "its checkpoint in the backend"})`;
}

/**
 * Why `stack` may not adopt `accountId`, or undefined. Refused: a sub-account another stack
 * manages; a stack name taken by a stack that manages another sub-account (or none, unless the
 * adoption resumes); a stack that exists already without --resume.
 */
export function adoptRefusal(
  fleet: FleetProject,
  entry: { accountId: string; stack: string },
  managers: Managers,
  exists: { file: boolean; backend: boolean },
  resume: boolean,
): string | undefined {
  const own = (m: Manager) => m.project === fleet.name && m.stack === entry.stack;
  const others = (managers.get(entry.accountId) ?? []).filter((m) => !own(m));
  if (others.length > 0) {
    const [first] = others;
    return (
      `sub-account ${entry.accountId} is managed already by stack ${others.map((m) => describe(m, fleet)).join(", ")}: ` +
      "a second stack would delete the connectors the first manages when one is removed from either file. " +
      `Manage its connectors in ${stackFileName(first.stack)} (then \`fleet up --stacks ${first.stack}\`); ` +
      `to give it another stack name, rename that stack (\`pulumi stack rename <new name> --stack ${first.stack}\`, and its file)`
    );
  }
  const taken = [...managers].filter(([id, ms]) => id !== entry.accountId && ms.some(own)).map(([id]) => id);
  if (taken.length > 0) {
    return (
      `the stack name ${entry.stack} is taken: stack ${entry.stack} manages sub-account ${taken.join(", ")}; ` +
      `give sub-account ${entry.accountId} another stack name in the accounts file`
    );
  }
  if ((exists.file || exists.backend) && !resume) {
    const where = exists.file ? stackFileName(entry.stack) : "in the backend";
    return (
      `stack ${entry.stack} exists already (${where}): pass --resume to finish an adoption this command started` +
      `${(managers.get(entry.accountId) ?? []).some(own) ? "" : `, or give sub-account ${entry.accountId} another stack name in the accounts file`}`
    );
  }
  return undefined;
}
