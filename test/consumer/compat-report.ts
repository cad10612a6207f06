// COMPATIBILITY.md, written by npm run test:compat -- --write: one row per cell, the cells not run this
// time kept from the previous file (its results ride along in an HTML comment).

export interface CellResult {
  key: string;
  title: string;
  node: string;
  pulumi: string;
  cli: string;
  passed: boolean;
  /** The whole cell, set-up included, milliseconds. */
  totalMs: number;
  /** Ensuring the CLI (a build on a cold machine). */
  cliSetupMs?: number;
  /** npm install of the consumer project. */
  installMs?: number;
  /** tsc and the engine runs. */
  scenarioMs?: number;
  /** The part of scenarioMs that is the plugin's (plugin install, tsc, the second stack). */
  pluginMs?: number;
  /** Packages installing the tarball added beyond @pulumi/pulumi's, typescript's and @types/node's. */
  addedPackages?: number;
  failure?: string;
  /** ISO date of the run. */
  ranAt?: string;
}

const MARKER = /<!-- compat-results (.*) -->/;

function seconds(ms: number | undefined): string {
  return ms === undefined ? "–" : `${Math.round(ms / 1000)} s`;
}

/** The previous file's results, by cell key. */
export function previousResults(text: string): Map<string, CellResult> {
  const match = MARKER.exec(text);
  if (!match) return new Map();
  const list = JSON.parse(match[1]) as CellResult[];
  return new Map(list.map((r) => [r.key, r]));
}

export function renderCompatibility(results: CellResult[], previous: string, peerRange: string, now: Date): string {
  const merged = previousResults(previous);
  for (const result of results) merged.set(result.key, { ...result, ranAt: now.toISOString().slice(0, 10) });
  const rows = [...merged.values()].sort((a, b) => a.key.localeCompare(b.key));
  const table = rows.map(
    (r) =>
      `| (${r.key}) ${r.title} | ${r.node} | ${r.pulumi} | ${r.cli} | ${r.passed ? "**pass**" : "**FAIL**"} | ` +
      `${seconds(r.totalMs)} | ${seconds(r.cliSetupMs)} | ${seconds(r.installMs)} | ${seconds(r.scenarioMs)} | ${seconds(r.pluginMs)} | ` +
      `${r.addedPackages ?? "–"} | ${r.ranAt ?? "–"} |`,
  );
  const failures = rows.filter((r) => !r.passed && r.failure).map((r) => `- (${r.key}): ${r.failure?.split("\n")[0]}`);
  return [
    "# Compatibility",
    "",
    "Written by `npm run test:compat -- --write` (`-- a b c` picks cells; `npm test` runs (a) as",
    "test/consumer/consumer.test.ts and (b), (c) through compat.js, without writing). Each cell packs the package, installs",
    "the tarball into a new project outside the repository (the `pulumi new typescript` package.json",
    "and tsconfig) with that `@pulumi/pulumi`, and runs test/consumer/scenario.ts under that CLI and",
    "Node.js against the local service:",
    "",
    "1. the dynamic provider: the README's first example type-checked, then `pulumi up`, `pulumi",
    "   preview --refresh --expect-no-changes` (clean), an out-of-band change caught by the same",
    "   preview, the delete guard's refusal printed once per resource, `pulumi destroy`;",
    "2. the plugin `embedded`, in the same project: `npx pulumi-embedded-connectors plugin install`",
    "   (node_modules/.bin, into the scenario's own `PULUMI_HOME`, plugin acquisition disabled), the",
    "   plugin example of docs/plugin.md type-checked and run as a second stack with the default provider",
    "   (stack config `embedded:*`, the service's first customer) and an explicit provider (program",
    "   config, its second customer): `pulumi up` puts each customer's S3 source in that customer's",
    "   sub-account (checked on the service), `pulumi preview --expect-no-changes` and `pulumi",
    "   preview --refresh --expect-no-changes` clean, `pulumi destroy` empties both; neither client",
    "   secret nor the program secret appears in anything printed (`stack export` included).",
    "",
    "The plugin runs on the cell's Node.js whatever the project's `@pulumi/pulumi` (it bundles its",
    "own gRPC stack); the SDK classes (`embedded.Provider`, …) run on the project's `@pulumi/pulumi`.",
    `The peer range of \`@pulumi/pulumi\` is \`${peerRange}\`: (c) is its lower bound.`,
    "",
    "| cell | Node.js | @pulumi/pulumi | CLI | result | wall time | CLI set-up | npm install | tsc + engine | of which the plugin | packages added | run on |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...table,
    "",
    ...(failures.length > 0 ? ["Failures:", "", ...failures, ""] : []),
    "CLI set-up is 0–1 s when the CLI of that version is cached (`~/.cache/pulumi-embedded-connectors/<version>`);",
    'a cold build from the Go module proxy takes about 8 minutes per version on 2 CPUs. "packages added"',
    "counts what the tarball brings beyond `@pulumi/pulumi`, `typescript` and `@types/node`, itself included.",
    "",
    `<!-- compat-results ${JSON.stringify(rows)} -->`,
    "",
    // The other languages' part is measured elsewhere (its own marker says where): kept as it is.
    ...(LANGUAGES_PART.exec(previous)?.[0] ?? "").split("\n"),
  ].join("\n");
}

/** The Python and Go part of COMPATIBILITY.md, between its markers. */
const LANGUAGES_PART = /<!-- languages:begin[\s\S]*?<!-- languages:end -->\n?/;
