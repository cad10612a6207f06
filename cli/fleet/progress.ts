// Progress of a fleet run on stderr: on a terminal, a live block (redrawn in place) above which
// each finished stack leaves its line; in CI (CI=true) or when stderr is not a terminal, one
// plain line when a stack starts and one when it ends. The live block fits the terminal: at most
// its height less one row (a block taller than the screen scrolls out of reach of the cursor and
// stays as stale lines) and each line shorter than its width (a wrapped line takes two rows that
// the redraw would not clear); the stacks beyond are counted on one line. Its last line says how
// many are done, the time elapsed and, once a stack has finished, an estimate of the time left.
import { fitWidth } from "./render";
import { describeStack, type StackReport } from "./report";

export interface Progress {
  start(stack: string): void;
  finish(report: StackReport): void;
  /** A failed stack runs again alone (see run.ts). */
  retry(stack: string): void;
  done(): void;
}

type Stream = Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean; rows?: number; columns?: number };

export interface ProgressOptions {
  /** The clock (tests). */
  now?: () => number;
}

export function createProgress(
  command: string,
  total: number,
  stream: Stream = process.stderr,
  options: ProgressOptions = {},
): Progress {
  const live = stream.isTTY === true && process.env.CI !== "true" && process.env.CI !== "1";
  return live
    ? new LiveProgress(command, total, stream, options.now ?? Date.now)
    : new PlainProgress(command, total, stream);
}

/** `42 s`, `3 m 05 s`, `1 h 02 m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor(s / 60) % 60).padStart(2, "0")} m`;
}

class PlainProgress implements Progress {
  private finished = 0;
  constructor(
    private readonly command: string,
    private readonly total: number,
    private readonly stream: Stream,
  ) {}

  start(stack: string): void {
    this.stream.write(`${this.command} ${stack}: started\n`);
  }

  finish(report: StackReport): void {
    this.finished += 1;
    this.stream.write(`[${this.finished}/${this.total}] ${this.command} ${report.stack}: ${describeStack(report)}\n`);
  }

  retry(stack: string): void {
    this.finished -= 1;
    this.stream.write(`${this.command} ${stack}: failed beside other stacks; running it again alone\n`);
  }

  done(): void {}
}

class LiveProgress implements Progress {
  private readonly running = new Map<string, number>();
  private finished = 0;
  /** The length of each line of the block on the screen now. */
  private drawn: number[] = [];
  private readonly startedAt: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly command: string,
    private readonly total: number,
    private readonly stream: Stream,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
    this.timer = setInterval(() => this.redraw(), 500);
    this.timer.unref();
  }

  private get columns(): number {
    return Math.max(2, this.stream.columns ?? 80);
  }

  private clear(): void {
    // Rows the block takes at the width of now (a narrowed terminal wraps the old lines).
    const rows = this.drawn.reduce((sum, length) => sum + Math.max(1, Math.ceil(length / this.columns)), 0);
    if (rows > 0) this.stream.write(`\r\x1b[${rows}A\x1b[J`);
    this.drawn = [];
  }

  private summary(now: number): string {
    const elapsed = now - this.startedAt;
    const left = this.total - this.finished;
    const eta = this.finished > 0 && left > 0 ? `, about ${formatDuration((elapsed / this.finished) * left)} left` : "";
    return `  ${this.finished}/${this.total} done, ${this.running.size} running, ${formatDuration(elapsed)} elapsed${eta}`;
  }

  private redraw(): void {
    this.clear();
    const now = this.now();
    // One row stays free for the cursor: the block never scrolls the screen.
    const height = Math.max(1, (this.stream.rows ?? 24) - 1);
    const running = [...this.running];
    const shown = running.length <= height - 1 ? running : running.slice(0, Math.max(0, height - 2));
    const lines = shown.map(([stack, since]) => `  ${this.command} ${stack}: running ${formatDuration(now - since)}`);
    if (shown.length < running.length && height >= 2)
      lines.push(`  … and ${running.length - shown.length} more running`);
    lines.push(this.summary(now));
    const fitted = lines.map((line) => fitWidth(line, this.columns - 1));
    this.stream.write(`${fitted.join("\n")}\n`);
    this.drawn = fitted.map((line) => [...line].length);
  }

  start(stack: string): void {
    this.running.set(stack, this.now());
    this.redraw();
  }

  finish(report: StackReport): void {
    this.running.delete(report.stack);
    this.finished += 1;
    this.clear();
    this.stream.write(`${report.stack}: ${describeStack(report)}\n`);
    this.redraw();
  }

  retry(stack: string): void {
    this.finished -= 1;
    this.clear();
    this.stream.write(`${stack}: failed beside other stacks; running it again alone\n`);
  }

  done(): void {
    clearInterval(this.timer);
    this.clear();
  }
}
