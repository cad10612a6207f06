// `fleet adopt --accounts <file>`: brings existing sub-accounts under the fleet with no write.
// For each sub-account: read it (a token and GETs), write its stack file (adopt-read.ts), create
// its stack and import every connector and configuration into it (one `up` in which the fleet's
// program gives each resource the engine's `import` option: the engine reads them and fails an
// import that differs, it never writes), then prove it: `fleet preview` shows no change and
// `fleet drift` is clean. Resumable: a rerun with --resume keeps the stack files written and skips
// the stacks already holding their resources; without it, a sub-account that has a stack is refused.
// A sub-account that another stack of the fleet or of its backend manages is always refused
// (adopt-managed.ts): two stacks over one sub-account delete each other's connectors.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { closeClients } from "../../provider/client";
import { FLEET_IMPORT_ENV } from "../../provider/fleet/import-env";
import type { AdoptEntry, SecretMap } from "./adopt-input";
import { adoptRefusal, managedSubAccounts, type Managers } from "./adopt-managed";
import { clientOf, readCustomers, readSubAccount } from "./adopt-read";
import { fastDrift } from "./drift";
import { writeStackFile } from "./new";
import { loadAutomation, loadProgram } from "./program";
import { readProject, stackFileName, type FleetProject } from "./project";
import type { StackReport, StackStatus } from "./report";
import { runFleet, type FleetRunOptions } from "./run";
import { shownText } from "./shown-text";

export interface AdoptOptions {
  dir: string;
  accounts: AdoptEntry[];
  secrets?: SecretMap;
  /** Keep the stack files already written and finish their adoption. */
  resume?: boolean;
  concurrency: number;
}

export type AdoptStatus = "adopted" | "pending" | "refused" | "failed";

export interface AdoptReport {
  stack: string;
  accountId: string;
  customer?: string;
  /** adopted: imported, no change, no drift; pending: imported, the next `fleet up` writes the mapped Passwords. */
  status: AdoptStatus;
  /** What this run did: read and wrote the stack file, imported, or found both done (--resume). */
  steps: string[];
  connectors?: number;
  heldByService?: number;
  mappedSecrets?: number;
  /** Added but not configured: not in the stack file. */
  unconfigured?: string[];
  preview?: StackStatus;
  drift?: StackStatus;
  error?: string;
}

/** Runs `worker` over `items`, `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, worker: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const next = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await worker(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, next));
}

const repairOf = (dir: string) => (stack: string) =>
  `npx pulumi-embedded-connectors fleet up --dir ${dir} --stacks ${stack}`;

/** Reads each sub-account and writes its stack file; the stacks to import. */
async function writeStackFiles(
  project: FleetProject,
  opts: AdoptOptions,
  reports: Map<string, AdoptReport>,
  resourcesOf: Map<string, number>,
  managers: Managers,
): Promise<string[]> {
  const customers = readCustomers(project);
  const toImport: string[] = [];
  await pool(opts.accounts, opts.concurrency, async (entry) => {
    const report = reports.get(entry.stack)!;
    const hasFile = existsSync(path.join(project.dir, stackFileName(entry.stack)));
    const exists = { file: hasFile, backend: resourcesOf.has(entry.stack) };
    const refusal = adoptRefusal(project, entry, managers, exists, opts.resume === true);
    if (refusal !== undefined) {
      report.status = "refused";
      report.error = refusal;
      return;
    }
    if (hasFile) {
      if ((resourcesOf.get(entry.stack) ?? 0) > 0) report.steps.push("already imported");
      else toImport.push(entry.stack);
      return;
    }
    try {
      const read = await readSubAccount(clientOf(customers, entry.customer), entry.accountId, opts.secrets);
      await writeStackFile(project, entry.stack, { ...entry, connectors: read.connectors });
      Object.assign(report, {
        connectors: Object.keys(read.connectors).length,
        heldByService: read.held,
        mappedSecrets: read.mapped,
        unconfigured: read.unconfigured,
      });
      report.steps.push("read", "wrote stack file");
      toImport.push(entry.stack);
    } catch (error) {
      report.status = "failed";
      report.error = `reading sub-account ${entry.accountId} failed: ${(error as Error).message}`;
    }
  });
  return toImport.sort();
}

/** `fleet drift`'s verdict per stack: from the checkpoint, else by the engine. */
async function driftOf(project: FleetProject, stacks: string[], run: Omit<FleetRunOptions, "command" | "stacks">) {
  const fast = await fastDrift({ project, stacks, concurrency: 64, repairCommand: run.repairCommand });
  const byEngine =
    fast.toEngine.size > 0 ? await runFleet({ ...run, command: "drift", stacks: [...fast.toEngine.keys()] }) : [];
  return [...fast.reports, ...byEngine];
}

export async function adoptFleet(opts: AdoptOptions): Promise<AdoptReport[]> {
  const project = await readProject(opts.dir);
  const automation = loadAutomation(project);
  const workspace = await automation.LocalWorkspace.create({ workDir: project.dir });
  const resourcesOf = new Map(
    (await workspace.listStacks()).map((s) => [s.name.slice(s.name.lastIndexOf("/") + 1), s.resourceCount ?? 0]),
  );
  const reports = new Map<string, AdoptReport>(
    opts.accounts.map((e) => [e.stack, { ...e, status: "adopted" as AdoptStatus, steps: [] }]),
  );
  const managers = await managedSubAccounts(project, workspace);
  let toImport: string[];
  try {
    toImport = await writeStackFiles(project, opts, reports, resourcesOf, managers);
  } finally {
    await closeClients();
  }
  const failed = (stack: string, step: string, r: StackReport) => {
    const report = reports.get(stack)!;
    report.status = "failed";
    report.error = `${step}: ${r.error ?? r.status}`;
  };
  // Nothing to import or prove (every sub-account refused): no program to load.
  const anyLeft = [...reports.values()].some((r) => r.status === "adopted");
  const loaded = anyLeft ? await loadProgram(project, true) : {};
  const run = {
    automation,
    projectDir: project.dir,
    concurrency: opts.concurrency,
    program: loaded.program,
    repairCommand: repairOf(path.relative(process.cwd(), project.dir) || "."),
  };
  if (toImport.length > 0) {
    process.stderr.write(`fleet adopt: importing ${toImport.length} stack(s) (reads only)\n`);
    const before = process.env[FLEET_IMPORT_ENV];
    process.env[FLEET_IMPORT_ENV] = "1";
    try {
      for (const r of await runFleet({ ...run, command: "up", stacks: toImport })) {
        if (r.status === "failed") failed(r.stack, "the import failed (nothing was written)", r);
        else reports.get(r.stack)!.steps.push("imported");
      }
    } finally {
      if (before === undefined) delete process.env[FLEET_IMPORT_ENV];
      else process.env[FLEET_IMPORT_ENV] = before;
    }
  }
  const toProve = [...reports.values()].filter((r) => r.status === "adopted").map((r) => r.stack);
  if (toProve.length > 0) {
    process.stderr.write(`fleet adopt: proving ${toProve.length} stack(s): fleet preview, fleet drift\n`);
    for (const r of await runFleet({ ...run, command: "preview", stacks: toProve })) {
      const report = reports.get(r.stack)!;
      report.preview = r.status;
      if (r.status === "failed") failed(r.stack, "fleet preview failed", r);
      else if (r.status === "changed" && (report.mappedSecrets ?? 0) > 0) report.status = "pending";
      else if (r.status === "changed") {
        report.status = "failed";
        report.error = `fleet preview shows a change: ${r.resources.map((c) => `${c.name} ${c.operation} ${c.properties.join(",")}`).join("; ")}`;
      }
    }
    for (const r of await driftOf(project, toProve, run)) {
      const report = reports.get(r.stack)!;
      report.drift = r.status;
      if (r.status !== "clean" && report.status !== "failed") {
        report.status = "failed";
        report.error = `fleet drift: ${r.status}${r.error ? `: ${r.error}` : ""}`;
      }
    }
  }
  return [...reports.values()].sort((a, b) => a.stack.localeCompare(b.stack));
}

/** One line per sub-account. */
export function adoptLine(r: AdoptReport): string {
  const what =
    r.connectors === undefined
      ? ""
      : `: ${r.connectors} connector(s), ${r.heldByService ?? 0} Password(s) left to the service, ${r.mappedSecrets ?? 0} from secrets` +
        `${r.unconfigured?.length ? `, ${r.unconfigured.length} added, not configured` : ""}`;
  const proof = r.preview
    ? `; preview: ${r.preview === "clean" ? "no change" : r.preview}, drift: ${r.drift ?? "not run"}`
    : "";
  const pending = r.status === "pending" ? "; the next `fleet up` writes the Passwords from secrets once" : "";
  return `${r.stack} (sub-account ${r.accountId}${r.customer ? `, customer ${r.customer}` : ""}): ${r.status}${what}${proof}${pending}${r.error ? `: ${shownText(r.error)}` : ""}`;
}

export async function writeAdoptReport(file: string, reports: AdoptReport[]): Promise<void> {
  const summary = Object.fromEntries(
    (["adopted", "pending", "refused", "failed"] as const).map((s) => [
      s,
      reports.filter((r) => r.status === s).length,
    ]),
  );
  await fs.writeFile(
    file,
    `${JSON.stringify({ schemaVersion: 1, command: "adopt", summary, stacks: reports.map((r) => (r.error === undefined ? r : { ...r, error: shownText(r.error) })) }, null, 2)}\n`,
  );
}
