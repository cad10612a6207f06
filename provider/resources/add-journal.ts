// The write-ahead record of Adds whose result has not reached the stack's state yet. Before an
// Add, the provider writes one small file per connector it is about to add; the file stays
// until the engine shows it holds the resource (any later diff, read, update or delete of it).
// If the provider process dies mid-Add (SIGKILL, OOM, the CLI killed), the service may have
// added the connector while nothing reached the state: the next create of the same connector
// by the same stack finds the file and knows the connector is its own, not someone else's.
// Files hold ids only (no secrets) and live beside Pulumi's own files: a CI runner that keeps
// `PULUMI_HOME` keeps them; one that does not falls back to the "already added" error.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/** Where the records go: `EMBEDDED_ADD_JOURNAL_DIR`, else `$PULUMI_HOME/embedded-connectors/pending-adds`. */
export function defaultJournalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EMBEDDED_ADD_JOURNAL_DIR) return env.EMBEDDED_ADD_JOURNAL_DIR;
  const home = env.PULUMI_HOME || path.join(homedir(), ".pulumi");
  return path.join(home, "embedded-connectors", "pending-adds");
}

/** What one record says (for people reading the directory; the file name is the key). */
interface PendingAddRecord {
  owner: string;
  /** The process that wrote it: a process never claims its own records (two resources, one connector). */
  session: string;
  baseUrl: string;
  accountId: string;
  connectorId: string;
  startedAt: string;
  pid: number;
}

export class AddJournal {
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
   * @param owner the stack (`project/stack`) the records belong to: another stack's record of
   *   the same connector is not this stack's.
   * @param warn where a failure to write a record is reported (the Add goes on without it)
   */
  constructor(
    readonly dir: string,
    readonly owner: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private file(baseUrl: string, accountId: string, connectorId: string): string {
    const key = createHash("sha256").update(`${this.owner}\n${baseUrl}\n${accountId}\n${connectorId}`).digest("hex");
    return path.join(this.dir, `${key.slice(0, 32)}.json`);
  }

  /**
   * Whether `file` may hold a record (see `records`); the directory is listed on first use. A
   * directory that cannot be listed (other than missing) says nothing: every file may be there.
   */
  private mayHold(file: string): boolean {
    if (!this.records) {
      try {
        this.records = new Set(readdirSync(this.dir).map((name) => path.join(this.dir, name)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") return true;
        this.records = new Set(); // no directory yet: no record
      }
    }
    return this.records.has(file);
  }

  /** True when an Add of this connector by this stack, in an earlier process, never reached the state. */
  pending(baseUrl: string, accountId: string, connectorId: string): boolean {
    const file = this.file(baseUrl, accountId, connectorId);
    if (!this.mayHold(file)) return false;
    try {
      const record = JSON.parse(readFileSync(file, "utf8")) as Partial<PendingAddRecord>;
      return (
        record.owner === this.owner && record.session !== this.session && record.accountId === accountId && record.connectorId === connectorId
      );
    } catch {
      return false;
    }
  }

  /** Records that this stack is about to add (or has claimed) the connector. */
  begin(baseUrl: string, accountId: string, connectorId: string): void {
    const record: PendingAddRecord = { owner: this.owner, session: this.session, baseUrl, accountId, connectorId, startedAt: new Date().toISOString(), pid: process.pid };
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

  /** The state holds the resource, or the Add certainly did not add it: forget the record. */
  settle(baseUrl: string, accountId: string, connectorId: string): void {
    const file = this.file(baseUrl, accountId, connectorId);
    if (!this.mayHold(file)) return;
    this.records?.delete(file);
    try {
      unlinkSync(file);
    } catch {
      // no record: nothing to forget
    }
  }
}
