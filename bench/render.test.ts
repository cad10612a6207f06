// bench/render.ts: every table row names the run it came from, so that records from before
// runs were recorded are not read as today's.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { renderBenchmarks } from "./render";
import { benchRecord, machine } from "../test/support/bench-fixtures";

describe("bench render", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), "bench-render-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function rendered(records: ReturnType<typeof benchRecord>[]): Promise<string[]> {
    const file = path.join(dir, "BENCHMARKS.md");
    await renderBenchmarks({ machine, commands: ["test"], records }, file, path.join(dir, "none.md"));
    return readFileSync(file, "utf8").split("\n");
  }

  it("marks each row with its run, and a table whose rows come from several runs", async () => {
    const lines = await rendered([
      benchRecord({ provider: "this", run: "2026-11-25T13:37:00.000Z" }),
      benchRecord({ provider: "floor", measuredAt: "2026-11-23T20:46:00.000Z" }),
    ]);
    const row = (provider: string) => lines.find((l) => l.startsWith(`| up | ${provider} |`)) ?? "";
    assert.match(row("this"), /^\| up \| this \| 2026-11-25T13:37:00\.000Z \| 1\.0 \|/);
    assert.match(row("floor"), /^\| up \| floor \| 2026-11-23, no run id \| 1\.0 \|/);
    assert.ok(
      lines.some((l) => l.startsWith("Rows from 2 runs (")),
      lines.join("\n"),
    );
  });

  it("adds no note when every row of a table comes from one run", async () => {
    const lines = await rendered([
      benchRecord({ provider: "this", run: "r1" }),
      benchRecord({ provider: "floor", run: "r1" }),
    ]);
    assert.ok(!lines.some((l) => l.startsWith("Rows from")), lines.join("\n"));
  });
});
