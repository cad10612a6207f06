// Which stacks a fleet command runs: --stacks, --changed-since <git ref>, --shard i/n.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { promisify } from "node:util";
import { stackOfFile, type FleetProject } from "./project";

const execFileAsync = promisify(execFile);

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), got "${text}"`);
  }
  return { index, count };
}

/**
 * The shard (1-based) a stack belongs to: a hash of its name, so a stack stays in the same
 * shard when others are added or removed (CI concurrency groups per shard then hold per stack).
 */
export function shardOf(stack: string, count: number): number {
  const digest = createHash("sha256").update(stack).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return (await execFileAsync("git", args, { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`\`git ${args.join(" ")}\` failed in ${cwd}: ${(failed.stderr || failed.message).trim()}`);
  }
}

/**
 * The commit `ref` names, or a refusal. Resolved first, so that what reaches `git diff` is a
 * commit id: a ref that reads as an option (`--output=<path>` writes a file) never does.
 */
async function commitOf(root: string, ref: string): Promise<string> {
  let commit = "";
  if (ref.length > 0 && !ref.startsWith("-")) {
    try {
      const args = ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`];
      commit = (await execFileAsync("git", args, { cwd: root })).stdout.trim();
    } catch {
      commit = "";
    }
  }
  if (!/^[0-9a-f]{40,64}$/.test(commit)) {
    throw new Error(
      `--changed-since ${JSON.stringify(ref)} names no commit in ${root}: give a branch, tag or commit id (e.g. origin/main; fetch it first in a shallow clone)`,
    );
  }
  return commit;
}

export interface ChangedStacks {
  stacks: string[];
  /** Why every stack was selected (a program file changed), if so. */
  allBecause?: string;
}

/**
 * The stacks whose `Pulumi.<stack>.yaml` changed since `ref` (committed since the merge base
 * with `ref`, uncommitted, or new and untracked); every stack when any other tracked file of
 * the program's directory changed.
 */
export async function changedStacks(project: FleetProject, ref: string): Promise<ChangedStacks> {
  const root = (await git(project.dir, ["rev-parse", "--show-toplevel"])).trim();
  const commit = await commitOf(root, ref);
  const lines = (text: string) => text.split("\n").filter((f) => f.length > 0);
  const [committed, uncommitted, untracked] = await Promise.all([
    git(root, ["diff", "--name-only", "--no-renames", "--end-of-options", `${commit}...HEAD`]),
    git(root, ["diff", "--name-only", "--no-renames", "--end-of-options", "HEAD"]),
    git(root, ["ls-files", "--others", "--exclude-standard"]),
  ]);
  // Untracked files count only as new stack files: a report written beside the program is not a program change.
  const files = new Set([
    ...lines(committed),
    ...lines(uncommitted),
    ...lines(untracked).filter((f) => stackOfFile(path.basename(f)) !== undefined),
  ]);
  const stacks = new Set<string>();
  for (const file of files) {
    const abs = path.resolve(root, file);
    const rel = path.relative(project.dir, abs);
    if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
    const stack = path.dirname(rel) === "." ? stackOfFile(path.basename(rel)) : undefined;
    if (stack !== undefined) {
      if (project.stacks.includes(stack)) stacks.add(stack); // a deleted file names no stack to run
    } else if (!rel.split(path.sep).includes("node_modules")) {
      return { stacks: [...project.stacks], allBecause: `${file} (part of the program) changed` };
    }
  }
  return { stacks: [...stacks].sort() };
}

export interface Selection {
  stacks?: string;
  changedSince?: string;
  shard?: string;
}

export interface Selected {
  stacks: string[];
  /** One line on how they were chosen, for the progress output. */
  reason: string;
}

export async function selectStacks(project: FleetProject, selection: Selection): Promise<Selected> {
  if (project.stacks.length === 0) {
    throw new Error(
      `no stack files (Pulumi.<stack>.yaml) in ${project.dir}: add one with \`pulumi-embedded-connectors fleet new <stack> --account-id <id>\``,
    );
  }
  let stacks = [...project.stacks];
  const reasons: string[] = [];
  if (selection.stacks !== undefined) {
    const named = selection.stacks
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    const unknown = named.filter((s) => !project.stacks.includes(s));
    if (unknown.length > 0) {
      throw new Error(
        `no stack file for ${unknown.join(", ")} in ${project.dir} (its stacks: ${project.stacks.join(", ")})`,
      );
    }
    stacks = stacks.filter((s) => named.includes(s));
    reasons.push(`--stacks ${named.join(",")}`);
  }
  if (selection.changedSince !== undefined) {
    const changed = await changedStacks(project, selection.changedSince);
    stacks = stacks.filter((s) => changed.stacks.includes(s));
    reasons.push(
      changed.allBecause
        ? `every stack: ${changed.allBecause}`
        : `${changed.stacks.length} stack file(s) changed since ${selection.changedSince}`,
    );
  }
  if (selection.shard !== undefined) {
    const shard = parseShard(selection.shard);
    stacks = stacks.filter((s) => shardOf(s, shard.count) === shard.index);
    reasons.push(`shard ${shard.index}/${shard.count}`);
  }
  return { stacks, reason: reasons.length > 0 ? reasons.join("; ") : "every stack" };
}
