// `fleet drift` without an engine per stack: each stack's checkpoint read from the backend
// (backend.ts), its resources read and compared by the provider's own code (fast.ts). The stacks
// it cannot take go back to the caller with the reason, for the engine.
import type { FleetProject } from "../project";
import type { StackReport } from "../report";
import { openBackend } from "./backend";
import { groupByCredentials } from "./credentials";
import { runFastDrift, stackFeed } from "./fast";
import { passphraseFromEnv } from "./passphrase";
import { planStack, type StackPlan } from "./plan";
import { keySources } from "./secrets-providers";
import type { SubAccountListing } from "./discovery";

export interface FastDriftOptions {
  project: FleetProject;
  stacks: string[];
  concurrency: number;
  repairCommand: (stack: string) => string;
  onStart?: (stack: string) => void;
  onFinish?: (report: StackReport) => void;
  stop?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Discovery: each stack's sub-accounts as listed after its check. */
  onListed?: (stack: string, listings: SubAccountListing[]) => void;
}

export interface FastDriftResult {
  reports: StackReport[];
  /** Stack → why the engine must check it. */
  toEngine: Map<string, string>;
  /** Keys derived to decrypt client secrets (one per customer, unless a stack's differs). */
  decryptions: number;
}

export async function fastDrift(opts: FastDriftOptions): Promise<FastDriftResult> {
  const env = opts.env ?? process.env;
  const toEngine = new Map<string, string>();
  const backend = await openBackend(opts.project.dir, env);
  if ("reason" in backend) {
    for (const s of opts.stacks) toEngine.set(s, backend.reason);
    return { reports: [], toEngine, decryptions: 0 };
  }
  const plans: StackPlan[] = [];
  await Promise.all(
    opts.stacks.map(async (stack) => {
      const read = await backend.stacks.readCheckpoint(opts.project.name, stack);
      const planned = "reason" in read ? read : planStack(stack, read.checkpoint);
      if ("reason" in planned) toEngine.set(stack, planned.reason);
      else plans.push(planned.plan);
    }),
  );
  plans.sort((a, b) => a.stack.localeCompare(b.stack));
  let passphrase: string | undefined;
  try {
    passphrase = passphraseFromEnv(env);
  } catch {
    passphrase = undefined;
  }
  // Each stack is checked as soon as its key is open (its own PBKDF2, on another core): the
  // service's answers for the first stacks arrive while the later stacks' keys are derived.
  const feed = stackFeed();
  const grouped = groupByCredentials(plans, keySources(passphrase, env), (s) => feed.push(s));
  const end = () => feed.end();
  grouped.then(end, end);
  // A stack with nothing of the provider's to read is clean as it stands.
  const empty: StackReport[] = plans
    .filter((p) => p.resources.length === 0)
    .map((p) => ({ stack: p.stack, status: "clean", durationMs: 0, resources: [], checkedBy: "checkpoint" }));
  const reports = await runFastDrift({
    stacks: feed,
    concurrency: opts.concurrency,
    repairCommand: opts.repairCommand,
    onStart: opts.onStart,
    onFinish: opts.onFinish,
    stop: opts.stop,
    onListed: opts.onListed,
  });
  const grouping = await grouped;
  for (const [stack, reason] of grouping.refused) toEngine.set(stack, reason);
  return {
    reports: [...empty, ...reports.map((r) => ({ ...r, checkedBy: "checkpoint" as const }))],
    toEngine,
    decryptions: grouping.decryptions,
  };
}
