// Runs one engine operation on many stacks, k at a time, on the Automation API: one workspace
// (and, for an inline program, one loaded program) for the whole fleet. The engine does the
// work; this only schedules it and keeps the names the engine reports. One failing stack
// never stops the others; an abort (Ctrl-C, SIGTERM) cancels the running engines the
// engine's own way (they finish the step under way and release their locks).
import type { EngineEvent, OpType, Stack, Workspace } from "@pulumi/pulumi/automation";
import { changedOutputs } from "./drift/changed-outputs";
import { RunGuard, uncaughtText } from "./inline-errors";
import type { Automation, InlineProgram } from "./program";
import { shownText } from "./shown-text";
import {
  nameOfUrn,
  stackStatus,
  type FleetCommand,
  type PolicyViolation,
  type ResourceChange,
  type StackReport,
} from "./report";

export interface FleetRunOptions {
  automation: Automation;
  projectDir: string;
  command: FleetCommand;
  stacks: string[];
  concurrency: number;
  program?: InlineProgram;
  /** How to repair a drifted stack, given its name. */
  repairCommand: (stack: string) => string;
  onStart?: (stack: string) => void;
  onFinish?: (report: StackReport) => void;
  /** A stack that failed while others ran is run again alone. */
  onRetry?: (stack: string) => void;
  /** Cancels the running engines (their own way: the step under way finishes, the lock is released). */
  signal?: AbortSignal;
  /** Starts no further stack (default: `signal`). */
  stop?: AbortSignal;
  /** preview, up: the policy packs every stack runs with, and their config files (absolute paths). */
  policyPacks?: string[];
  policyPackConfigs?: string[];
}

/** Steps that change nothing in the sub-account. */
const UNCHANGED: ReadonlySet<OpType> = new Set<OpType>([
  "same",
  "read",
  "refresh",
  "discard",
  "discard-replaced",
  "remove-pending-replace",
]);
const REPLACE: ReadonlySet<OpType> = new Set<OpType>([
  "replace",
  "create-replacement",
  "delete-replaced",
  "read-replacement",
  "import-replacement",
]);

/** Keeps, per resource, what the engine says it would do (or did), with the property paths only. */
export class StepRecorder {
  private readonly byUrn = new Map<string, ResourceChange>();
  readonly errors: string[] = [];
  readonly violations: PolicyViolation[] = [];

  /** `refresh`: a refresh's outcomes count (drift); else only the steps of the update itself. */
  constructor(private readonly refresh = false) {}

  readonly onEvent = (event: EngineEvent): void => {
    // A refresh's step is `refresh` before the read and, in its outputs event, what the read
    // found: `update` (with the engine's diff), `delete` (gone) or `same`.
    const meta = event.resourcePreEvent?.metadata ?? (this.refresh ? event.resOutputsEvent?.metadata : undefined);
    // A provider's own step counts too (a renamed provider is a create and a delete, its
    // resources `same`); its routine `same` or `read` does not.
    if (meta && !UNCHANGED.has(meta.op) && meta.type !== "pulumi:pulumi:Stack") {
      // A refresh's outcome carries no diff: its names are the outputs it found changed.
      const refreshed = this.refresh && event.resOutputsEvent !== undefined;
      const properties = refreshed
        ? meta.op === "delete"
          ? []
          : changedOutputs(meta.old?.outputs ?? {}, meta.new?.outputs ?? {})
        : Object.keys(meta.detailedDiff ?? {});
      const known = this.byUrn.get(meta.urn);
      const operation = REPLACE.has(meta.op) ? "replace" : meta.op;
      this.byUrn.set(meta.urn, {
        urn: meta.urn,
        type: meta.type,
        name: nameOfUrn(meta.urn),
        operation: known?.operation === "replace" ? "replace" : operation,
        properties: [
          ...new Set([...(known?.properties ?? []), ...(properties.length > 0 ? properties : (meta.diffs ?? []))]),
        ].sort(),
        ...(meta.type.startsWith("pulumi:providers:") ? { providerStep: true as const } : {}),
      });
    }
    const policy = event.policyEvent;
    const seen =
      policy && this.violations.some((v) => v.policy === policy.policyName && v.message === policy.message.trim());
    if (policy && !seen) {
      this.violations.push({
        policy: policy.policyName,
        pack: policy.policyPackName,
        level: policy.enforcementLevel === "mandatory" ? "mandatory" : "advisory",
        ...(policy.resourceUrn ? { resource: nameOfUrn(policy.resourceUrn) } : {}),
        message: policy.message.trim(),
      });
    }
    const diag = event.diagnosticEvent;
    if (diag && (diag.severity === "error" || diag.severity === "info#err") && diag.message.trim()) {
      this.errors.push(diag.message.trim());
    }
  };

  changes(): ResourceChange[] {
    return [...this.byUrn.values()].sort((a, b) => a.urn.localeCompare(b.urn));
  }
}

/** The part of a failed engine run worth reading: its error diagnostics, else the end of what it printed. */
function errorText(err: unknown, recorded: string[]): string {
  if (recorded.length > 0) return shownText(recorded.join("\n")).slice(0, 4000);
  const message = err instanceof Error ? err.message : String(err);
  const stderr = /stderr: ([\s\S]*)$/.exec(message)?.[1]?.trim();
  const text = shownText(stderr || message);
  return text.length > 4000 ? `…${text.slice(-4000)}` : text;
}

/**
 * A stack of the shared workspace without `pulumi stack select` (each operation names its
 * stack with --stack, so the workspace's current stack is never read, and concurrent stacks
 * cannot race on it). A stack missing from the backend fails the operation itself.
 */
function stackOf(automation: Automation, workspace: Workspace, name: string): Promise<Stack> {
  const unselected = new Proxy(workspace, {
    get: (target, prop, receiver) =>
      prop === "selectStack" ? async () => undefined : (Reflect.get(target, prop, receiver) as unknown),
  });
  return automation.Stack.select(name, unselected);
}

/**
 * `up` and `preview` create the stacks the backend does not have yet (a new stack file), one
 * at a time before the others start: `pulumi stack init` writes the workspace's settings and
 * the file's encryptionsalt. One `pulumi stack ls` instead of a `stack select` per stack.
 */
async function createMissingStacks(workspace: Workspace, names: string[]): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  const known = new Set((await workspace.listStacks()).map((s) => s.name.slice(s.name.lastIndexOf("/") + 1)));
  for (const name of names.filter((n) => !known.has(n))) {
    await workspace.createStack(name).catch((err: unknown) => failed.set(name, errorText(err, [])));
  }
  return failed;
}

async function runOne(
  opts: FleetRunOptions,
  workspace: Workspace,
  name: string,
  createError: string | undefined,
  guard: RunGuard,
): Promise<StackReport> {
  const started = Date.now();
  if (createError !== undefined)
    return {
      stack: name,
      status: "failed",
      durationMs: 0,
      resources: [],
      error: `creating the stack failed: ${createError}`,
    };
  const recorder = new StepRecorder(opts.command === "drift");
  const run = guard.start();
  const onEvent = (event: EngineEvent): void => {
    run.onEvent(event);
    recorder.onEvent(event);
  };
  const common = { onEvent, signal: run.signal, color: "never" as const };
  const policy = opts.policyPacks?.length
    ? { policyPacks: opts.policyPacks, policyPackConfigs: opts.policyPackConfigs ?? [] }
    : {};
  const violations = () => (recorder.violations.length > 0 ? { violations: recorder.violations } : {});
  try {
    const stack = await stackOf(opts.automation, workspace, name);
    if (opts.command === "up") {
      await stack.up({ ...common, ...policy, refresh: true });
    } else if (opts.command === "destroy") {
      await stack.destroy(common);
    } else if (opts.command === "drift") {
      // Pulumi's drift check: the sub-account against the last apply, without the program.
      await stack.refresh({ ...common, previewOnly: true });
    } else {
      await stack.preview({ ...common, ...policy, refresh: true });
    }
    const resources = recorder.changes();
    const status = stackStatus(opts.command, resources);
    return {
      stack: name,
      status,
      durationMs: Date.now() - started,
      resources,
      ...(status === "drifted" ? { repair: opts.repairCommand(name) } : {}),
      ...violations(),
    };
  } catch (err) {
    const uncaught = run.uncaught();
    return {
      stack: name,
      status: "failed",
      durationMs: Date.now() - started,
      resources: recorder.changes(),
      // Cancelled for an uncaught error: the engine only says "update canceled".
      error: uncaught ? shownText(uncaughtText(uncaught.error)) : errorText(err, recorder.errors),
      ...violations(),
    };
  } finally {
    run.end();
  }
}

export async function runFleet(opts: FleetRunOptions): Promise<StackReport[]> {
  const envVars: Record<string, string> = {
    // `refresh --preview-only` refuses the confirmation skip (`--yes`) this variable implies.
    ...(opts.command === "drift" ? { PULUMI_SKIP_CONFIRMATIONS: "false" } : {}),
    // The engine starts a policy pack in the pack's directory: it finds the program's by PWD.
    ...(opts.policyPacks?.length ? { PWD: opts.projectDir } : {}),
  };
  const workspace = await opts.automation.LocalWorkspace.create({
    workDir: opts.projectDir,
    ...(Object.keys(envVars).length > 0 ? { envVars } : {}),
    ...(opts.program ? { program: opts.program } : {}),
  });
  const createErrors =
    opts.command === "up" || opts.command === "preview"
      ? await createMissingStacks(workspace, opts.stacks)
      : new Map<string, string>();
  // A program run per stack leaves uncaught errors to its language host, which exits on them.
  const guard = new RunGuard(opts.signal, opts.program !== undefined);
  const queue = [...opts.stacks];
  const reports: StackReport[] = [];
  const worker = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if ((opts.stop ?? opts.signal)?.aborted) {
        reports.push({
          stack: name,
          status: "failed",
          durationMs: 0,
          resources: [],
          error: "not run: the fleet run was interrupted; run it again",
        });
        continue;
      }
      opts.onStart?.(name);
      const report = await runOne(opts, workspace, name, createErrors.get(name), guard);
      reports.push(report);
      opts.onFinish?.(report);
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency, queue.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (!opts.program || workers === 1) return reports;
  // Inline programs share this process, and the Automation API hands an error one program
  // throws to every program running at that moment (its handlers of uncaught errors are
  // process-wide; and an error no program catches cancels every inline run in flight:
  // inline-errors.ts). So a stack that failed beside others runs again alone: its own error
  // then shows, and one broken stack file never fails its neighbours.
  for (const [index, report] of reports.entries()) {
    if (report.status !== "failed" || (opts.stop ?? opts.signal)?.aborted) continue;
    opts.onRetry?.(report.stack);
    opts.onStart?.(report.stack);
    reports[index] = await runOne(opts, workspace, report.stack, createErrors.get(report.stack), guard);
    opts.onFinish?.(reports[index]);
  }
  return reports;
}
