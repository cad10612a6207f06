// The fleet's fast drift check: what `pulumi refresh --preview-only` does for the plugin's
// resources, in this process, with the provider's own code (provider/hosts/in-process/refresh.ts:
// the same Read, then the Diff of what was read against the stored inputs). Each customer's
// stacks share one client (one token, one pool, one limiter of `concurrency` requests); each
// stack runs in its own settings scope, so customers run side by side.
import {
  addedConnectorsOf,
  connectorOfId,
  previewRefresh,
  useInProcessHost,
  withProviderArguments,
} from "../../../provider/hosts/in-process/refresh";
import { nameOfUrn, type ResourceChange, type StackReport } from "../report";
import type { StateResource } from "./checkpoint";
import type { ReadyStack } from "./credentials";
import { changedOutputs } from "./changed-outputs";
import type { SubAccountListing } from "./discovery";

/** What a preview-only refresh finds of one resource: nothing, or the change it would record. */
async function refreshOne(r: StateResource): Promise<ResourceChange | undefined> {
  const change = (operation: string, properties: string[]): ResourceChange => ({
    urn: r.urn,
    type: r.type,
    name: nameOfUrn(r.urn),
    operation,
    properties,
  });
  const found = await previewRefresh(r);
  if (found.gone) return change("delete", []);
  return found.changed ? change("update", changedOutputs(r.outputs ?? {}, found.news)) : undefined;
}

async function checkStack(
  stack: string,
  resources: StateResource[],
  repairCommand: (stack: string) => string,
  listings?: SubAccountListing[],
): Promise<StackReport> {
  const started = Date.now();
  const settled = await Promise.allSettled(resources.map(refreshOne));
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  const changes = settled
    .flatMap((s) => (s.status === "fulfilled" && s.value ? [s.value] : []))
    .sort((a, b) => a.urn.localeCompare(b.urn));
  const durationMs = Date.now() - started;
  if (failed.length > 0) {
    const messages = [...new Set(failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason))))];
    return { stack, status: "failed", durationMs, resources: changes, error: messages.join("\n").slice(0, 4000) };
  }
  const drifted = changes.length > 0;
  if (listings) {
    // After the reads: each sub-account's listing is the one they used (no further request).
    const managed = new Map<string, string[]>();
    for (const r of resources) {
      const { accountId, connectorId } = connectorOfId(r.id ?? "");
      managed.set(accountId, [...(managed.get(accountId) ?? []), connectorId]);
    }
    for (const [accountId, ids] of managed) {
      try {
        listings.push({ accountId, listed: await addedConnectorsOf(accountId), managed: ids });
      } catch (error) {
        listings.push({ accountId, error: (error as Error).message, managed: ids });
      }
    }
  }
  return {
    stack,
    status: drifted ? "drifted" : "clean",
    durationMs,
    resources: changes,
    ...(drifted ? { repair: repairCommand(stack) } : {}),
  };
}

/** Stacks as they become ready to check (each once its key is open), then undefined: the end. */
export interface StackFeed {
  next(): Promise<ReadyStack | undefined>;
}

/** A feed its producer pushes to and ends (groupByCredentials' onReady, then its end). */
export function stackFeed(): StackFeed & { push(stack: ReadyStack): void; end(): void } {
  const items: ReadyStack[] = [];
  const waiting: ((s: ReadyStack | undefined) => void)[] = [];
  let ended = false;
  return {
    push(stack) {
      const waiter = waiting.shift();
      if (waiter) waiter(stack);
      else items.push(stack);
    },
    end() {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
    },
    next() {
      if (items.length > 0 || ended) return Promise.resolve(items.shift());
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

export interface FastRunOptions {
  /** The stacks, or a feed of them as their keys open (checks start before every key is derived). */
  stacks: ReadyStack[] | StackFeed;
  /** Stacks checked at once (their requests share their customer's client and its limiter). */
  concurrency: number;
  repairCommand: (stack: string) => string;
  onStart?: (stack: string) => void;
  onFinish?: (report: StackReport) => void;
  stop?: AbortSignal;
  /** Discovery: each stack's sub-accounts as listed (`fleet drift` without --no-discovery). */
  onListed?: (stack: string, listings: SubAccountListing[]) => void;
}

export async function runFastDrift(opts: FastRunOptions): Promise<StackReport[]> {
  const reports: StackReport[] = [];
  const warnings: string[] = [];
  useInProcessHost((message) => warnings.push(message));
  const list = Array.isArray(opts.stacks) ? [...opts.stacks] : undefined;
  const feed: StackFeed = list ? { next: async () => list.shift() } : (opts.stacks as StackFeed);
  // Each stack in its own settings scope: its provider's settings; the same customer's stacks
  // resolve to the same client (client/index.ts getClient: one per base URL and credentials).
  const worker = async () => {
    for (let next = await feed.next(); next; next = await feed.next()) {
      const { plan, settings } = next;
      if (opts.stop?.aborted) {
        reports.push({
          stack: plan.stack,
          status: "failed",
          durationMs: 0,
          resources: [],
          error: "not run: the fleet run was interrupted; run it again",
        });
        continue;
      }
      opts.onStart?.(plan.stack);
      const listings: SubAccountListing[] | undefined = opts.onListed ? [] : undefined;
      const report = await withProviderArguments(settings, () =>
        checkStack(plan.stack, plan.resources, opts.repairCommand, listings),
      );
      if (listings) opts.onListed?.(plan.stack, listings);
      reports.push(report);
      opts.onFinish?.(report);
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency, list ? list.length : opts.concurrency));
  await Promise.all(Array.from({ length: workers }, worker));
  return reports;
}
