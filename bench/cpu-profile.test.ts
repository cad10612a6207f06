// bench/cpu-profile.ts: a V8 CPU profile summed by function and by where the code lives, idle apart.
import { strict as assert } from "node:assert";
import { placeOf, summarize, summaryMarkdown, type CpuProfile } from "./cpu-profile";

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(idle)", "") },
    { id: 2, callFrame: frame("wrapSafe", "node:internal/modules/cjs/loader", 1421) },
    { id: 3, callFrame: frame("parse", "file:///w/node_modules/yaml/dist/parse.js") },
    { id: 4, callFrame: frame("send", "file:///w/dist/provider/client/http.js", 9) },
    { id: 5, callFrame: frame("(garbage collector)", "") },
    { id: 6, callFrame: frame("x", "file:///w/node_modules/@aws-sdk/client-s3/dist/index.js") },
  ],
  startTime: 0,
  endTime: 10_000_000,
  samples: [1, 2, 3, 4, 4, 5, 6, 1],
  timeDeltas: [4_000_000, 1_000_000, 500_000, 250_000, 250_000, 1_000_000, 1_000_000, 2_000_000],
};

describe("bench: CPU profile summary (cpu-profile.ts)", () => {
  it("names where code lives: a dependency by package, this package by folder, Node.js, V8", () => {
    assert.equal(placeOf(frame("f", "file:///w/node_modules/@aws-sdk/client-s3/dist/x.js")), "@aws-sdk/client-s3");
    assert.equal(placeOf(frame("f", "file:///w/node_modules/a/node_modules/yaml/x.js")), "yaml");
    assert.equal(placeOf(frame("f", "file:///w/dist/cli/fleet/drift/fast.js")), "this package: cli/fleet/");
    assert.equal(placeOf(frame("f", "file:///w/dist/bench/fleet.js")), "this package: bench/");
    assert.equal(placeOf(frame("f", "node:internal/modules/cjs/loader")), "node: (Node.js's own modules)");
    assert.equal(placeOf(frame("(garbage collector)", "")), "(garbage collector)");
  });

  it("sums self time by function and by place, the idle time apart from the busy", () => {
    const s = summarize(PROFILE);
    assert.equal(s.wallMs, 10_000);
    assert.equal(s.busyMs, 4_000, "10 s sampled, 6 s of it idle");
    assert.deepEqual(
      s.places.find((p) => p.name === "(idle)"),
      { name: "(idle)", ms: 6_000 },
    );
    assert.deepEqual(s.functions[0], { name: "(idle) ((idle))", ms: 6_000 });
    assert.ok(s.functions.some((f) => f.name === "send (this package: provider/client/:10)" && f.ms === 500));
    const text = summaryMarkdown(s, 3).join("\n");
    assert.match(text, /4000 ms of it busy/);
    assert.doesNotMatch(text, /\| \(idle\)/, "idle is not a place nor a top function");
    assert.match(text, /\| wrapSafe \(node: \(Node\.js's own modules\):1422\) \| 1000 \| 25\.0 % \|/);
  });
});
