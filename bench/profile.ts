// `npm run bench:profile -- --provider floor --n 100 [--ops up,preview,refresh,rotate,destroy]
//   [--env K=V[,K=V]] [--parallel 32] [--out /tmp/dir] [--no-engine-profile]`:
// where an operation's time goes. The bench program `fleet` on a bench stack, as bench/run.ts
// sets them up, but each operation is the engine's CLI run directly (not the Automation API)
// with `--profiling`, so that the Go engine writes a CPU profile; meanwhile bench/process-cpu.ts
// sums the CPU of every process by role. After `up`, the stack's checkpoint is measured.
// Writes <out>/profile.json, <out>/<operation>/ (the engine's output, profiles, pprof text) and
// prints a markdown summary. `up` and `destroy` always run; --ops adds the others between them.
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { z } from "zod";
import { catalogueWithExtra } from "../service/seed/catalogue";
import type { LocalService } from "../harness/local-service";
import { startServiceProcess } from "../harness/service-process";
import { disposeEngine, ensureEngine, type Engine } from "../harness/engine";
import { installFloorPlugin } from "./plugin-floor/install";
import { analyseCpuProfile, GROUPS, type EngineProfile } from "./engine-profile";
import { ROLES, watchTreeCpu, type TreeCpu } from "./process-cpu";
import { createBenchStack, type BenchStack, type ServiceSettings } from "./stack";

const PROVIDERS = ["floor", "plugin-floor", "this", "plugin", "naive"] as const;
const OPERATIONS = ["up", "preview", "refresh", "rotate", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

/** The engine's CLI arguments of each operation (those the Automation API passes, less --exec-kind). */
const CLI_ARGS: Record<Operation, string[]> = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  rotate: ["up", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

const ArgsSchema = z.object({
  provider: z.enum(PROVIDERS),
  n: z.number().int().positive(),
  ops: z.array(z.enum(OPERATIONS)),
  parallel: z.number().int().positive().optional(),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()),
  out: z.string(),
  engineProfile: z.boolean(),
});
type Args = z.infer<typeof ArgsSchema>;

function parseArgs(argv: string[]): Args {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const provider = value("provider") ?? "floor";
  const n = Number(value("n") ?? 20);
  const extra = (value("ops") ?? "")
    .split(",")
    .map((op) => op.trim())
    .filter((op) => op !== "");
  const env: Record<string, string> = {};
  for (const pair of (value("env") ?? "").split(",").filter((p) => p !== "")) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`--env: ${JSON.stringify(pair)} is not KEY=VALUE`);
    env[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return ArgsSchema.parse({
    provider,
    n,
    ops: OPERATIONS.filter((op) => op === "up" || op === "destroy" || extra.includes(op)),
    parallel: value("parallel") === undefined ? undefined : Number(value("parallel")),
    env,
    out: path.resolve(value("out") ?? path.join(os.tmpdir(), `embedded-profile-${provider}-${n}`)),
    engineProfile: !argv.includes("--no-engine-profile"),
  });
}

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to its end, stdout and stderr together (the engine's summary is in stdout). */
function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The engine's "Resources:" summary as resourceChanges (create, update, delete, same). */
function parseChanges(output: string): Record<string, number> {
  const kinds: Record<string, string> = {
    created: "create",
    "to create": "create",
    updated: "update",
    "to update": "update",
    deleted: "delete",
    "to delete": "delete",
    unchanged: "same",
  };
  const changes: Record<string, number> = {};
  const summary = output.slice(output.lastIndexOf("Resources:"));
  for (const match of summary.matchAll(
    /^\s+(?:[-+~]\s+)?(\d+) (created|updated|deleted|unchanged|to create|to update|to delete)\b/gm,
  )) {
    changes[kinds[match[2]]] = Number(match[1]);
  }
  return changes;
}

interface Checkpoint {
  file: string;
  bytes: number;
  resources: number;
  meanBytesPerResource: number;
  /** Resources carrying a serialized dynamic provider (`__provider`). */
  dynamicResources: number;
  /** Bytes of the `__provider` strings, inputs and outputs together. */
  providerStringBytes: number;
  providerStringBytesPerDynamicResource: number;
}

const CheckpointSchema = z.object({
  checkpoint: z.object({
    latest: z
      .object({
        resources: z
          .array(
            z.object({
              inputs: z.record(z.string(), z.unknown()).optional(),
              outputs: z.record(z.string(), z.unknown()).optional(),
            }),
          )
          .optional(),
      })
      .optional(),
  }),
});

async function findFile(dir: string, name: string): Promise<string | undefined> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory() && entry.name !== "history" && entry.name !== "backups") {
      const found = await findFile(full, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** The stack's checkpoint in the file backend (.pulumi/stacks/[<project>/]<stack>.json). */
async function measureCheckpoint(engine: Engine, stackName: string): Promise<Checkpoint> {
  const file = await findFile(path.join(engine.backendDir, ".pulumi", "stacks"), `${stackName}.json`);
  if (!file) throw new Error(`no checkpoint ${stackName}.json under ${engine.backendDir} (gzipped state is not read)`);
  const text = await fs.readFile(file, "utf8");
  const resources = CheckpointSchema.parse(JSON.parse(text)).checkpoint.latest?.resources ?? [];
  let dynamicResources = 0;
  let providerStringBytes = 0;
  for (const resource of resources) {
    const strings = [resource.inputs?.__provider, resource.outputs?.__provider].filter(
      (v): v is string => typeof v === "string",
    );
    if (strings.length > 0) dynamicResources++;
    providerStringBytes += strings.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  }
  const bytes = Buffer.byteLength(text);
  return {
    file,
    bytes,
    resources: resources.length,
    meanBytesPerResource: Math.round(bytes / Math.max(resources.length, 1)),
    dynamicResources,
    providerStringBytes,
    providerStringBytesPerDynamicResource: Math.round(providerStringBytes / Math.max(dynamicResources, 1)),
  };
}

interface OperationProfile {
  operation: Operation;
  command: string;
  resourceChanges: Record<string, number>;
  processes: TreeCpu;
  engineProfile: EngineProfile | null;
}

interface Context {
  args: Args;
  engine: Engine;
  bench: BenchStack;
  env: NodeJS.ProcessEnv;
}

async function profileOperation(
  context: Context,
  operation: Operation,
  expected: Record<string, number>,
): Promise<OperationProfile> {
  const { args, engine, bench } = context;
  const dir = path.join(args.out, operation);
  await fs.mkdir(dir, { recursive: true });
  const binary = path.join(engine.binDir, "pulumi");
  const cliArgs = [...CLI_ARGS[operation], "--stack", bench.stack.name, "--non-interactive"];
  if (args.parallel !== undefined) cliArgs.push("--parallel", String(args.parallel));
  if (args.engineProfile) cliArgs.push("--profiling", path.join(dir, "engine"));
  const watch = watchTreeCpu(50);
  const run = await runCommand(binary, cliArgs, bench.stack.workspace.workDir, context.env);
  const processes = watch.stop();
  await fs.writeFile(path.join(dir, "output.txt"), run.output);
  if (run.code !== 0)
    throw new Error(`${operation}: the engine exited with ${run.code}; see ${path.join(dir, "output.txt")}`);
  const resourceChanges = parseChanges(run.output);
  for (const [kind, count] of Object.entries(expected)) {
    if ((resourceChanges[kind] ?? 0) !== count)
      throw new Error(
        `${operation}: expected ${count} × ${kind}, the engine reported ${JSON.stringify(resourceChanges)}`,
      );
  }
  // The engine names its profiles <prefix>.<pid>.{cpu,mem,trace}.
  const cpuFile = (await fs.readdir(dir)).find((name) => /^engine\.\d+\.cpu$/.test(name));
  if (args.engineProfile && !cpuFile) throw new Error(`${operation}: the engine wrote no CPU profile into ${dir}`);
  const engineProfile = cpuFile ? await analyseCpuProfile(binary, path.join(dir, cpuFile), dir) : null;
  return { operation, command: `pulumi ${cliArgs.join(" ")}`, resourceChanges, processes, engineProfile };
}

const cell = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(2));

function markdown(args: Args, operations: OperationProfile[], checkpoint: Checkpoint): string {
  const settings = [
    `N = ${args.n}`,
    ...(args.parallel ? [`--parallel ${args.parallel}`] : []),
    ...Object.entries(args.env).map(([k, v]) => `${k}=${v}`),
  ];
  const lines = [`### ${args.provider}, ${settings.join(", ")}`, ""];
  lines.push(
    `CPU seconds by process role (polled every 50 ms; reaped = the kernel's exact total of the ended processes):`,
    "",
  );
  lines.push(`| operation | wall s | ${ROLES.join(" | ")} | attributed | reaped | bench (poller) |`);
  lines.push(`|---|--:|${ROLES.map(() => "--:").join("|")}|--:|--:|--:|`);
  for (const op of operations) {
    const p = op.processes;
    lines.push(
      `| ${op.operation} | ${cell(p.wallSeconds)} | ${ROLES.map((role) => cell(p.roles[role].cpuSeconds)).join(" | ")} | ${cell(p.attributedCpuSeconds)} | ${cell(p.reapedCpuSeconds)} | ${cell(p.benchCpuSeconds)} (${cell(p.pollerCpuSeconds)}) |`,
    );
  }
  const profiled = operations.flatMap((op) =>
    op.engineProfile ? [{ operation: op.operation, profile: op.engineProfile }] : [],
  );
  if (profiled.length > 0) {
    // Groups as rows, operations as columns: the table stays narrow whatever the groups.
    lines.push(
      "",
      `Engine CPU profile, seconds: cum (samples with a frame of the group) / excl (first group in this order):`,
      "",
    );
    lines.push(
      `| group | ${profiled.map((p) => p.operation).join(" | ")} |`,
      `|---|${profiled.map(() => "--:").join("|")}|`,
    );
    lines.push(`| all samples | ${profiled.map((p) => cell(p.profile.totalSampleSeconds)).join(" | ")} |`);
    GROUPS.forEach((group, i) => {
      const values = profiled.map(
        ({ profile }) => `${cell(profile.groups[i].cumSeconds)} / ${cell(profile.groups[i].exclusiveSeconds)}`,
      );
      lines.push(`| ${group.name} | ${values.join(" | ")} |`);
    });
    lines.push(`| ungrouped | ${profiled.map((p) => cell(p.profile.ungroupedSeconds)).join(" | ")} |`);
  }
  const c = checkpoint;
  lines.push(
    "",
    `Checkpoint after up: ${c.bytes} bytes, ${c.resources} resources, ${c.meanBytesPerResource} bytes/resource; ` +
      `__provider strings ${c.providerStringBytes} bytes over ${c.dynamicResources} resources (${c.providerStringBytesPerDynamicResource} bytes each).`,
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  // Ctrl-C reaches the engine too: its run then fails, and the finally below still cleans up.
  process.on("SIGINT", () => console.error("profile: interrupted; cleaning up once the engine stops"));
  await fs.mkdir(args.out, { recursive: true });
  const loadAtStart = os.loadavg()[0];
  // The seeded catalogue holds 72 connectors; N up to 500 in one sub-account needs more.
  const ids = catalogueWithExtra(args.n)
    .filter((c) => c.name.startsWith("Synthetic Source"))
    .map((c) => c.connectorId)
    .slice(0, args.n);
  let service: LocalService | undefined;
  let bench: BenchStack | undefined;
  try {
    const engine = await ensureEngine();
    if (args.provider === "plugin-floor") await installFloorPlugin(engine);
    service = await startServiceProcess({ extraConnectors: args.n });
    const customer = service.customers[0];
    const settings: ServiceSettings = {
      baseUrl: service.baseUrl,
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
      accountId: customer.subAccountIds[0],
    };
    bench = await createBenchStack(
      "fleet",
      settings,
      { provider: args.provider, connectorIds: JSON.stringify(ids), secretVersion: "1" },
      args.env,
    );
    // What createBenchStack gives the workspace's engine runs (engine.env, EMBEDDED_*, --env).
    const embedded = {
      EMBEDDED_BASE_URL: settings.baseUrl,
      EMBEDDED_CLIENT_ID: settings.clientId,
      EMBEDDED_CLIENT_SECRET: settings.clientSecret,
      EMBEDDED_ACCOUNT_ID: settings.accountId,
    };
    const context: Context = { args, engine, bench, env: { ...process.env, ...engine.env, ...embedded, ...args.env } };
    const total = args.n + Math.ceil(args.n / 2) + 1; // + the stack itself
    const expected: Record<Operation, Record<string, number>> = {
      up: { create: total },
      preview: { same: total, create: 0, update: 0 },
      refresh: {},
      rotate: { update: Math.ceil(args.n / 2) },
      destroy: { delete: total },
    };
    const operations: OperationProfile[] = [];
    let checkpoint: Checkpoint | undefined;
    for (const operation of args.ops) {
      if (operation === "rotate") await bench.stack.setConfig("secretVersion", { value: "2" });
      const profile = await profileOperation(context, operation, expected[operation]);
      operations.push(profile);
      console.error(`profile: ${operation} ${profile.processes.wallSeconds} s`);
      if (operation === "up") checkpoint = await measureCheckpoint(engine, bench.stack.name);
    }
    if (!checkpoint) throw new Error("no checkpoint measured");
    const report = {
      command: `node dist/bench/profile.js ${process.argv.slice(2).join(" ")}`.trim(),
      measuredAt: new Date().toISOString(),
      machine: {
        nproc: os.availableParallelism(),
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        loadAverageAtStart: loadAtStart,
        node: process.version,
        pulumi: engine.command.version?.toString() ?? "unknown",
      },
      provider: args.provider,
      n: args.n,
      parallel: args.parallel ?? null,
      env: args.env,
      stack: bench.stack.name,
      groups: GROUPS.map((group) => ({ name: group.name, frame: group.frame.source })),
      checkpoint,
      operations,
    };
    await fs.writeFile(path.join(args.out, "profile.json"), `${JSON.stringify(report, null, 2)}\n`);
    console.log(markdown(args, operations, checkpoint));
    console.log(`\nprofile: wrote ${path.join(args.out, "profile.json")}`);
  } finally {
    // The stack, the service and the engine's temporary home go, whatever failed.
    await bench
      ?.dispose()
      .catch((error: unknown) => console.error(`profile: removing the stack failed: ${String(error)}`));
    await service?.stop();
    await disposeEngine();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
