// Progress of a fleet run on stderr: on a terminal, a live line per running stack (redrawn in
// place) above the finished ones; in CI (CI=true) or when stderr is not a terminal, one plain
// line when a stack starts and one when it ends.
import { describeStack, type StackReport } from "./report";

export interface Progress {
  start(stack: string): void;
  finish(report: StackReport): void;
  /** A failed stack runs again alone (see run.ts). */
  retry(stack: string): void;
  done(): void;
}

type Stream = Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean };

export function createProgress(command: string, total: number, stream: Stream = process.stderr): Progress {
  const live = stream.isTTY === true && process.env.CI !== "true" && process.env.CI !== "1";
  return live ? new LiveProgress(command, total, stream) : new PlainProgress(command, total, stream);
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
  private drawn = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly command: string,
    private readonly total: number,
    private readonly stream: Stream,
  ) {
    this.timer = setInterval(() => this.redraw(), 500);
    this.timer.unref();
  }

  private clear(): void {
    if (this.drawn > 0) this.stream.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private redraw(): void {
    this.clear();
    const now = Date.now();
    const lines = [...this.running].map(
      ([stack, since]) => `  ${this.command} ${stack}: running ${((now - since) / 1000).toFixed(0)} s`,
    );
    lines.push(`  ${this.finished}/${this.total} done`);
    this.stream.write(`${lines.join("\n")}\n`);
    this.drawn = lines.length;
  }

  start(stack: string): void {
    this.running.set(stack, Date.now());
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
