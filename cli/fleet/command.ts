// `pulumi-embedded-connectors fleet …`: many sub-accounts, one stack each, one program.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { registerAdopt } from "./adopt-command";
import { registerIssues } from "./issues-command";
import { matrixOf } from "./matrix";
import { readConnectorsFile, writeStackFile } from "./new";
import { writeOperatorManifests } from "./operator";
import { loadAutomation, loadProgram } from "./program";
import { createProgress } from "./progress";
import { readProject } from "./project";
import { renderJUnit, renderMarkdown, renderTable, summaryText } from "./render";
import { renderDriftNotes } from "./drift/render-drift";
import { renderEstateHtml } from "./drift/estate";
import { deriveStackKeysEarly } from "./drift/early-keys";
import type { SubAccountListing } from "./drift/discovery";
import { finishDrift, prepareDrift, withDriftOptions, type DriftFlags, type PreparedDrift } from "./drift/outcome";
import { buildReport, type FleetCommand, type StackReport } from "./report";
import { plainSecretRefusals } from "./plain-secrets";
import { runFleet } from "./run";
import { selectStacks, type Selection } from "./select";
import { SETTINGS } from "../../provider/settings/resolve";

interface RunFlags extends Selection, DriftFlags {
  dir: string;
  concurrency: number;
  json?: string;
  markdown?: string;
  junit?: string;
  inline: boolean;
  /** drift: check every stack with the engine (`pulumi refresh --preview-only`). */
  engine?: boolean;
  /** preview, up: policy packs (docs/policy.md) and their config files. */
  policyPack?: string[];
  policyPackConfig?: string[];
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}
const positive = integer(1, 256);

/** Two stacks per CPU: a stack's run waits on the service and the plugin about half of its time. */
export const DEFAULT_CONCURRENCY = Math.max(2, os.cpus().length * 2);

/**
 * The command a user runs to repair one stack, from where they ran this one. Through npx: after
 * the docs' `npm install pulumi-embedded-connectors`, the package's bin is in node_modules/.bin,
 * not on PATH.
 */
export function repairCommand(dir: string): (stack: string) => string {
  const rel = path.relative(process.cwd(), dir);
  // Quoted for a POSIX shell when it holds anything but plain path characters: runnable as printed.
  const quoted = /^[\w./-]+$/.test(rel) ? rel : `'${rel.replace(/'/g, `'\\''`)}'`;
  const dirFlag = rel === "" ? "" : ` --dir ${quoted}`;
  return (stack) => `npx pulumi-embedded-connectors fleet up${dirFlag} --stacks ${stack}`;
}

async function runCommand(command: FleetCommand, flags: RunFlags): Promise<void> {
  const startedAt = new Date();
  const project = await readProject(flags.dir);
  const chosen = await selectStacks(project, flags);
  // The fast path's passphrase keys, derived while the rest is read (drift/early-keys.ts).
  if (command === "drift" && !flags.engine) await deriveStackKeysEarly(project, chosen.stacks);
  const refused = await plainSecretRefusals(project, chosen.stacks);
  const drift: PreparedDrift | undefined = command === "drift" ? await prepareDrift(project, flags) : undefined;
  const listings = new Map<string, SubAccountListing[]>();
  const selected = { ...chosen, stacks: chosen.stacks.filter((s) => !refused.has(s)) };
  // drift runs no program: it compares each sub-account with the stack's last apply.
  const loaded = selected.stacks.length > 0 && command !== "drift" ? await loadProgram(project, flags.inline) : {};
  const progress = createProgress(command, chosen.stacks.length);
  const how =
    command === "drift"
      ? flags.engine
        ? "each by the engine (pulumi refresh --preview-only, --engine)"
        : "from their checkpoints (the engine for those it cannot read)"
      : `program ${loaded.program ? "loaded once (inline)" : `run per stack (${loaded.perStackBecause ?? "no stacks"})`}`;
  process.stderr.write(
    `fleet ${command}: ${selected.stacks.length} of ${project.stacks.length} stack(s) of ${project.name} (${selected.reason}` +
      `${refused.size > 0 ? `; ${refused.size} refused: a secret in plain text` : ""}), ` +
      `${Math.min(flags.concurrency, Math.max(1, selected.stacks.length))} at a time; ${how}\n`,
  );
  // Ctrl-C / SIGTERM: no further stack starts, and the stacks not started are reported as not
  // run. The running engines are cancelled their own way (they finish the step under way and
  // release their locks): on Ctrl-C the terminal has already sent them the SIGINT, and a second
  // one would make the CLI stop at once, mid-step; SIGTERM reaches this process only, so it is
  // passed on to them once.
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = (signal: string) => {
    if (signal === "SIGTERM" && !abort.signal.aborted) abort.abort();
    if (stop.signal.aborted) return;
    process.stderr.write(
      `${signal}: no further stack starts; the running ones finish the step under way; run the command again to finish\n`,
    );
    stop.abort();
  };
  const sigint = () => onSignal("SIGINT");
  const sigterm = () => onSignal("SIGTERM");
  process.on("SIGINT", sigint);
  process.on("SIGTERM", sigterm);
  let stacks: StackReport[] = [...refused].map(([stack, error]) => {
    const report: StackReport = { stack, status: "failed", durationMs: 0, resources: [], error };
    progress.finish(report);
    return report;
  });
  try {
    let engineStacks = selected.stacks;
    const engineBecause = new Map<string, string>();
    if (command === "drift" && selected.stacks.length > 0) {
      if (flags.engine) for (const s of selected.stacks) engineBecause.set(s, "--engine");
      else {
        // Loaded once the keys are being derived (above): the client and the backends' readers load meanwhile.
        const { fastDrift } = await import("./drift");
        const fast = await fastDrift({
          project,
          stacks: selected.stacks,
          concurrency: FAST_STACKS_AT_ONCE,
          repairCommand: repairCommand(project.dir),
          onStart: (s) => progress.start(s),
          onFinish: (r) => progress.finish(r),
          stop: stop.signal,
          ...(flags.discovery !== false ? { onListed: (s, l) => listings.set(s, l) } : {}),
        });
        stacks = [...stacks, ...fast.reports];
        for (const [s, reason] of fast.toEngine) engineBecause.set(s, reason);
        engineStacks = selected.stacks.filter((s) => engineBecause.has(s));
        if (engineStacks.length > 0)
          process.stderr.write(`fleet drift: ${engineStacks.length} stack(s) checked by the engine instead\n`);
      }
    }
    const byEngine =
      engineStacks.length === 0
        ? []
        : await runFleet({
            automation: loadAutomation(project),
            projectDir: project.dir,
            command,
            stacks: engineStacks,
            concurrency: flags.concurrency,
            program: loaded.program,
            repairCommand: repairCommand(project.dir),
            onStart: (s) => progress.start(s),
            onFinish: (r) => progress.finish(r),
            onRetry: (s) => progress.retry(s),
            signal: abort.signal,
            stop: stop.signal,
            policyPacks: flags.policyPack?.map((dir) => path.resolve(dir)),
            policyPackConfigs: flags.policyPackConfig?.map((file) => path.resolve(file)),
          });
    stacks = [
      ...stacks,
      ...byEngine.map((r) =>
        command === "drift"
          ? { ...r, checkedBy: "engine" as const, engineBecause: engineBecause.get(r.stack) ?? "--engine" }
          : r,
      ),
    ];
  } finally {
    progress.done();
    process.off("SIGINT", sigint);
    process.off("SIGTERM", sigterm);
  }
  const finished = drift
    ? await finishDrift(project, drift, stacks, listings, repairCommand(project.dir), new Date())
    : undefined;
  const report = buildReport(
    command,
    project.name,
    selected.reason,
    startedAt,
    finished?.stacks ?? stacks,
    finished?.sections,
  );
  if (flags.json) await fs.writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.markdown) await fs.writeFile(flags.markdown, renderMarkdown(report));
  if (flags.junit) await fs.writeFile(flags.junit, renderJUnit(report));
  if (flags.html) await fs.writeFile(flags.html, renderEstateHtml(report));
  process.stdout.write(
    `fleet ${command}: ${summaryText(report)} in ${(report.durationMs / 1000).toFixed(1)} s (exit code ${report.exitCode})\n`,
  );
  if (report.drift) process.stdout.write(renderDriftNotes(report));
  // What drifted, changed or failed, as a table (a terminal's width bounds each row).
  process.stdout.write(renderTable(report, process.stdout.isTTY ? process.stdout.columns : Infinity));
  for (const st of report.stacks.filter((x) => x.repair)) process.stdout.write(`  repair: ${st.repair}\n`);
  process.exitCode = report.exitCode;
}

function withRunOptions(cmd: Command): Command {
  return cmd
    .option("--dir <dir>", "the program's directory (holding Pulumi.yaml and the stack files)", ".")
    .option("--stacks <a,b>", "only these stacks")
    .option(
      "--changed-since <ref>",
      "only the stacks whose Pulumi.<stack>.yaml changed since this git ref (every stack when the program changed)",
    )
    .option("--shard <i/n>", "only shard i of n (a stack's shard is a hash of its name)")
    .option("--concurrency <k>", "stacks run at once", positive, DEFAULT_CONCURRENCY)
    .option("--json <file>", 'write the report as JSON (schema: README, "Many sub-accounts")')
    .option("--markdown <file>", "write the report as Markdown (a PR comment, a CI job summary)")
    .option("--junit <file>", "write the report as JUnit XML (one test case per stack)")
    .option("--no-inline", "run the program through its language host per stack, even if it exports a function");
}

/** Stacks the fast drift check reads at once per customer; their requests share the customer's limiter. */
const FAST_STACKS_AT_ONCE = 64;

export function registerFleet(program: Command): void {
  const fleet = program
    .command("fleet")
    .description(
      "many sub-accounts: one program, one stack (Pulumi.<stack>.yaml) per sub-account; exit 0 clean, 2 drift (drift), 1 failure",
    );

  fleet
    .command("new <stack>")
    .description(
      "write Pulumi.<stack>.yaml: the sub-account, its customer, its connectors (non-secret values; secrets by name)",
    )
    .requiredOption("--account-id <id>", "the sub-account id")
    .option(
      "--customer <name>",
      "which customer's credentials (a name the program maps to a client id and secret variable)",
    )
    .option(
      "--connectors <file.json>",
      "the connectors: { key: { name, supportedType, values, secrets: { field: { config | env } } } }",
    )
    .option("--dir <dir>", "the program's directory", ".")
    .option("--force", "overwrite an existing stack file")
    .action(
      async (
        stack: string,
        flags: { accountId: string; customer?: string; connectors?: string; dir: string; force?: boolean },
      ) => {
        const project = await readProject(flags.dir);
        const connectors = flags.connectors ? await readConnectorsFile(flags.connectors) : undefined;
        const { file, commands } = await writeStackFile(project, stack, { ...flags, connectors });
        process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
        if (commands.length > 0) {
          process.stdout.write("set its secrets before `fleet up` (each command prompts for the value):\n");
          for (const c of commands) process.stdout.write(`  ${c}\n`);
        }
      },
    );

  for (const [name, description] of [
    ["preview", "what `up` would change in each stack (with a refresh first)"],
    ["up", "apply each stack (with a refresh first, so drift is put back)"],
    [
      "drift",
      "does each sub-account still match its last apply (the verdict of `pulumi refresh --preview-only --expect-no-changes`)? exit 2 when one drifted",
    ],
    ["destroy", "remove every resource of each stack from its sub-account"],
  ] as const) {
    const cmd = withRunOptions(fleet.command(name).description(description));
    if (name === "drift") withDriftOptions(cmd);
    if (name === "preview" || name === "up") {
      cmd
        .option("--policy-pack <dir>", "run every stack with this policy pack (docs/policy.md); repeatable", collect)
        .option("--policy-pack-config <file>", "the config file of the --policy-pack of the same position", collect);
    }
    cmd.action(async (flags: RunFlags) => runCommand(name, flags));
  }

  registerAdopt(fleet, positive, DEFAULT_CONCURRENCY);
  registerIssues(fleet);

  fleet
    .command("matrix")
    .description("print the shards as a GitHub Actions strategy.matrix (JSON)")
    .option("--dir <dir>", "the program's directory", ".")
    .option("--shards <n>", "how many shards (default: one per stack, at most --max-jobs)", positive)
    .option("--max-jobs <n>", "the most jobs when --shards is not given", positive, 20)
    .option("--changed-since <ref>", "only shards holding a stack whose file changed since this git ref")
    .action(async (flags: { dir: string; shards?: number; maxJobs: number; changedSince?: string }) => {
      const project = await readProject(flags.dir);
      process.stdout.write(`${JSON.stringify(await matrixOf(project, flags))}\n`);
    });

  fleet
    .command("operator")
    .description("write one Pulumi Kubernetes Operator Stack per stack (refresh and resync for drift)")
    .requiredOption("--repo <url>", "the git repository the operator clones")
    .option("--branch <branch>", "the branch it follows", "main")
    .option("--repo-dir <dir>", "the program's directory inside the repository")
    .option("--namespace <ns>", "the Kubernetes namespace", "default")
    .option("--service-account <name>", "the workspace's service account", "pulumi")
    .option(
      "--secret <name>",
      "the Secret holding backendUrl, passphrase and the customers' client secrets",
      "embedded-fleet",
    )
    .option(
      "--secret-env <A,B>",
      "environment variables the program reads secrets from, each a key of --secret",
      SETTINGS.clientSecret.env,
    )
    .option(
      "--resync <seconds>",
      "how often the operator refreshes and re-applies (drift repaired within)",
      integer(60, 7 * 86400),
      600,
    )
    .option("--out <dir>", "write one file per stack here (default: one multi-document YAML on stdout)")
    .option("--dir <dir>", "the program's directory", ".")
    .action(async (flags: Parameters<typeof writeOperatorManifests>[1] & { dir: string }) => {
      const project = await readProject(flags.dir);
      await writeOperatorManifests(project, flags);
    });
}
