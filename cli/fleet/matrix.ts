// `fleet matrix`: the fleet's shards as a GitHub Actions `strategy.matrix`, one job per
// shard. A stack's shard is a hash of its name, so it stays in the same shard (and the same
// concurrency group) when other stacks come and go.
import type { FleetProject } from "./project";
import { changedStacks, shardOf } from "./select";

export interface MatrixEntry {
  /** The --shard argument, `i/n`. */
  shard: string;
  /** A name for the job and its concurrency group. */
  name: string;
  /** The shard's stacks, comma-separated (for display; the job passes --shard). */
  stacks: string;
}

export async function matrixOf(
  project: FleetProject,
  opts: { shards?: number; maxJobs: number; changedSince?: string },
): Promise<{ include: MatrixEntry[] }> {
  const count = opts.shards ?? Math.max(1, Math.min(project.stacks.length, opts.maxJobs));
  const changed = opts.changedSince ? new Set((await changedStacks(project, opts.changedSince)).stacks) : undefined;
  const include: MatrixEntry[] = [];
  for (let index = 1; index <= count; index++) {
    const stacks = project.stacks.filter((s) => shardOf(s, count) === index);
    if (stacks.length === 0 || (changed && !stacks.some((s) => changed.has(s)))) continue;
    include.push({ shard: `${index}/${count}`, name: `shard-${index}-of-${count}`, stacks: stacks.join(",") });
  }
  return { include };
}
