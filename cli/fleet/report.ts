// The fleet report: one record per stack, written as JSON (--json), Markdown (--markdown)
// and JUnit (--junit; render.ts). Only names ever go in: resource URNs, types and property
// paths from the engine's diff, never a value; an engine's text only as shown-text.ts shows it.
import { shownText } from "./shown-text";

export type FleetCommand = "preview" | "up" | "drift" | "destroy";

/**
 * clean: nothing differs (drift, preview) or nothing had to change (up, destroy);
 * drifted: `drift` found the sub-account differs from the last apply;
 * changed: `preview` would change resources, or `up`/`destroy` changed them;
 * failed: the engine run failed (the others still ran);
 * acknowledged (drift): every field that differs is listed, unexpired, in the acknowledged file;
 * unmanaged (drift): nothing of the stack drifted, but its sub-account holds a connector no stack manages.
 */
export type StackStatus = "clean" | "drifted" | "changed" | "failed" | "acknowledged" | "unmanaged";

export interface ResourceChange {
  urn: string;
  type: string;
  /** The resource's logical name (the URN's last segment). */
  name: string;
  /**
   * The engine's step. In a drift report, the step of `pulumi refresh --preview-only`: `update`
   * (the sub-account differs from the last apply), `delete` (gone from the sub-account: removed
   * out of band).
   */
  operation: string;
  /**
   * Property paths that differ (the engine's detailed diff, else its diff keys); names only,
   * never values. In a drift report, the outputs the refresh found changed: `fieldDigests.<field>`
   * names a field of secretConfig changed out of band, `lastUpdated` and `drift` a write.
   */
  properties: string[];
  /**
   * A step of a provider resource (`pulumi:providers:*`), not of a connector: the stack's
   * provider created, replaced, updated or deleted (renaming it is a create and a delete). It
   * changes the stack although the resources under it may be unchanged. Absent otherwise.
   */
  providerStep?: true;
  /** drift: the fields of `properties` an unexpired entry of the acknowledged file accepts (acknowledged.ts). */
  acknowledged?: AcknowledgedField[];
  /** drift: the fields of `properties` whose entry in the acknowledged file has expired (they count as drift). */
  expired?: AcknowledgedField[];
  /** drift with history: when the oldest of its fields was first seen drifted (ISO time). */
  since?: string;
}

/** A field the acknowledged file names: its reason and the last day it is accepted. */
export interface AcknowledgedField {
  field: string;
  reason: string;
  /** YYYY-MM-DD (UTC, inclusive). */
  expires: string;
}

/** A connector added in a stack's sub-account that no stack of the fleet manages (discovery.ts). */
export interface UnmanagedConnector {
  accountId: string;
  connectorId: string;
  /** Its catalogue name, as the service lists it. */
  name: string;
  /** An unexpired entry of the acknowledged file that accepts it. */
  acknowledged?: { reason: string; expires: string };
  /** Its entry in the acknowledged file, expired. */
  expired?: { reason: string; expires: string };
  since?: string;
}

/**
 * A violation the policy pack reported (`--policy-pack`, docs/policy.md): the rule, its level,
 * the resource it names and the pack's message (which names fields, never their values).
 */
export interface PolicyViolation {
  policy: string;
  pack: string;
  /** mandatory: the engine run fails; advisory: it goes on (the engine's "warning"). */
  level: "mandatory" | "advisory";
  /** The resource's logical name; absent for a stack policy's violation without one. */
  resource?: string;
  message: string;
}

export interface StackReport {
  stack: string;
  status: StackStatus;
  durationMs: number;
  resources: ResourceChange[];
  /** The command that puts a drifted stack back (drift only). */
  repair?: string;
  /** The engine's error, for a failed stack. */
  error?: string;
  /** What the policy pack reported (preview, up with --policy-pack); absent when none. */
  violations?: PolicyViolation[];
  /**
   * drift only: how the stack was checked. `checkpoint`: its last checkpoint read from the
   * backend and its sub-account read by the provider's own code in the fleet's process;
   * `engine`: `pulumi refresh --preview-only`, with `engineBecause` saying why.
   */
  checkedBy?: "checkpoint" | "engine";
  /** Why the fast path left the stack to the engine (--engine, or what it cannot read). */
  engineBecause?: string;
  /** drift: the stack's customer (its stack file's), for the estate report. */
  customer?: string;
  /** drift with discovery: connectors of its sub-account that no stack manages. */
  unmanaged?: UnmanagedConnector[];
  /** drift with discovery: why its sub-account was not listed (checked by the engine, a listing refused). */
  discoveryNotRun?: string;
}

/**
 * What each command's report answers. drift: Pulumi's drift question, per stack the verdict of
 * `pulumi refresh --preview-only --expect-no-changes`; changes to the program or a stack file
 * not applied yet are not drift (they are `preview`'s).
 */
export const COMMAND_SEMANTICS: Record<FleetCommand, string> = {
  preview:
    "what `up` would change in each stack: `pulumi preview --refresh` (program and stack file against the sub-account)",
  up: "each stack applied: `pulumi up --refresh`",
  drift:
    "does each sub-account still match its stack's last apply: the verdict of `pulumi refresh --preview-only --expect-no-changes`; changes to the program or stack files not applied yet are `fleet preview`'s",
  destroy: "every resource of each stack removed: `pulumi destroy`",
};

export interface FleetReport {
  schemaVersion: 1;
  command: FleetCommand;
  /** What `command` answers (COMMAND_SEMANTICS). */
  semantics: string;
  project: string;
  /** How the stacks were chosen (--stacks, --changed-since, --shard). */
  selection: string;
  startedAt: string;
  durationMs: number;
  exitCode: 0 | 1 | 2;
  /** `violations`: the policy pack's, over every stack. */
  summary: { stacks: number; violations: number } & Record<StackStatus, number>;
  stacks: StackReport[];
  /** drift only: acknowledged drift, discovery, history and notification (drift/outcome.ts). */
  drift?: DriftSections;
}

export interface DriftSections {
  /** The acknowledged file read, if any. */
  acknowledgedFile?: string;
  /** Entries of the acknowledged file that matched nothing this run (the drift is gone: remove them). */
  unusedAcknowledgements: { stack: string; what: string; expires: string; expired: boolean }[];
  /** Discovery: off, or what it found beyond the stacks. */
  discovery:
    | { enabled: false }
    | {
        enabled: true;
        /** Sub-accounts in the accounts file (--accounts) that no stack file names. */
        subAccountsWithoutStack: { accountId: string; customer?: string; stack: string }[];
        /** Customers of customers.json that no stack file names. */
        customersWithoutStack: string[];
      };
  /** History: where it is kept, or why it is not. */
  /** writeFailed: it could not be written this run (the run exits 1; nobody was notified). */
  history: { kept: true; where: string } | { kept: false; because: string; writeFailed?: true };
  /** new, resolved and unchanged drift since the last run that kept history. */
  events: DriftEvent[];
  /** --notify: whether the new and resolved events were delivered. */
  notify?: { to: string; events: number; delivered: boolean; attempts: number; error?: string };
}

/** One drifted field of a resource, and when its drift was first and last seen (names only, never a value). */
export interface DriftFieldRecord {
  /** The resource's URN, or `unmanaged:<accountId>/<connectorId>` for an unmanaged connector. */
  resource: string;
  type: string;
  name: string;
  /** The property path, `(gone)` for a resource removed out of band, `(unmanaged)`. */
  field: string;
  acknowledged: boolean;
  firstSeen: string;
  lastSeen: string;
}

/** One field's drift against the history: new this run, resolved since the last, or standing. */
export interface DriftEvent extends DriftFieldRecord {
  event: "new" | "resolved" | "unchanged";
  stack: string;
}

/** A stack whose engine run succeeded: clean when no step (a provider's included) changes anything. */
export function stackStatus(command: FleetCommand, resources: readonly ResourceChange[]): StackStatus {
  if (resources.length === 0) return "clean";
  return command === "drift" ? "drifted" : "changed";
}

/**
 * 1 when a stack failed, else 2 when `drift` found drift (a field not acknowledged, an expired
 * entry, a connector or sub-account no stack manages), else 0 (acknowledged drift included).
 */
export function exitCodeOf(command: FleetCommand, stacks: readonly StackReport[], unmanagedAccounts = 0): 0 | 1 | 2 {
  if (stacks.some((s) => s.status === "failed")) return 1;
  if (command === "drift" && stacks.some((s) => s.status === "drifted" || s.status === "unmanaged")) return 2;
  if (command === "drift" && unmanagedAccounts > 0) return 2;
  return 0;
}

export function buildReport(
  command: FleetCommand,
  project: string,
  selection: string,
  startedAt: Date,
  stacks: StackReport[],
  drift?: DriftSections,
): FleetReport {
  const summary = {
    stacks: stacks.length,
    violations: 0,
    clean: 0,
    drifted: 0,
    changed: 0,
    failed: 0,
    acknowledged: 0,
    unmanaged: 0,
  };
  for (const s of stacks) {
    summary[s.status] += 1;
    summary.violations += s.violations?.length ?? 0;
  }
  const withoutStack = drift?.discovery.enabled === true ? drift.discovery.subAccountsWithoutStack.length : 0;
  return {
    schemaVersion: 1,
    command,
    semantics: COMMAND_SEMANTICS[command],
    project,
    selection,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    // A notification not delivered, or a history not written, fails the run: nobody was told, or
    // the next run would tell these events as new again.
    exitCode:
      drift?.notify?.delivered === false || (drift?.history.kept === false && drift.history.writeFailed)
        ? 1
        : exitCodeOf(command, stacks, withoutStack),
    summary,
    stacks: stacks.map(withShownText).sort((a, b) => a.stack.localeCompare(b.stack)),
    ...(drift ? { drift: driftWithShownText(drift) } : {}),
  };
}

/** The drift sections' own texts (why no history, why a notification failed) through the same rule. */
function driftWithShownText(d: DriftSections): DriftSections {
  return {
    ...d,
    history: d.history.kept ? d.history : { ...d.history, because: shownText(d.history.because) },
    ...(d.notify?.error !== undefined ? { notify: { ...d.notify, error: shownText(d.notify.error) } } : {}),
  };
}

/**
 * A stack's report with every text that quotes another program or the service (the engine's
 * error, why the engine checked it, a policy pack's messages, why discovery did not run) as the
 * fleet shows them: through the one credential rule.
 */
export function withShownText(s: StackReport): StackReport {
  return {
    ...s,
    ...(s.error !== undefined ? { error: shownText(s.error) } : {}),
    ...(s.engineBecause !== undefined ? { engineBecause: shownText(s.engineBecause) } : {}),
    ...(s.discoveryNotRun !== undefined ? { discoveryNotRun: shownText(s.discoveryNotRun) } : {}),
    ...(s.violations !== undefined
      ? { violations: s.violations.map((v) => ({ ...v, message: shownText(v.message) })) }
      : {}),
  };
}

/** The logical name of a URN (its last `::` segment). */
export function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** One line per stack for the progress output. */
export function describeStack(s: StackReport): string {
  const seconds = `${(s.durationMs / 1000).toFixed(1)} s`;
  if (s.status === "failed") return `failed (${seconds}): ${firstLine(shownText(s.error ?? ""))}`;
  if (s.resources.length === 0) return `${s.status} (${seconds})`;
  if (s.resources.length > 4) {
    // Many: counted by type and step (the reports keep each one).
    const counts = new Map<string, number>();
    for (const r of s.resources)
      counts.set(`${typeName(r)} ${r.operation}`, (counts.get(`${typeName(r)} ${r.operation}`) ?? 0) + 1);
    return `${s.status} (${seconds}): ${[...counts].map(([what, n]) => `${n} × ${what}`).join(", ")}`;
  }
  const parts = s.resources.map(
    (r) => `${typeName(r)} ${r.name} ${r.operation}${r.properties.length ? ` [${r.properties.join(", ")}]` : ""}`,
  );
  return `${s.status} (${seconds}): ${parts.join("; ")}`;
}

/** A step's resource as the reports name it: a provider's as `<name> (provider)`. */
export function stepResource(r: ResourceChange): string {
  return r.providerStep ? `${r.name} (provider)` : r.name;
}

/** `embedded:index:AddedConnector` → `AddedConnector`; a provider's → `provider`. */
export function typeName(r: ResourceChange): string {
  return r.providerStep ? "provider" : r.type.slice(r.type.lastIndexOf(":") + 1);
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim().length > 0) ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
