// Two stacks that manage different connectors of the same sub-account, run at the same time
// under the scenario's faults: both must converge, nothing lost, neither removing
// or reconfiguring the other's connectors. Then a third stack claims a connector of the first:
// its `up` must fail with the "already added" error, not take the connector over silently.
import { randomBytes } from "node:crypto";
import { E2EStack } from "../e2e/harness";
import { desiredState, splitDesired, type Desired } from "./program";
import {
  emptyVerdict,
  faultCount,
  firstLine,
  phase,
  sum,
  type RunOptions,
  type RunResult,
  type Runs,
  type Scenario,
} from "./scenarios";
import { ChaosService } from "./service";
import { verify } from "./verify";

/** The worse of two phase outcomes: 0 (never converged) beats 2, which beats 1. */
function worse(a: Runs, b: Runs): Runs {
  return a === 0 || b === 0 ? 0 : Math.max(a, b);
}

export async function runConcurrentScenario(scenario: Scenario, opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const canaries = [
    `canary-password-${randomBytes(6).toString("hex")}`,
    `canary-client-secret-${randomBytes(6).toString("hex")}`,
  ];
  const svc = await ChaosService.start({
    tokenTtlSeconds: scenario.tokenTtlSeconds ?? 3600,
    clientSecret: canaries[1],
  });
  const parts = splitDesired(desiredState(opts.connectors, opts.configurations, canaries[0]), 2);
  const service = {
    baseUrl: svc.baseUrl,
    clientId: svc.clientId,
    clientSecret: svc.clientSecret,
    accountId: svc.accountId,
  };
  const stacks = await Promise.all(
    parts.map((part, i) =>
      E2EStack.create({
        program: "connectors",
        name: `chaos-${scenario.name}-${i}`,
        service,
        config: part.config,
        secretConfig: part.secretConfig,
      }),
    ),
  );
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
  const faults = scenario.faults(opts.seed);
  const both = async (which: "up" | "destroy"): Promise<Runs> => {
    const outcomes = await Promise.all(
      stacks.map((stack, i) =>
        phase(which, scenario, svc, stack, faults, opts, notes, parts[i].connectorIds.length, extraOutput),
      ),
    );
    return worse(outcomes[0], outcomes[1]);
  };
  const check = async (which: "up" | "destroy") => {
    await svc.setFaults({ rules: [] });
    const verdicts = await Promise.all(
      stacks.map((stack, i) =>
        verify(svc, stack, parts[i], which, canaries, extraOutput, which === "up" ? parts[1 - i].connectorIds : []),
      ),
    );
    const total = sum(verdicts[0], verdicts[1]);
    if (
      total.duplicates + total.orphans + total.missing + total.unconfigured + total.disagreements + total.leaks.length >
      0
    ) {
      notes.push(`after ${which}: ${JSON.stringify(total)}`);
    }
    return total;
  };
  try {
    result.up = await both("up");
    const afterUp = await check("up");
    const claim = await claimForeign(svc, service, parts[0], notes);
    result.destroy = await both("destroy");
    const afterDestroy = await check("destroy");
    result.after = sum(sum(afterUp, afterDestroy), { ...emptyVerdict(), disagreements: claim });
  } catch (error) {
    notes.push(`run aborted: ${firstLine(error)}`);
  } finally {
    result.faultsHit = await faultCount(svc);
    await svc.setFaults({ rules: [] }).catch(() => undefined);
    for (const stack of stacks) await stack.dispose().catch(() => undefined);
    await svc.stop();
    result.seconds = Math.round((Date.now() - started) / 1000);
  }
  opts.log(
    `${scenario.name}: up ${result.up}, destroy ${result.destroy}, ${JSON.stringify(result.after)} ${notes.join(" | ")} (${result.seconds}s)`,
  );
  return result;
}

/** A third stack declares a connector the first one manages: 1 disagreement unless its `up` is refused as "already added". */
async function claimForeign(
  svc: ChaosService,
  service: Parameters<typeof E2EStack.create>[0]["service"],
  owner: Desired,
  notes: string[],
): Promise<number> {
  const taken = owner.connectorIds[0];
  const claim = await E2EStack.create({
    program: "connectors",
    name: `chaos-claim-${randomBytes(3).toString("hex")}`,
    service,
    config: { connectors: [{ key: "taken", connectorId: taken }] },
  });
  try {
    const text = await claim
      .expectFailure((s) => s.up())
      .catch((error: unknown) => `UP SUCCEEDED: ${firstLine(error)}`);
    const refused = text.includes(`(${taken}) is already added to sub-account ${svc.accountId}, outside this resource`);
    notes.push(
      refused
        ? "a third stack claiming a connector of the first was refused as already added"
        : `claim not refused: ${text.slice(0, 300)}`,
    );
    return refused ? 0 : 1;
  } finally {
    // Its state holds nothing, so its destroy removes nothing of the owner's.
    await claim.dispose().catch(() => undefined);
  }
}
