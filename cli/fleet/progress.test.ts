// The fleet's progress on stderr: plain lines in CI or when not on a terminal, a live block of
// running stacks (redrawn with cursor movements) on a terminal.
import { strict as assert } from "node:assert";
import { createProgress } from "./progress";

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(chunk: string): boolean } {
  return {
    isTTY,
    text: "",
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

describe("cli: fleet progress", () => {
  const saved = process.env.CI;
  afterEach(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });

  for (const [label, isTTY, ci] of [
    ["CI=true on a terminal", true, "true"],
    ["not a terminal", false, undefined],
  ] as const) {
    it(`${label}: one plain line per start and per finish, no escape codes`, () => {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
      const out = stream(isTTY);
      const progress = createProgress("drift", 2, out);
      progress.start("acme-eu");
      progress.finish({ stack: "acme-eu", status: "clean", durationMs: 1234, resources: [] });
      progress.done();
      assert.equal(out.text, "drift acme-eu: started\n[1/2] drift acme-eu: clean (1.2 s)\n");
    });
  }

  it("on a terminal: a live line per running stack, replaced when it finishes", () => {
    delete process.env.CI;
    const out = stream(true);
    const progress = createProgress("up", 2, out, { now: () => 0 });
    progress.start("a");
    progress.start("b");
    assert.match(out.text, /up a: running 0 s\n {2}up b: running 0 s\n {2}0\/2 done, 2 running, 0 s elapsed\n$/);
    progress.finish({ stack: "a", status: "failed", durationMs: 10, resources: [], error: "error: boom\nmore" });
    progress.done();
    assert.ok(out.text.includes("\r\x1b[3A\x1b[J"), "the block is cleared before the finished line");
    assert.match(out.text, /a: failed \(0\.0 s\): error: boom\n/);
    assert.match(out.text, /up b: running 0 s\n {2}1\/2 done, 1 running, 0 s elapsed, about 0 s left\n/);
  });
});
