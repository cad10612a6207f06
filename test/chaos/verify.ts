// What a chaos run checks after each phase, with the faults off: the service's added and
// configured connectors against the desired state (duplicates, orphans, missing), the stack's
// state against the service, no pending operation, and no canary anywhere in clear.
import { OutOfBandClient } from "../e2e/fixtures";
import type { E2EStack } from "../e2e/harness";
import type { ChaosService } from "./service";
import { canariesOf, type Desired } from "./program";

export interface Verdict {
  duplicates: number;
  orphans: number;
  missing: number;
  unconfigured: number;
  /** Resources whose state and the service disagree (either side only), plus pending operations. */
  disagreements: number;
  /** Places where a canary appeared in clear. */
  leaks: string[];
}

export function clean(v: Verdict): boolean {
  return v.duplicates + v.orphans + v.missing + v.unconfigured + v.disagreements + v.leaks.length === 0;
}

interface Deployment {
  resources?: { type: string; id?: string }[];
  pending_operations?: unknown[];
}

function difference(a: string[], b: string[]): number {
  const sb = new Set(b);
  const sa = new Set(a);
  return a.filter((x) => !sb.has(x)).length + b.filter((x) => !sa.has(x)).length;
}

/**
 * `phase` says what the stack should hold: everything desired after `up`, nothing after
 * `destroy`. `othersOwn`: connectors another stack manages in the same sub-account (not
 * orphans, and not this stack's to hold).
 */
export async function verify(
  svc: ChaosService,
  stack: E2EStack,
  desired: Desired,
  phase: "up" | "destroy",
  canaries: string[],
  extraOutput: string[] = [],
  othersOwn: readonly string[] = [],
): Promise<Verdict> {
  const outOfBand = new OutOfBandClient(svc.baseUrl, svc.clientId, svc.clientSecret);
  const listed = (await outOfBand.listAdded(svc.accountId)).filter((c) => !othersOwn.includes(c.connectorId));
  const ids = listed.map((c) => c.connectorId);
  const wanted = phase === "up" ? desired.connectorIds : [];
  const wantedConfigured = phase === "up" ? desired.configuredIds : [];
  const unique = new Set(ids);
  const deployment = (await stack.stack.exportStack()).deployment as Deployment;
  const resources = deployment.resources ?? [];
  const stateAdded = resources
    .filter((r) => r.type.endsWith(":AddedConnector"))
    .map((r) => (r.id ?? "").split("/").pop() ?? "");
  const stateConfigured = resources
    .filter((r) => r.type.endsWith(":ConnectorConfiguration"))
    .map((r) => (r.id ?? "").split("/").pop() ?? "");
  const configuredOnService = listed.filter((c) => c.configured).map((c) => c.connectorId);
  return {
    duplicates: ids.length - unique.size,
    orphans: ids.filter((id) => !wanted.includes(id)).length,
    missing: wanted.filter((id) => !unique.has(id)).length,
    unconfigured: wantedConfigured.filter((id) => !configuredOnService.includes(id)).length,
    disagreements:
      difference(stateAdded, ids) +
      difference(
        stateConfigured,
        configuredOnService.filter((id) => wantedConfigured.includes(id) || stateConfigured.includes(id)),
      ) +
      (deployment.pending_operations?.length ?? 0),
    leaks: await scan(svc, stack, [...canaries, ...canariesOf(desired)], extraOutput),
  };
}

/** Every place a user or an operator could read: stack export, backend files, engine output, service log. */
async function scan(svc: ChaosService, stack: E2EStack, canaries: string[], extraOutput: string[]): Promise<string[]> {
  const places: [string, string][] = [
    ["pulumi stack export", await stack.exportText()],
    ["backend files", await stack.backendText().catch(() => "")],
    ["engine output", stack.engineOutput() + extraOutput.join("")],
    ["service log", svc.logs.join("")],
  ];
  const leaks: string[] = [];
  for (const [where, text] of places) {
    for (const canary of canaries) if (text.includes(canary)) leaks.push(where);
  }
  return leaks;
}
