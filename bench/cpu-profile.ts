// A V8 CPU profile (`node --cpu-prof`, the .cpuprofile of `npm run bench:fleet -- --cpu-prof DIR`)
// summed as a person reads it: self time by function (the top entries) and by where the code
// lives (this package's folders, each dependency, Node.js's own modules, V8's garbage collector
// and the idle loop). `node dist/bench/cpu-profile.js FILE [--top 15]` prints both as Markdown.
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

/** The parts of a .cpuprofile this reads (Chrome DevTools' Profile type). */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds from the previous sample to this one. */
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  /** From the profile's start to its end (the process's life once V8 started profiling). */
  wallMs: number;
  /** Sampled time outside "(idle)": the main thread's busy time. */
  busyMs: number;
  functions: SelfTime[];
  places: SelfTime[];
}

/** Where a frame's code lives: a dependency by package name, this package's folder, node's own modules, or V8's. */
export function placeOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === "") return `(${functionName.replace(/[()]/g, "") || "native"})`;
  if (url.startsWith("node:")) return "node: (Node.js's own modules)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = /\/dist\/([^/]+)\/(?:([^/]+)\/)?/.exec(url);
  if (dist) return `this package: ${dist[1]}/${dist[2] && !dist[2].endsWith(".js") ? `${dist[2]}/` : ""}`;
  return url;
}

const byMs = (a: SelfTime, b: SelfTime) => b.ms - a.ms || (a.name < b.name ? -1 : 1);

/** Self time by function (name and place) and by place, the largest first. */
export function summarize(profile: CpuProfile): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!frame) return;
    const place = placeOf(frame);
    const line = frame.url ? `:${frame.lineNumber + 1}` : "";
    const name = `${frame.functionName || "(anonymous)"} (${place}${frame.url && !frame.url.includes("/node_modules/") ? line : ""})`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    places.set(place, (places.get(place) ?? 0) + ms);
    if (frame.functionName !== "(idle)") busy += ms;
  });
  const list = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms })).sort(byMs);
  return {
    wallMs: (profile.endTime - profile.startTime) / 1000,
    busyMs: busy,
    functions: list(functions),
    places: list(places),
  };
}

/** The summary as Markdown tables: the `top` functions, and every place with 1 % or more of the busy time. */
export function summaryMarkdown(s: ProfileSummary, top = 15): string[] {
  const pct = (ms: number) => `${((100 * ms) / Math.max(s.busyMs, 1)).toFixed(1)} %`;
  const rows = (items: SelfTime[]) =>
    items.map((f) => `| ${f.name.replace(/\|/g, "\\|")} | ${f.ms.toFixed(0)} | ${pct(f.ms)} |`);
  return [
    `Profile: ${s.wallMs.toFixed(0)} ms from start to end, ${s.busyMs.toFixed(0)} ms of it busy (not idle) on the main thread.`,
    "",
    "| self time by where the code lives | ms | of busy |",
    "|---|---:|---:|",
    ...rows(s.places.filter((p) => p.name !== "(idle)" && p.ms >= s.busyMs / 100)),
    "",
    `| top ${top} functions by self time | ms | of busy |`,
    "|---|---:|---:|",
    ...rows(s.functions.filter((f) => !f.name.startsWith("(idle)")).slice(0, top)),
  ];
}

if (require.main === module) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error("usage: node dist/bench/cpu-profile.js FILE.cpuprofile [--top N]");
  const top = rest[0] === "--top" ? Number(rest[1]) : 15;
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  process.stdout.write(`${summaryMarkdown(summarize(profile), top).join("\n")}\n`);
}
