// The write-ahead record of Adds whose result has not reached the engine yet. Before an Add,
// the provider writes one small file per connector it is about to add; the file goes once a
// create or update returns the connector's outputs to the engine, or once the engine shows it
// holds the resource (any later diff, read, update or delete of it), or when the Add certainly
// did not add it. What stays is the trace of a provider process that died mid-Add (SIGKILL,
// OOM, the CLI killed): the service may or may not have added the connector. A record never
// makes a connector the stack's own (add-ownership.ts: someone else may have added it since);
// it explains the "already added" refusal of the stack's next create of it, naming the run
// that was adding it. Records expire after PENDING_ADD_MAX_AGE_MS. Files hold ids only (no
// secrets) and live beside Pulumi's own files, in `PULUMI_HOME`. A record names its stack by
// `project/stack` and by a digest of its backend, secrets provider and machine
// (stack-identity.ts): only that stack claims it. A record written before the digest (no
// `stack`) is claimed by no one, and goes when the engine shows its stack holds the resource.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { stackIdentity, type StackIdentity } from "../project/stack-identity";

/** Where the records go: `EMBEDDED_ADD_JOURNAL_DIR`, else `$PULUMI_HOME/embedded-connectors/pending-adds`. */
export function defaultJournalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EMBEDDED_ADD_JOURNAL_DIR) return env.EMBEDDED_ADD_JOURNAL_DIR;
  const home = env.PULUMI_HOME || path.join(homedir(), ".pulumi");
  return path.join(home, "embedded-connectors", "pending-adds");
}

/** How long a record counts: an older one is ignored and removed (README, "Whose connector is it"). */
export const PENDING_ADD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** An earlier process's record of an Add of this stack that never reached the engine. */
export interface PendingAdd {
  /** The stack (`project/stack`) that was adding it. */
  owner: string;
  /** When the Add was about to be sent (ISO 8601). */
  startedAt: string;
  /** The process that was adding it. */
  pid: number;
  /** The record's file. */
  file: string;
}

/** What one record says (for people reading the directory; the file name is the key). */
interface PendingAddRecord {
  owner: string;
  /** The stack's identity digest (StackIdentity.key); absent in records written before it. */
  stack?: string;
  /** The process that wrote it: a process never claims its own records (two resources, one connector). */
  session: string;
  // No service URL: an explicit provider's baseUrl may be a secret (the file name's digest holds it).
  accountId: string;
  connectorId: string;
  startedAt: string;
  pid: number;
}

export class AddJournal {
  /** The stack (`project/stack`) the records belong to. */
  readonly owner: string;
  /** Its identity: another stack of the same names elsewhere has another. */
  private readonly identity: StackIdentity;
  /** This process's mark on the records it writes. */
  readonly session = randomUUID();
  /** A directory that cannot be written is reported once per process, not once per connector. */
  private warned = false;
  /**
   * The records there can be: those in the directory when this process first looked (an
   * earlier process's), and those this process wrote. Every read, diff, update and delete
   * settles its connector's record, so without this each would cost a failed unlink; with it,
   * one directory listing per process (bench/analysis.md: refresh's per-resource cost).
   */
  private records?: Set<string>;

  /**
   * @param dir where the records live
   * @param owner the stack the records belong to (its identity, or `project/stack`, whose
   *   identity is then this process's view of it): another stack's record of the same connector
   *   is not this stack's.
   * @param warn where a failure to write a record is reported (the Add goes on without it)
   * @param now the clock records are dated and aged by (tests pass their own)
   */
  constructor(
    readonly dir: string,
    owner: string | StackIdentity,
    private readonly warn: (message: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.identity = typeof owner === "string" ? stackIdentity(owner) : owner;
    this.owner = this.identity.owner;
  }

  private file(baseUrl: string, accountId: string, connectorId: string): string {
    return this.fileOf(this.identity.key, baseUrl, accountId, connectorId);
  }

  /** Where a record written before identities would be (keyed by `project/stack` alone). */
  private legacyFile(baseUrl: string, accountId: string, connectorId: string): string {
    return this.fileOf(this.owner, baseUrl, accountId, connectorId);
  }

  private fileOf(stack: string, baseUrl: string, accountId: string, connectorId: string): string {
    const key = createHash("sha256").update(`${stack}\n${baseUrl}\n${accountId}\n${connectorId}`).digest("hex");
    return path.join(this.dir, `${key.slice(0, 32)}.json`);
  }

  /**
   * Whether `file` may hold a record (see `records`); the directory is listed on first use, and
   * records older than the age limit (any stack's) are removed then. A
   * directory that cannot be listed (other than missing) says nothing: every file may be there.
   */
  private mayHold(file: string): boolean {
    if (!this.records) {
      try {
        this.records = new Set(
          readdirSync(this.dir)
            .map((name) => path.join(this.dir, name))
            .filter((found) => !this.expired(found)),
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") return true;
        this.records = new Set(); // no directory yet: no record
      }
    }
    return this.records.has(file);
  }

  /** True (and the file removed) when `file` is a record dated longer ago than the age limit. */
  private expired(file: string): boolean {
    try {
      const { startedAt } = JSON.parse(readFileSync(file, "utf8")) as Partial<PendingAddRecord>;
      if (this.fresh(startedAt)) return false;
      unlinkSync(file);
      return true;
    } catch {
      return false; // not a record (a half-written one aside), or not ours to remove
    }
  }

  /** Dated and within the age limit; an undated record is no evidence of anything. */
  private fresh(startedAt: string | undefined): boolean {
    return this.now() - Date.parse(startedAt ?? "") <= PENDING_ADD_MAX_AGE_MS;
  }

  /**
   * The record of an Add of this connector by this stack, in an earlier process, that never
   * reached the engine; none when there is none or it expired (an expired one is removed).
   */
  pending(baseUrl: string, accountId: string, connectorId: string): PendingAdd | undefined {
    const file = this.file(baseUrl, accountId, connectorId);
    if (!this.mayHold(file)) return undefined;
    let record: Partial<PendingAddRecord>;
    try {
      record = JSON.parse(readFileSync(file, "utf8")) as Partial<PendingAddRecord>;
    } catch {
      return undefined;
    }
    if (
      record.owner !== this.owner ||
      record.stack !== this.identity.key ||
      record.session === this.session ||
      record.accountId !== accountId ||
      record.connectorId !== connectorId
    ) {
      return undefined;
    }
    if (!this.fresh(record.startedAt)) {
      this.settle(baseUrl, accountId, connectorId);
      return undefined;
    }
    return {
      owner: record.owner,
      startedAt: new Date(Date.parse(record.startedAt ?? "")).toISOString(),
      pid: record.pid ?? 0,
      file,
    };
  }

  /** Records that this stack is about to add the connector. */
  begin(baseUrl: string, accountId: string, connectorId: string): void {
    const startedAt = new Date(this.now()).toISOString();
    const record: PendingAddRecord = {
      owner: this.owner,
      stack: this.identity.key,
      session: this.session,
      accountId,
      connectorId,
      startedAt,
      pid: process.pid,
    };
    const file = this.file(baseUrl, accountId, connectorId);
    try {
      mkdirSync(this.dir, { recursive: true });
      // Written aside, then renamed: a process killed mid-write never leaves half a record.
      const aside = `${file}.${this.session}.tmp`;
      writeFileSync(aside, `${JSON.stringify(record)}\n`);
      renameSync(aside, file);
      this.records?.add(file);
    } catch (error) {
      if (this.warned) return;
      this.warned = true;
      this.warn(
        `could not record the pending Add of connector ${connectorId} in ${this.dir} (${(error as Error).message}); ` +
          `if this process dies mid-Add, the next \`pulumi up\` will report its connectors as already added. ` +
          `Set EMBEDDED_ADD_JOURNAL_DIR to a writable directory`,
      );
    }
  }

  /**
   * The engine has the resource, or the Add certainly did not add it: forget the record, and
   * the one this stack's name left before records carried identities.
   */
  settle(baseUrl: string, accountId: string, connectorId: string): void {
    for (const file of [this.file(baseUrl, accountId, connectorId), this.legacyFile(baseUrl, accountId, connectorId)]) {
      if (!this.mayHold(file)) continue;
      this.records?.delete(file);
      try {
        unlinkSync(file);
      } catch {
        // no record: nothing to forget
      }
    }
  }
}
