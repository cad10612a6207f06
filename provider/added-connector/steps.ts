// AddedConnector's provider implementation, loaded by the dynamic-provider process at call
// time (see added-connector.ts). Rules: docs/behaviour.md.
import { z } from "zod";
import { isId } from "../../contract/ids";
import { ADDED_CONNECTOR } from "../schema/added-connector";
import { inPlaceKeys, replaceOnChangeKeys } from "../schema/property";
import { inputSchema, secretAwareCheck, shown, typeFailures, withDefaults } from "../schema/checks";
import type {
  CheckFailure,
  CheckResult,
  CreateResult,
  DiffResult,
  ReadResult,
  UpdateResult,
} from "@pulumi/pulumi/dynamic";
import type { AddedConnectorView } from "../client";
import { AddOutcomeUnknownError, type AddOutcome } from "./coalescer";
import { alreadyAddedMessage, inUseMessage, removeRefusedMessage } from "./messages";

export { alreadyAddedMessage, inUseMessage, removeRefusedMessage } from "./messages";
import { accountIdFor, currentClient, runtime } from "../runtime/runtime";
import { countOf, failure, statusOf, withRequestId } from "../client/service-failures";
import { isUnknown } from "../schema/checks";
import { accountIdProblem, splitId } from "../schema/resource-ids";
import { countedStep } from "../runtime/engine-steps";
import { listAll } from "../sub-account/listing-cache";
import { addedListing, configurationReadAhead, declaredConnectors } from "../sub-account/process";
import { addCoalescer } from "./process";

export { configureFromRequest } from "../runtime/runtime";

/** The inputs after check(): accountId resolved, adoptExisting defaulted (from the definition). */
export const addedConnectorInputs = inputSchema(ADDED_CONNECTOR.inputs);

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

/** Fields of the List Added Connectors view (view A) that become outputs: the definition's outputs. */
export const VIEW_FIELDS = Object.keys(ADDED_CONNECTOR.outputs) as (keyof typeof ADDED_CONNECTOR.outputs)[];

/** The inputs whose change replaces the resource, and those that update it in place (the definition's). */
const REPLACE_KEYS = replaceOnChangeKeys(ADDED_CONNECTOR);
const IN_PLACE_KEYS = inPlaceKeys(ADDED_CONNECTOR);

type Props = Record<string, unknown>;

function outputsOf(view: AddedConnectorView, accountId: string, connectorId: string, adoptExisting: boolean): Props {
  const outs: Props = { connectorId, accountId, adoptExisting };
  const source = view as unknown as Props;
  for (const field of VIEW_FIELDS) outs[field] = source[field] ?? null;
  return outs;
}

function parseInputs(props: Props): { connectorId: string; accountId: string; adoptExisting: boolean } {
  const inputs = addedConnectorInputs.parse(props);
  return {
    connectorId: inputs.connectorId,
    accountId: accountIdFor(inputs.accountId),
    adoptExisting: inputs.adoptExisting ?? false,
  };
}

/**
 * One failure per property; never throws, so `pulumi preview` lists every problem at once. An
 * input that arrived secret is named by its kind, never quoted (schema/checks.ts).
 */
export const check = secretAwareCheck(
  ADDED_CONNECTOR.inputs,
  async (_olds: Props, news: Props, secrets: ReadonlySet<string>): Promise<CheckResult> => {
    const failures: CheckFailure[] = typeFailures(ADDED_CONNECTOR.inputs, news, ["adoptExisting"]);
    const inputs: Props = withDefaults(ADDED_CONNECTOR.inputs, news);
    const { connectorId, accountId } = news;
    if (!isUnknown(connectorId) && (typeof connectorId !== "string" || !isId(connectorId))) {
      failures.push({
        property: "connectorId",
        reason: `connectorId must be a 16-character alphanumeric connector id, got ${shown(connectorId, secrets.has("connectorId"))}`,
      });
    }
    if (accountId === undefined || accountId === null) {
      try {
        inputs.accountId = accountIdFor(undefined);
      } catch (error) {
        failures.push({ property: "accountId", reason: error instanceof Error ? error.message : String(error) });
      }
    } else {
      const problem = accountIdProblem(accountId, secrets.has("accountId"));
      if (problem) failures.push({ property: "accountId", reason: problem });
    }
    if (failures.length === 0 && typeof inputs.accountId === "string" && typeof connectorId === "string") {
      declaredConnectors().add(`${inputs.accountId}/${connectorId}`);
    }
    return { inputs, failures };
  },
);

/** connectorId or accountId changed (or unknown yet) → replace; adoptExisting alone → update. */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  if (typeof olds.accountId === "string" && typeof olds.connectorId === "string")
    settleRecord(olds.accountId, olds.connectorId);
  const replaces: string[] = [];
  let newAccount = news.accountId;
  if (newAccount === undefined || newAccount === null) {
    try {
      newAccount = accountIdFor(undefined);
    } catch {
      newAccount = undefined; // create will report the missing setting
    }
  }
  for (const key of REPLACE_KEYS) {
    const value = key === "accountId" ? newAccount : news[key];
    if (isUnknown(value) || value !== olds[key]) replaces.push(key);
  }
  // A missing input counts as its default (adoptExisting: false), on both sides.
  const [newInputs, oldInputs] = [
    withDefaults(ADDED_CONNECTOR.inputs, news),
    withDefaults(ADDED_CONNECTOR.inputs, olds),
  ];
  const updated = IN_PLACE_KEYS.some((key) => isUnknown(newInputs[key]) || newInputs[key] !== oldInputs[key]);
  return { changes: replaces.length > 0 || updated, replaces, deleteBeforeReplace: false };
}

/**
 * Adds through the coalescer: concurrent creates of one sub-account share an Add call, and
 * each gets its own outcome (see add-coalescer.ts). Whether an "already added" connector is
 * this resource's own is decided per connector (add-ownership.ts). When the outcome of the
 * Add cannot be known (no answer, and no listing either), the resource is recorded in the
 * state as created but not finished (the engine's partial failure, with its id): the next
 * `pulumi up` finishes it by checking the sub-account, and `pulumi refresh` drops it if the
 * connector is not there.
 */
async function createStep(inputs: Props): Promise<CreateResult> {
  const { connectorId, accountId, adoptExisting } = parseInputs(inputs);
  const { client, settings } = currentClient();
  if (adoptExisting) {
    // Adoption reads first (one shared listing per sub-account), so taking over what is
    // already there sends no Add at all; only connectors that are missing get added.
    let present: AddedConnectorView | undefined;
    try {
      present = await addedListing().find(client, accountId, connectorId);
    } catch (error) {
      throw failure(`reading sub-account ${accountId} to adopt connector ${connectorId} failed`, error);
    }
    if (present) return created(present, accountId, connectorId, true);
  }
  const view = await addOwn(connectorId, accountId, adoptExisting, settings.addWindowMs, inputs);
  return created(view, accountId, connectorId, adoptExisting);
}

/** The create's result: the engine has the resource from here on, so its pending-Add record goes. */
function created(
  view: AddedConnectorView,
  accountId: string,
  connectorId: string,
  adoptExisting: boolean,
): CreateResult {
  settleRecord(accountId, connectorId);
  return { id: `${accountId}/${connectorId}`, outs: outputsOf(view, accountId, connectorId, adoptExisting) };
}

/** Marks outputs of a resource whose Add has an unknown outcome (see create). */
const ADD_UNFINISHED = "addUnfinished";

/** The Add (shared through the coalescer) and the ownership rule; the connector's view when it is ours. */
async function addOwn(
  connectorId: string,
  accountId: string,
  adoptExisting: boolean,
  windowMs: number,
  inputs: Props,
): Promise<AddedConnectorView> {
  const { client } = currentClient();
  const state = runtime();
  let outcome: AddOutcome;
  try {
    outcome = await addCoalescer().add(client, accountId, connectorId, windowMs);
  } catch (error) {
    if (error instanceof AddOutcomeUnknownError) throw unfinished(error, inputs, connectorId, accountId, adoptExisting);
    throw failure(`adding connector ${connectorId} to sub-account ${accountId} failed`, error);
  }
  if (outcome.owned && outcome.view) return outcome.view;
  // The Add invalidated the listing, so this reads one made after it (shared by the batch).
  let existing: AddedConnectorView | undefined;
  try {
    existing = await addedListing().find(client, accountId, connectorId);
  } catch (error) {
    if (!outcome.owned && !adoptExisting)
      throw new Error(
        withRequestId(alreadyAddedMessage(connectorId, accountId, undefined, state.host, outcome.pending), error),
      );
    throw failure(`reading connector ${connectorId} of sub-account ${accountId} after adding it failed`, error);
  }
  if (!outcome.owned && !adoptExisting)
    throw new Error(alreadyAddedMessage(connectorId, accountId, existing?.name, state.host, outcome.pending));
  if (!existing)
    throw new Error(
      `connector ${connectorId} was not found in sub-account ${accountId} after adding it; run \`pulumi up\` again`,
    );
  return existing;
}

/** The engine's partial failure: the resource is recorded with its id, and the next `up` finishes it. */
function unfinished(
  error: AddOutcomeUnknownError,
  inputs: Props,
  connectorId: string,
  accountId: string,
  adoptExisting: boolean,
): Error {
  const message = withRequestId(
    `${error.message}. The resource is recorded as unfinished: the next \`pulumi up\` checks the sub-account and ` +
      `finishes it (or adds the connector), and \`pulumi refresh\` drops it if the connector is not there`,
    error.cause,
  );
  const properties: Props = { connectorId, accountId, adoptExisting, [ADD_UNFINISHED]: true };
  // The dynamic-provider host needs the serialized provider in the state to call us again.
  if (typeof inputs.__provider === "string") properties.__provider = inputs.__provider;
  return Object.assign(new Error(message), { id: `${accountId}/${connectorId}`, properties, reasons: [message] });
}

/**
 * The engine has (or is being handed) the resource: the pending-Add record (add-journal.ts) is
 * not needed. Both hosts reach this through create, read, update, delete and diff; a diff in a
 * process that knows no stack yet (the plugin learns it from the URNs of its other calls)
 * finds no journal, which is harmless since create already settled its own record.
 */
function settleRecord(accountId: string, connectorId: string): void {
  let client: { baseUrl: string };
  try {
    client = currentClient().client;
  } catch {
    return; // no settings yet: the operation itself reports that
  }
  addCoalescer().ownership.settle(client, accountId, connectorId);
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
 * Live fields (but `configured`: as of the add); a connector that is not added any more → no id, so refresh drops it. Served
 * from the process's listing of the sub-account: a refresh of N connectors lists once.
 */
async function readStep(id: string, props: Props = {}): Promise<ReadResult> {
  const { accountId, connectorId, adoptExisting } = locate(id, props);
  const { client } = currentClient();
  let view: AddedConnectorView | undefined;
  try {
    view = await addedListing().findConfirmed(client, accountId, connectorId);
  } catch (error) {
    throw failure(`reading connector ${connectorId} of sub-account ${accountId} failed`, error);
  }
  settleRecord(accountId, connectorId);
  if (!view) return { id: "", props: {} };
  configurationReadAhead().notedAdded(client, accountId, connectorId, view.configured);
  const outs = outputsOf(view, accountId, connectorId, adoptExisting);
  // `configured` is as of the add or import, not refreshed: the configuration is saved after
  // the add, so a refreshed one would show `false => true` at every first drift check, which
  // is no drift. ConnectorConfiguration.configured is the live one.
  if (typeof props.configured === "boolean") outs.configured = props.configured;
  return {
    id: `${accountId}/${connectorId}`,
    props: outs,
    inputs: { connectorId, accountId, adoptExisting },
  };
}

/**
 * Only adoptExisting can change in place; the live view is returned with it. A resource whose
 * Add had an unknown outcome (see create) is finished here: its connector is taken if it is
 * there (the state recorded this stack's Add), else added now.
 */
async function updateStep(id: string, olds: Props, news: Props): Promise<UpdateResult> {
  const { accountId, connectorId } = locate(id, olds);
  const adoptExisting = news.adoptExisting === true;
  const { client, settings } = currentClient();
  settleRecord(accountId, connectorId);
  let view = await addedListing().findConfirmed(client, accountId, connectorId);
  if (!view && olds[ADD_UNFINISHED] === true) {
    // Its Add was recorded as this stack's; if the connector is still missing, add it now,
    // under the usual rules (someone else's connector is not taken over).
    view = await addOwn(connectorId, accountId, adoptExisting, settings.addWindowMs, {
      ...news,
      __provider: olds.__provider ?? news.__provider,
    });
    settleRecord(accountId, connectorId); // the record that Add wrote: the engine gets the outputs now
  }
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
 * a List per delete and could only be older than Remove's own check; only a 409 without counts
 * costs one, for the added view's counts. Already gone (404) is done.
 */
async function removeStep(id: string, props: Props): Promise<void> {
  const { accountId, connectorId } = locate(id, props);
  const { client } = currentClient();
  settleRecord(accountId, connectorId);
  const cache = addedListing();
  cache.invalidate(client, accountId);
  configurationReadAhead().forget(client, accountId, connectorId);
  const adds = addCoalescer().ownership;
  try {
    await client.removeConnector(accountId, connectorId);
    adds.forgetPresent(client, accountId, connectorId);
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) {
      adds.forgetPresent(client, accountId, connectorId);
      return;
    }
    if (status === 409) {
      const name = typeof props.name === "string" ? props.name : undefined;
      let counts = [countOf(error, "srcConnections"), countOf(error, "destConnections")] as const;
      // A 409 without counts (a service that gives none): the added view's counts tell instead.
      if (counts[0] === undefined && counts[1] === undefined) counts = await viewCounts(client, accountId, connectorId);
      // Only counts above zero say "used in connections"; any other conflict keeps its own reason.
      if ((counts[0] ?? 0) + (counts[1] ?? 0) > 0) {
        throw new Error(withRequestId(inUseMessage(name, connectorId, accountId, ...counts), error), { cause: error });
      }
      const said = (error as { statusMessage?: unknown }).statusMessage;
      const reason =
        typeof said === "string" && said.trim() !== "" ? said.trim().replace(/\.+$/, "") : "no reason given";
      throw new Error(withRequestId(removeRefusedMessage(name, connectorId, accountId, reason), error), {
        cause: error,
      });
    }
    throw failure(`removing connector ${connectorId} from sub-account ${accountId} failed`, error);
  } finally {
    cache.invalidate(client, accountId);
  }
}

/** srcConnections and destConnections of the connector's added view, read now; unknown when it cannot be read. */
async function viewCounts(
  client: ReturnType<typeof currentClient>["client"],
  accountId: string,
  connectorId: string,
): Promise<readonly [number | undefined, number | undefined]> {
  try {
    const view = (await listAll(client, accountId)).get(connectorId);
    return [view?.srcConnections, view?.destConnections];
  } catch {
    return [undefined, undefined];
  }
}

// The engine's steps, counted while they run (engine-steps.ts: the Add coalescer's rule); check
// and diff are not steps.
export const create = countedStep(createStep);
export const read = countedStep(readStep);
export const update = countedStep(updateStep);
export const remove = countedStep(removeStep);
