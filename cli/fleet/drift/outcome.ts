// What `fleet drift` makes of its checks beyond the per-stack verdict, in this order: discovery
// (connectors no stack manages, sub-accounts and customers with no stack: discovery.ts), the
// acknowledged file (verdict.ts), the history and its events (history.ts, history-store.ts),
// and the notification of new and resolved events (notify.ts). Every file and flag is read and
// checked before the first stack is, so a mistake in one costs no run.
import type { Command } from "commander";
import type { FleetProject } from "../project";
import type { DriftSections, StackReport } from "../report";
import { readAcknowledged, type AcknowledgedFile } from "./acknowledged";
import { discover, readStackFiles, type StackFile, type SubAccountListing } from "./discovery";
import { observe } from "./history";
import { openHistory, type HistoryStore } from "./history-store";
import { checkNotifyUrl, notify, type NotifyOptions } from "./notify";
import { readAdoptList } from "../adopt-input";
import { judgeStacks } from "./verdict";

export interface DriftFlags {
  /** --acknowledged FILE (default: acknowledged.yaml in the fleet's directory, if there is one). */
  acknowledged?: string;
  /** false: --no-discovery. */
  discovery?: boolean;
  /** --accounts FILE: the sub-accounts the fleet should have (fleet adopt's format). */
  accounts?: string;
  /** --history FILE | backend. */
  history?: string;
  /** --shard i/n: the backend's history is the shard's own. */
  shard?: string;
  /** --notify URL. */
  notify?: string;
  /** --html FILE: the estate at a glance (estate.ts). */
  html?: string;
}

export interface PreparedDrift {
  flags: DriftFlags;
  acknowledged?: AcknowledgedFile;
  stackFiles: Map<string, StackFile>;
  history: HistoryStore | { because: string };
  notifyOptions?: NotifyOptions;
}

export async function prepareDrift(
  project: FleetProject,
  flags: DriftFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PreparedDrift> {
  if (flags.notify !== undefined) {
    checkNotifyUrl(flags.notify);
    if (flags.history === undefined)
      throw new Error(
        "--notify posts new and resolved drift, which needs the last run's: give --history FILE or --history backend",
      );
  }
  const acknowledged = await readAcknowledged(project.dir, flags.acknowledged, project.stacks);
  if (flags.accounts !== undefined) await readAdoptList(flags.accounts); // refused now, not after the checks
  const history =
    flags.history === undefined
      ? { because: "no --history given (--history FILE, or --history backend: beside the checkpoints)" }
      : await openHistory(flags.history, project.dir, project.name, env, flags.shard);
  if ("read" in history)
    await history.read(); // a history that does not parse is refused before the checks
  else if (flags.notify !== undefined)
    throw new Error(`--notify tells what changed since the last run, so the history must be kept: ${history.because}`);
  const testBackoff = Number(env.EMBEDDED_FLEET_NOTIFY_BACKOFF_MS);
  return {
    flags,
    acknowledged,
    stackFiles: await readStackFiles(project),
    history,
    ...(Number.isFinite(testBackoff) && testBackoff >= 0 ? { notifyOptions: { backoffMs: testBackoff } } : {}),
  };
}

export async function finishDrift(
  project: FleetProject,
  prepared: PreparedDrift,
  reports: StackReport[],
  listings: Map<string, SubAccountListing[]>,
  repair: (stack: string) => string,
  now: Date,
): Promise<{ stacks: StackReport[]; sections: DriftSections }> {
  let stacks = reports.map((r) => {
    const customer = prepared.stackFiles.get(r.stack)?.customer;
    return customer ? { ...r, customer } : r;
  });
  let discovery: DriftSections["discovery"] = { enabled: false };
  if (prepared.flags.discovery !== false) {
    const found = await discover(stacks, {
      project,
      stackFiles: prepared.stackFiles,
      listings,
      accountsFile: prepared.flags.accounts,
    });
    stacks = found.stacks;
    discovery = found.section;
  }
  const judged = judgeStacks(stacks, prepared.acknowledged, now, repair);
  stacks = judged.stacks;
  const sections: DriftSections = {
    ...(prepared.acknowledged ? { acknowledgedFile: prepared.acknowledged.file } : {}),
    unusedAcknowledgements: judged.unused,
    discovery,
    history:
      "read" in prepared.history
        ? { kept: true, where: prepared.history.where }
        : { kept: false, because: prepared.history.because },
    events: [],
  };
  if (!("read" in prepared.history)) return { stacks, sections };
  const store = prepared.history;
  const before = await store.read();
  const seen = observe(before, stacks, now);
  stacks = seen.stacks;
  sections.events = seen.events;
  // The history first: a run that cannot keep it tells nobody (the next run that can tells these
  // events), and still writes its reports.
  const unwritten = await written(
    store,
    seen.history,
    prepared.flags.history,
    "the next run that can write it tells this run's events",
  );
  if (unwritten) {
    sections.history = unwritten;
    return { stacks, sections };
  }
  const told = sections.events.filter((e) => e.event !== "unchanged");
  if (prepared.flags.notify !== undefined && told.length > 0) {
    sections.notify = await notify(
      prepared.flags.notify,
      { schemaVersion: 1, kind: "fleet-drift-events", project: project.name, runAt: now.toISOString(), events: told },
      prepared.notifyOptions,
    );
    // Events not delivered are not forgotten: the history goes back as it was, and the next run tells them again.
    if (!sections.notify.delivered)
      sections.history =
        (await written(store, before, prepared.flags.history, "so the next run will not tell these events again")) ??
        sections.history;
  }
  return { stacks, sections };
}

/**
 * Writes the history; what went wrong, if it could not (a code or an error's name, never its
 * message; the report passes the text through the credential rule).
 */
async function written(
  store: HistoryStore,
  history: Awaited<ReturnType<HistoryStore["read"]>>,
  flag: string | undefined,
  then: string,
): Promise<DriftSections["history"] | undefined> {
  try {
    await store.write(history);
    return undefined;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return {
      kept: false,
      writeFailed: true,
      because:
        `--history ${flag ?? ""}: ${store.where} could not be written (${e.code ?? e.name ?? "error"}); nobody was ` +
        `notified, ${then}. Give a writable --history FILE, or credentials that may write the history beside the ` +
        `checkpoints`,
    };
  }
}

/** `fleet drift`'s own options. */
export function withDriftOptions(cmd: Command): Command {
  return cmd
    .option(
      "--engine",
      "check every stack with the engine (`pulumi refresh --preview-only`) instead of reading its checkpoint",
    )
    .option(
      "--acknowledged <file>",
      "known drift, with reasons and expiry dates (default: acknowledged.yaml, if present)",
    )
    .option("--no-discovery", "do not report connectors no stack manages, nor sub-accounts and customers with no stack")
    .option(
      "--accounts <file>",
      "the sub-accounts the fleet should have (fleet adopt's file): those with no stack are reported",
    )
    .option(
      "--history <file|backend>",
      "keep when each drift was first and last seen: in this file, or beside the checkpoints",
    )
    .option("--html <file>", "write the estate at a glance (by customer and stack) as one self-contained HTML page")
    .option("--notify <url>", "POST the new and resolved drift events as JSON (needs --history)");
}
