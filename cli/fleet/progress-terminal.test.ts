// The live progress block fits the terminal. It is rendered into a fake
// terminal of given rows and columns (auto-wrap at the last column, scrolling into a
// scrollback at the last row, cursor up, erase below: what the block uses), and after every
// event the screen and its scrollback hold no stale line of an earlier block, and every line
// of the block fits the width. The old block, in a 20-row terminal, left hundreds of stale lines.
import { strict as assert } from "node:assert";
import { createProgress, formatDuration } from "./progress";
import type { StackReport } from "./report";
import { printSeedOnFailure, seedFrom, seededRandom } from "../../test/support/seed";

/** Replay a failure with PROGRESS_SEED=<seed>. */
const SEED = seedFrom("PROGRESS_SEED");

/** A terminal: what a person sees on the screen, and what scrolled above it. */
class FakeTerminal {
  readonly isTTY = true;
  readonly scrollback: string[] = [];
  readonly screen: string[];
  private row = 0;
  private col = 0;
  /** Every chunk written (to check the block's lines). */
  readonly writes: string[] = [];

  constructor(
    readonly rows: number,
    readonly columns: number,
  ) {
    this.screen = Array.from({ length: rows }, () => "");
  }

  write(chunk: string): boolean {
    this.writes.push(chunk);
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === "\x1b") {
        // eslint-disable-next-line no-control-regex
        const m = /^\x1b\[(\d*)([AJ])/.exec(chunk.slice(i));
        if (!m) throw new Error(`unexpected escape ${JSON.stringify(chunk.slice(i, i + 6))}`);
        if (m[2] === "A") this.row = Math.max(0, this.row - Number(m[1] || 1));
        else {
          this.screen[this.row] = this.screen[this.row].slice(0, this.col);
          for (let r = this.row + 1; r < this.rows; r++) this.screen[r] = "";
        }
        i += m[0].length - 1;
      } else if (c === "\r") this.col = 0;
      else if (c === "\n") this.lineFeed();
      else {
        if (this.col === this.columns) this.lineFeed(); // auto-wrap
        const line = this.screen[this.row].padEnd(this.col, " ");
        this.screen[this.row] = line.slice(0, this.col) + c + line.slice(this.col + 1);
        this.col++;
      }
    }
    return true;
  }

  private lineFeed(): void {
    this.col = 0;
    if (this.row < this.rows - 1) this.row++;
    else {
      this.scrollback.push(this.screen.shift() ?? "");
      this.screen.push("");
    }
  }

  /** Every line ever shown, scrollback then screen, without the trailing empty rows. */
  get lines(): string[] {
    const all = [...this.scrollback, ...this.screen];
    while (all.length > 0 && all[all.length - 1] === "") all.pop();
    return all;
  }
}

/** The block's lines are indented; a finished stack's line starts with its name. */
const BLOCK_LINE = /^ {2}/;

function report(stack: string): StackReport {
  return { stack, status: "clean", durationMs: 1500, resources: [] };
}

describe("cli: fleet progress on a terminal of a given size", () => {
  printSeedOnFailure("PROGRESS_SEED", SEED);
  const saved = process.env.CI;
  before(() => delete process.env.CI);
  after(() => {
    if (saved !== undefined) process.env.CI = saved;
  });

  for (const [rows, columns, stacks, concurrency, nameLength] of [
    [20, 80, 64, 32, 12],
    [6, 40, 30, 8, 60],
    [2, 24, 10, 4, 8],
  ] as const) {
    it(`${rows}×${columns}, ${stacks} stacks ${concurrency} at a time: no stale line remains, every line fits, elapsed and ETA shown`, () => {
      const seed = SEED;
      const random = seededRandom(seed.toString(16).padStart(8, "0"));
      const term = new FakeTerminal(rows, columns);
      const clock = { t: 0 };
      const progress = createProgress("drift", stacks, term, { now: () => clock.t });
      const names = Array.from({ length: stacks }, (_, i) => `s${i}-`.padEnd(nameLength, "x"));
      const pending = [...names];
      const running: string[] = [];
      const finished: string[] = [];
      const check = (when: string) => {
        const where = `seed ${seed}, ${when}`;
        const lines = term.lines;
        // The block is the last lines shown; no block line anywhere above it.
        const block = lines.filter((l) => BLOCK_LINE.test(l));
        const blockStart = lines.length - block.length;
        assert.ok(
          lines.slice(0, blockStart).every((l) => !BLOCK_LINE.test(l)),
          `${where}: stale lines of an earlier block: ${lines.filter((l, i) => i < blockStart && BLOCK_LINE.test(l)).length}`,
        );
        assert.ok(block.length <= Math.max(1, rows - 1), `${where}: a block of ${block.length} lines in ${rows} rows`);
        // Every finished stack's line, each once, in order (nothing lost under the block).
        const done = lines.filter((l) => /^s\d+-/.test(l));
        assert.equal(done.length, finished.length, `${where}: the finished stacks' lines`);
      };
      // Random starts and finishes, `concurrency` at most (more than the rows: the block is cut),
      // the first `concurrency` at once; the clock moves a second a step.
      while (pending.length > 0 || running.length > 0) {
        clock.t += 1_000;
        if (
          pending.length > 0 &&
          running.length < concurrency &&
          (finished.length === 0 || running.length === 0 || random() < 0.6)
        ) {
          const stack = pending.shift() as string;
          running.push(stack);
          progress.start(stack);
          check(`after ${stack} started`);
        } else {
          const stack = running.splice(Math.floor(random() * running.length), 1)[0];
          finished.push(stack);
          progress.finish(report(stack));
          check(`after ${stack} finished`);
        }
      }
      progress.done();
      check("at the end");
      assert.deepEqual(
        term.lines.filter((l) => BLOCK_LINE.test(l)),
        [],
        `seed ${seed}: the block is gone at the end`,
      );
      // Every line of every drawn block fits the width (no auto-wrap inside the block).
      const blockLines = term.writes.filter((w) => / done, /.test(w)).flatMap((w) => w.split("\n"));
      assert.ok(blockLines.length > 0);
      for (const line of blockLines)
        assert.ok([...line].length < columns, `seed ${seed}: ${line} is wider than ${columns}`);
      // Elapsed time and an estimate of what is left, once a stack has finished.
      const summaries = term.writes.flatMap((w) => w.split("\n")).filter((l) => / done, /.test(l));
      if (columns >= 80) {
        assert.ok(
          summaries.some((l) => / elapsed, about \d+ (s|m \d+ s) left$/.test(l)),
          summaries.join("\n"),
        );
      }
    });
  }

  it("durations read as seconds, minutes, hours", () => {
    assert.deepEqual(
      [formatDuration(0), formatDuration(42_400), formatDuration(185_000), formatDuration(3_720_000)],
      ["0 s", "42 s", "3 m 05 s", "1 h 02 m"],
    );
  });
});
