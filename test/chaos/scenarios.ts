// The fault matrix (RELIABILITY.md) and one run of a scenario: up (then a second up if needed),
// checks, destroy (then a second destroy if needed), checks. Faults stay on for both runs
// of a phase; the checks run with them off.
import { randomBytes } from "node:crypto";
import type { FaultSettings } from "../../service/faults";
import { E2EStack } from "../e2e/harness";
import { interruptedRun } from "./interrupt";
import { killProviderWhenBusy } from "./provider-kill";
import { desiredState } from "./program";
import { callsTo, ChaosService } from "./service";
import { clean, verify, type Verdict } from "./verify";
import { routeKey } from "../../contract/routes";

export interface Scenario {
  name: string;
  what: string;
  faults: (seed: number) => FaultSettings;
  tokenTtlSeconds?: number;
  timeoutMs?: number;
  restartMidRun?: boolean;
  interrupt?: boolean;
  /** SIGKILL the dynamic-provider process (not the CLI) once the first Add (up) or Remove (destroy) arrived. */
  killProvider?: boolean;
  /** Two stacks with different connectors of one sub-account at once, then a third claiming one (concurrent.ts). */
  concurrentStacks?: boolean;
  /** The first run of each phase fails by design (the run is killed): converging in two runs is the goal. */
  killsARun?: boolean;
  /**
   * The connectors the killed run added are refused by the second `up` as already added,
   * naming its pending-Add records; the
   * run then does what that message says, `adoptExisting: true` on exactly those, and ups again.
   */
  adoptsAfterKill?: boolean;
}

const none = (): FaultSettings => ({ rules: [] });
const ADD = routeKey("addConnectors");
const CONFIGURE = routeKey("configure");
const REMOVE = routeKey("removeConnector");

export const SCENARIOS: Scenario[] = [
  {
    name: "errors",
    what: "20 % of answers 500/503 on every route",
    faults: (seed) => ({ seed, rules: [{ mode: "error", rate: 0.2 }] }),
  },
  {
    name: "rate-limit",
    what: "429 bursts with Retry-After (half the requests until 40 were refused)",
    faults: (seed) => ({ seed, rules: [{ mode: "rateLimit", rate: 0.5, count: 40, retryAfterSeconds: 1 }] }),
  },
  {
    name: "resets",
    what: "15 % of connections reset without an answer",
    faults: (seed) => ({ seed, rules: [{ mode: "reset", rate: 0.15 }] }),
  },
  {
    name: "latency",
    what: "10 % of requests delayed 2.5 s, beyond embedded:timeoutMs=1000",
    timeoutMs: 1000,
    faults: (seed) => ({ seed, rules: [{ mode: "latency", rate: 0.1, latencyMs: 2500 }] }),
  },
  {
    name: "commit-then-drop",
    what: "30 % of Add, Configure and Remove applied, then the answer dropped",
    faults: (seed) => ({
      seed,
      rules: [ADD, CONFIGURE, REMOVE].map((route) => ({ route, mode: "commitThenDrop" as const, rate: 0.3 })),
    }),
  },
  {
    name: "token-restart",
    what: "3 s tokens, and a service restart mid-up and mid-destroy (file DB)",
    tokenTtlSeconds: 3,
    restartMidRun: true,
    faults: none,
  },
  {
    name: "concurrency",
    what: "two stacks, different connectors of one sub-account, up and destroy at once under 10 % 500/503 and 429 bursts; a third stack claims one of the first's connectors",
    concurrentStacks: true,
    faults: (seed) => ({
      seed,
      rules: [
        { mode: "error" as const, rate: 0.1 },
        { mode: "rateLimit" as const, rate: 0.3, count: 30, retryAfterSeconds: 1 },
      ],
    }),
  },
  {
    name: "provider-kill",
    what: "the provider process SIGKILLed mid-up (every Add applied, its answer dropped) and mid-destroy",
    killProvider: true,
    killsARun: true,
    adoptsAfterKill: true,
    faults: (seed) => ({ seed, rules: [{ route: ADD, mode: "commitThenDrop" as const }] }),
  },
  {
    name: "interrupt",
    what: "engine SIGINT then SIGKILL at a random point of up and destroy, then refresh and up/destroy",
    interrupt: true,
    killsARun: true,
    faults: none,
  },
];

/** How many engine runs a phase took: 1, 2, or more when a killed run's connectors were adopted; 0 if it never converged. */
export type Runs = number;

export interface RunResult {
  scenario: string;
  /** How many engine runs the phase took to converge (a kill's adoption runs included); 0: never. */
  up: Runs;
  destroy: Runs;
  after: Verdict;
  restarts: number;
  /** Answers the fault injection decided (500/503, 429, resets, drops), as the service counted them. */
  faultsHit: number;
  notes: string[];
  seconds: number;
}

export interface RunOptions {
  connectors: number;
  configurations: number;
  seed: number;
  log: (line: string) => void;
}

/** The provider's own error line of an engine failure (not the CLI's "Command failed"). */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").map((l) => l.trim());
  const useful =
    lines.find((l) => /^error: .*(failed|refus|\(request id)/i.test(l) && !/Command failed|update failed/.test(l)) ??
    lines.find((l) => /error:/i.test(l) && !/Command failed/.test(l)) ??
    lines[0];
  return useful.slice(0, 400);
}

/** Restarts the service once, when `threshold` requests have reached the route. */
function restartWhenBusy(
  svc: ChaosService,
  route: string,
  threshold: number,
  faults: FaultSettings,
): { done: Promise<void>; stop: () => void } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (callsTo(await svc.stats(), route) >= threshold) {
        await svc.restart(faults);
        return;
      }
    }
  })();
  return { done, stop: () => void (stopped = true) };
}

export async function runScenario(scenario: Scenario, opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const canaries = [
    `canary-password-${randomBytes(6).toString("hex")}`,
    `canary-client-secret-${randomBytes(6).toString("hex")}`,
  ];
  const svc = await ChaosService.start({
    tokenTtlSeconds: scenario.tokenTtlSeconds ?? 3600,
    clientSecret: canaries[1],
  });
  const desired = desiredState(opts.connectors, opts.configurations, canaries[0]);
  const faults = scenario.faults(opts.seed);
  const stack = await E2EStack.create({
    program: "connectors",
    name: `chaos-${scenario.name}`,
    service: { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret: svc.clientSecret, accountId: svc.accountId },
    config: { ...desired.config, ...(scenario.timeoutMs ? { "embedded:timeoutMs": String(scenario.timeoutMs) } : {}) },
    secretConfig: desired.secretConfig,
  });
  const notes: string[] = [];
  const extraOutput: string[] = [];
  const result: RunResult = {
    scenario: scenario.name,
    up: 0,
    destroy: 0,
    after: emptyVerdict(),
    restarts: 0,
    faultsHit: 0,
    notes,
    seconds: 0,
  };
  try {
    result.up = await phase("up", scenario, svc, stack, faults, opts, notes, desired.connectorIds.length, extraOutput);
    await svc.setFaults(none());
    const afterUp = await verify(svc, stack, desired, "up", canaries, extraOutput);
    if (!clean(afterUp)) notes.push(`after up: ${JSON.stringify(afterUp)}`);
    result.destroy = await phase(
      "destroy",
      scenario,
      svc,
      stack,
      faults,
      opts,
      notes,
      desired.connectorIds.length,
      extraOutput,
    );
    await svc.setFaults(none());
    const afterDestroy = await verify(svc, stack, desired, "destroy", canaries, extraOutput);
    result.after = sum(afterUp, afterDestroy);
  } catch (error) {
    notes.push(`run aborted: ${firstLine(error)}`);
  } finally {
    result.restarts = svc.restarts;
    if (svc.restarts > 0) notes.push(`service restarted ${svc.restarts} time(s)`);
    result.faultsHit = await faultCount(svc);
    await svc.setFaults(none()).catch(() => undefined);
    await stack.dispose().catch(() => undefined);
    await svc.stop();
    result.seconds = Math.round((Date.now() - started) / 1000);
  }
  opts.log(
    `${scenario.name}: up ${result.up}, destroy ${result.destroy}, faults ${result.faultsHit}, ${JSON.stringify(result.after)} ${notes.join(" | ")} (${result.seconds}s)`,
  );
  return result;
}

/**
 * One phase: first run (faulted, maybe interrupted or restarted), and a second run if the first
 * failed, then the adoption runs after a kill. Returns how many runs it took, or 0 (never converged).
 */
export async function phase(
  which: "up" | "destroy",
  scenario: Scenario,
  svc: ChaosService,
  stack: E2EStack,
  faults: FaultSettings,
  opts: RunOptions,
  notes: string[],
  _connectors: number,
  extraOutput: string[],
): Promise<Runs> {
  const run = () => (which === "up" ? stack.up() : stack.destroy());
  await svc.setFaults(faults);
  if (scenario.interrupt) {
    const interrupted = await interruptedRun(stack, which, opts.seed);
    notes.push(interrupted.note);
    extraOutput.push(interrupted.output);
    if (interrupted.finished) return 1;
    await stack.refresh({ clearPendingCreates: true }).catch((e: unknown) => notes.push(`refresh: ${firstLine(e)}`));
  } else {
    // Add may be coalesced into few requests: restart as soon as the first mutating one arrived.
    const restarter = scenario.restartMidRun
      ? restartWhenBusy(svc, which === "up" ? ADD : REMOVE, 1, faults)
      : undefined;
    const killer = scenario.killProvider
      ? killProviderWhenBusy(svc, stack.workDir, which === "up" ? ADD : REMOVE, 1)
      : undefined;
    try {
      await run();
      return 1;
    } catch (error) {
      notes.push(`${which} #1: ${firstLine(error)}`);
    } finally {
      restarter?.stop();
      await restarter?.done.catch((e: unknown) => notes.push(`restart: ${firstLine(e)}`));
      killer?.stop();
      if (killer) notes.push(await killer.done);
    }
  }
  try {
    await run();
    return 2;
  } catch (error) {
    notes.push(`${which} #2: ${firstLine(error)}`);
    if (which === "up" && scenario.adoptsAfterKill) return adoptWhatTheKilledRunAdded(stack, error, notes);
    return 0;
  }
}

/**
 * The second `up` after a killed one refused the connectors that run added, each naming its
 * pending-Add record: adopt exactly those, as the message says, and `up` again. The engine
 * stops at its first failed steps, so one run names only the refusals in flight: each later
 * run must name new ones (a user repeats the same step), at most once per connector. The
 * number of the run that converged (3 or more); 0 if a refusal named no record, a run named
 * nothing new, or the runs ran out.
 */
async function adoptWhatTheKilledRunAdded(stack: E2EStack, error: unknown, notes: string[]): Promise<Runs> {
  const adopted = new Set<string>();
  const connectors = JSON.parse((await stack.stack.getConfig("connectors")).value) as {
    connectorId: string;
    adoptExisting?: boolean;
  }[];
  let failure = error;
  for (let run = 3; run <= connectors.length + 2; run++) {
    const text = failure instanceof Error ? failure.message : String(failure);
    const refused = [
      ...text.matchAll(
        /\(([0-9A-Za-z]{16})\) is already added to sub-account \S+, outside this resource\. (A pending-Add record)?/g,
      ),
    ];
    if (refused.length === 0 || refused.some((m) => m[2] === undefined)) {
      notes.push(`up #${run - 1}: a refusal that names no pending-Add record`);
      return 0;
    }
    const named = refused.map((m) => m[1]).filter((id) => !adopted.has(id));
    if (named.length === 0) {
      notes.push(`up #${run - 1}: refused connectors already adopted`);
      return 0;
    }
    for (const id of named) adopted.add(id);
    await stack.setConfig({
      connectors: connectors.map((c) => (adopted.has(c.connectorId) ? { ...c, adoptExisting: true } : c)),
    });
    notes.push(
      `up #${run - 1} refused ${named.length} connector(s) the killed run added, naming its records; adopted as the message says`,
    );
    try {
      await stack.up();
      return run;
    } catch (again) {
      failure = again;
      notes.push(`up #${run} (after adopting): ${firstLine(again)}`);
    }
  }
  return 0;
}

export async function faultCount(svc: ChaosService): Promise<number> {
  const stats = await svc.stats().catch(() => undefined);
  let n = 0;
  for (const byStatus of Object.values(stats?.byRoute ?? {})) {
    for (const [status, count] of Object.entries(byStatus))
      if (["500", "503", "429", "reset", "dropped"].includes(status)) n += count;
  }
  return n;
}

export function emptyVerdict(): Verdict {
  return { duplicates: 0, orphans: 0, missing: 0, unconfigured: 0, disagreements: 0, leaks: [] };
}

export function sum(a: Verdict, b: Verdict): Verdict {
  return {
    duplicates: a.duplicates + b.duplicates,
    orphans: a.orphans + b.orphans,
    missing: a.missing + b.missing,
    unconfigured: a.unconfigured + b.unconfigured,
    disagreements: a.disagreements + b.disagreements,
    leaks: [...new Set([...a.leaks, ...b.leaks])],
  };
}
