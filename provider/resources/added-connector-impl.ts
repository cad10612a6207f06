// AddedConnector's provider implementation, loaded by the dynamic-provider process at call
// time (see added-connector.ts). Rules: issue 3, "Resources", AddedConnector.
import { z } from "zod";
import type { CheckFailure, CheckResult, CreateResult, DiffResult, ReadResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import type { AddedConnectorView } from "../client";
import { accountIdFor, currentClient, runtime } from "./runtime";
import {
  CONNECTOR_ID_PATTERN,
  countOf,
  failure,
  isUnknown,
  splitId,
  statusOf,
  withRequestId,
  accountIdProblem,
} from "./shared";

export { configureFromRequest } from "./runtime";

/** The inputs after check(): accountId resolved, adoptExisting defaulted. */
export const addedConnectorInputs = z.looseObject({
  connectorId: z.string(),
  accountId: z.string().optional(),
  adoptExisting: z.boolean().optional(),
});

/** Outputs: the List Added Connectors view plus the resource's own inputs. */
export const addedConnectorOutputs = z.looseObject({
  connectorId: z.string(),
  accountId: z.string(),
  adoptExisting: z.boolean().optional(),
  name: z.string().optional(),
  srcConnections: z.number().optional(),
  destConnections: z.number().optional(),
});
export type AddedConnectorOutputs = z.infer<typeof addedConnectorOutputs>;

/** Fields of the List Added Connectors view (view A) that become outputs. */
export const VIEW_FIELDS = [
  "platformId", "name", "logo", "dataType", "dataTypeCategory", "platformType", "supportedType", "transfer",
  "configured", "description", "srcConnections", "destConnections", "editable", "env",
] as const;

type Props = Record<string, unknown>;

function outputsOf(view: AddedConnectorView, accountId: string, connectorId: string, adoptExisting: boolean): Props {
  const outs: Props = { connectorId, accountId, adoptExisting };
  const source = view as unknown as Props;
  for (const field of VIEW_FIELDS) outs[field] = source[field] ?? null;
  return outs;
}

function parseInputs(props: Props): { connectorId: string; accountId: string; adoptExisting: boolean } {
  const inputs = addedConnectorInputs.parse(props);
  return { connectorId: inputs.connectorId, accountId: accountIdFor(inputs.accountId), adoptExisting: inputs.adoptExisting ?? false };
}

/** One failure per property; never throws, so `pulumi preview` lists every problem at once. */
export async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const failures: CheckFailure[] = [];
  const inputs: Props = { ...news };
  const { connectorId, accountId, adoptExisting } = news;
  if (!isUnknown(connectorId) && (typeof connectorId !== "string" || !CONNECTOR_ID_PATTERN.test(connectorId))) {
    failures.push({
      property: "connectorId",
      reason: `connectorId must be a 16-character alphanumeric connector id, got ${JSON.stringify(connectorId ?? null)}`,
    });
  }
  if (accountId === undefined || accountId === null) {
    try {
      inputs.accountId = accountIdFor(undefined);
    } catch (error) {
      failures.push({ property: "accountId", reason: error instanceof Error ? error.message : String(error) });
    }
  } else {
    const problem = accountIdProblem(accountId);
    if (problem) failures.push({ property: "accountId", reason: problem });
  }
  if (adoptExisting === undefined || adoptExisting === null) {
    inputs.adoptExisting = false;
  } else if (!isUnknown(adoptExisting) && typeof adoptExisting !== "boolean") {
    failures.push({ property: "adoptExisting", reason: `adoptExisting must be a boolean, got ${JSON.stringify(adoptExisting)}` });
  }
  return { inputs, failures };
}

/** connectorId or accountId changed (or unknown yet) → replace; adoptExisting alone → update. */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces: string[] = [];
  let newAccount = news.accountId;
  if (newAccount === undefined || newAccount === null) {
    try {
      newAccount = accountIdFor(undefined);
    } catch {
      newAccount = undefined; // create will report the missing setting
    }
  }
  if (isUnknown(news.connectorId) || news.connectorId !== olds.connectorId) replaces.push("connectorId");
  if (isUnknown(newAccount) || newAccount !== olds.accountId) replaces.push("accountId");
  const adoptChanged = isUnknown(news.adoptExisting) || (news.adoptExisting ?? false) !== (olds.adoptExisting ?? false);
  return { changes: replaces.length > 0 || adoptChanged, replaces, deleteBeforeReplace: false };
}

export function alreadyAddedMessage(connectorId: string, accountId: string, name?: string): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  return (
    `connector ${label} is already added to sub-account ${accountId}, outside this resource. ` +
    `To manage the existing one, set \`adoptExisting: true\` on this AddedConnector ` +
    `(\`pulumi import\` does not work for dynamic-provider resources); ` +
    `or remove it from the sub-account first.`
  );
}

export function inUseMessage(
  name: string | undefined,
  connectorId: string,
  accountId: string,
  src: number | undefined,
  dest: number | undefined,
): string {
  const label = name ? `"${name}" (${connectorId})` : connectorId;
  const counts = src === undefined && dest === undefined ? "" : ` (srcConnections=${src ?? "?"}, destConnections=${dest ?? "?"})`;
  return (
    `cannot remove connector ${label} from sub-account ${accountId}: it is used in connections${counts}. ` +
    `Delete those connections first, or set the resource option \`retainOnDelete: true\` ` +
    `to leave the connector in the sub-account when it leaves the stack.`
  );
}

/**
 * Adds through the coalescer: concurrent creates of one sub-account share an Add call, and
 * each gets its own outcome (see add-coalescer.ts).
 */
export async function create(inputs: Props): Promise<CreateResult> {
  const { connectorId, accountId, adoptExisting } = parseInputs(inputs);
  const { client, settings } = currentClient();
  const state = runtime();
  if (adoptExisting) {
    // Adoption reads first (one shared listing per sub-account), so taking over what is
    // already there sends no Add at all; only connectors that are missing get added.
    let present: AddedConnectorView | undefined;
    try {
      present = await state.added.find(client, accountId, connectorId);
    } catch (error) {
      throw failure(`reading sub-account ${accountId} to adopt connector ${connectorId} failed`, error);
    }
    if (present) return { id: `${accountId}/${connectorId}`, outs: outputsOf(present, accountId, connectorId, true) };
  }
  let outcome: Awaited<ReturnType<typeof state.adds.add>>;
  try {
    outcome = await state.adds.add(client, accountId, connectorId, settings.addWindowMs);
  } catch (error) {
    throw failure(`adding connector ${connectorId} to sub-account ${accountId} failed`, error);
  }
  let view = outcome.view;
  if (!view) {
    // Already there: ours only if an earlier attempt of this very call added it (retried).
    // The Add invalidated the listing, so this reads one made after it (shared by the batch).
    const existing = await state.added.find(client, accountId, connectorId);
    if (!adoptExisting && !outcome.retried) throw new Error(alreadyAddedMessage(connectorId, accountId, existing?.name));
    view = existing;
  }
  if (!view) throw new Error(`connector ${connectorId} was not found in sub-account ${accountId} after adding it`);
  return { id: `${accountId}/${connectorId}`, outs: outputsOf(view, accountId, connectorId, adoptExisting) };
}

function locate(id: string, props: Props): { accountId: string; connectorId: string; adoptExisting: boolean } {
  const parsed = addedConnectorOutputs.safeParse(props);
  if (parsed.success) {
    const { accountId, connectorId, adoptExisting } = parsed.data;
    return { accountId, connectorId, adoptExisting: adoptExisting ?? false };
  }
  return { ...splitId(id), adoptExisting: false };
}

/**
 * Live fields; a connector that is not added any more → no id, so refresh drops it. Served
 * from the process's listing of the sub-account: a refresh of N connectors lists once.
 */
export async function read(id: string, props: Props = {}): Promise<ReadResult> {
  const { accountId, connectorId, adoptExisting } = locate(id, props);
  const { client } = currentClient();
  let view: AddedConnectorView | undefined;
  try {
    view = await runtime().added.find(client, accountId, connectorId);
  } catch (error) {
    throw failure(`reading connector ${connectorId} of sub-account ${accountId} failed`, error);
  }
  if (!view) return { id: "", props: {} };
  return {
    id: `${accountId}/${connectorId}`,
    props: outputsOf(view, accountId, connectorId, adoptExisting),
    inputs: { connectorId, accountId, adoptExisting },
  };
}

/** Only adoptExisting can change in place; the live view is returned with it. */
export async function update(id: string, olds: Props, news: Props): Promise<UpdateResult> {
  const { accountId, connectorId } = locate(id, olds);
  const adoptExisting = news.adoptExisting === true;
  const { client } = currentClient();
  const view = await runtime().added.find(client, accountId, connectorId);
  if (!view) {
    throw new Error(
      `connector ${connectorId} is no longer added to sub-account ${accountId}; run \`pulumi refresh\` and then \`pulumi up\` to add it again`,
    );
  }
  return { outs: outputsOf(view, accountId, connectorId, adoptExisting) };
}

/**
 * The delete guard: the service's Remove refuses (409, nothing removed) while connections use
 * the connector, atomically; that answer becomes the message. No listing first: it would cost
 * a List per delete and could only be older than Remove's own check. Already gone (404) is done.
 */
export async function remove(id: string, props: Props): Promise<void> {
  const { accountId, connectorId } = locate(id, props);
  const { client } = currentClient();
  const cache = runtime().added;
  cache.invalidate(client, accountId);
  try {
    await client.removeConnector(accountId, connectorId);
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return;
    if (status === 409) {
      const name = typeof props.name === "string" ? props.name : undefined;
      const counts = [countOf(error, "srcConnections"), countOf(error, "destConnections")] as const;
      throw new Error(withRequestId(inUseMessage(name, connectorId, accountId, ...counts), error));
    }
    throw failure(`removing connector ${connectorId} from sub-account ${accountId} failed`, error);
  } finally {
    cache.invalidate(client, accountId);
  }
}
