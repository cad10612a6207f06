// ConnectorConfiguration's provider implementation, loaded by the dynamic-provider process
// at call time (see connector-configuration.ts). Rules: docs/behaviour.md.
import type { CreateResult, ReadResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import { mayHaveBeenApplied, type ConnectorConfigurationView } from "../client";
import { accountIdFor, currentClient, runtime } from "../runtime/runtime";
import { cachedConfiguration } from "./process";
import { failure, statusOf } from "../client/service-failures";
import { descriptorsOf, validateSecretConfig, valuesOf } from "./rules";
import { withoutLegacyOutputs } from "./drift";
import {
  configurationInputs,
  configurationOutputs,
  outputsOf,
  refreshedDigests,
  type ConfigurationOutputs,
  type Inputs,
} from "./outputs";
import { configurationKey, decideCreate } from "./ownership";
import { DIGEST_KEY_RECIPE, inputSaltOf, withSaltInput, writeKey } from "./digest-salt";
import { notePasswordsWritten } from "./password-changes";
import { splitId } from "../schema/resource-ids";
import { importedInputs, importNotice } from "./import";
import { countedStep } from "../runtime/engine-steps";
import { settleRecord } from "./pending-record";
import { configureWrites, heldPasswordsRefusal } from "./held-passwords";
import { addedListing, configurationReadAhead, declaredConnectors } from "../sub-account/process";
import { refuseWhileConnectorInUse } from "./delete-guard";

export { configureFromRequest } from "../runtime/runtime";
export { check } from "./check";
export { diff, diffByDigests } from "./diff";
export { configurationInputs, configurationOutputs, type ConfigurationOutputs } from "./outputs";

type Props = Record<string, unknown>;

function nullishToUndefined(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Writes the configuration (Configure is a PUT of the whole of it). A create first reads the
 * connector's configuration and refuses to overwrite one this stack did not write
 * (configuration-ownership.ts); its pending-Configure record stays until the engine shows it
 * holds the resource, so that a process killed mid-write does not lock the next run out.
 */
async function apply(props: Props, creating: boolean, outputSalt?: string): Promise<ConfigurationOutputs> {
  const parsed = configurationInputs.parse(nullishToUndefined(props));
  const inputs = { ...parsed, accountId: accountIdFor(parsed.accountId) };
  const { client, settings } = currentClient();
  const where = `connector ${inputs.connectorId} of sub-account ${inputs.accountId}`;
  const state = runtime();
  const at = { accountId: inputs.accountId, connectorId: inputs.connectorId, baseUrl: settings.baseUrl };
  // Check refused it at preview; this holds for any caller (an up that skipped the preview).
  const held = inputs.heldByService ?? [];
  if (held.length > 0 && configureWrites(settings) === "whole")
    throw new Error(heldPasswordsRefusal(where, held, creating ? "creating" : "updating"));
  let fieldIds: string[] = [];
  let found: string | undefined;
  let live: ConnectorConfigurationView;
  if (creating) {
    try {
      live = await client.getConfiguration(inputs.accountId, inputs.connectorId);
    } catch (error) {
      throw failure(`reading the configuration of ${where} before creating it failed`, error);
    }
    const decision = decideCreate(live, at, inputs.adoptExisting ?? false, state.journal, state.host);
    if (decision.refusal) throw new Error(decision.refusal);
    fieldIds = decision.fieldIds;
    found = decision.configurationId;
    state.journal?.begin(at.baseUrl, at.accountId, configurationKey(at.connectorId));
  } else {
    live = await cachedConfiguration(client, settings.baseUrl, inputs.accountId, inputs.connectorId).catch(
      (error: unknown) => {
        throw failure(`reading the fields of ${where} failed`, error);
      },
    );
  }
  const configurationId = inputs.configurationId ?? found ?? live.secretConfig[0]?.configurationId;
  if (!configurationId) throw new Error(`${where} has no secret configuration to save`);
  // The check could not see the fields when the connector was not added yet (a service that
  // answers 404 then): they are checked now, before anything is sent.
  const checked = validateSecretConfig(inputs.connectorId, descriptorsOf(live), inputs.secretConfig, held);
  if (checked.failures.length > 0) {
    const reasons = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
    throw new Error(`the secretConfig of ${where} does not fit its fields: ${reasons}`);
  }
  // Configure changes the connector's `configured` in List Added Connectors: drop the listing,
  // and what a refresh fetched ahead of this configuration.
  const cache = addedListing();
  cache.invalidate(client, inputs.accountId);
  configurationReadAhead().forget(client, inputs.accountId, inputs.connectorId);
  try {
    const body = {
      configurationId,
      name: inputs.name,
      secretName: inputs.secretName,
      secretConfig: inputs.secretConfig,
    };
    const { view, retried } = await client.configureWithOutcome(inputs.accountId, inputs.connectorId, body, {
      fieldIds,
    });
    cache.invalidate(client, inputs.accountId);
    // An attempt whose answer was lost may have landed after the one that answered (same body,
    // later lastUpdated): record what the service holds now, or the next refresh sees drift.
    const applied = retried
      ? await client.getConfiguration(inputs.accountId, inputs.connectorId).catch(() => view)
      : view;
    // The resource's salt for its life (the plugin's input salt; else a new output salt at create,
    // or for a state written before salts): its digests differ from every other resource's, and an
    // update still shows which field moved.
    const key = writeKey(settings.clientSecret, props, outputSalt, settings.digestKey);
    return outputsOf(applied, inputs, key, settings.profile, live);
  } catch (error) {
    cache.invalidate(client, inputs.accountId);
    // Certainly not written: the record of this create has nothing to take back.
    if (creating && !mayHaveBeenApplied(error)) settleRecord(inputs.accountId, inputs.connectorId);
    const hint =
      statusOf(error) === 404
        ? " (is it added? create its AddedConnector first and pass `connectorId: added.connectorId`)"
        : "";
    throw failure(`configuring ${where} failed${hint}${fieldErrors(error)}`, error);
  }
}

// Names only: the service's per-field texts may quote the values, which are secrets.
function fieldErrors(error: unknown): string {
  const list = (error as { fieldErrors?: unknown } | null)?.fieldErrors;
  if (!Array.isArray(list) || list.length === 0) return "";
  const names = list.map((e: { field?: unknown }) =>
    typeof e.field === "string" && e.field !== "" ? e.field : "(unnamed)",
  );
  return `: the service refused fields ${[...new Set(names)].join(", ")}; fix their values in secretConfig`;
}

async function createStep(inputs: Props): Promise<CreateResult> {
  const outs = await apply(inputs, true);
  return { id: `${outs.accountId}/${outs.connectorId}`, outs };
}

/**
 * The output salt an update keeps: the resource's, but a new one when the write first mixes
 * embedded:digestKey in, so that the digests of the earlier checkpoints need the salt of the
 * `--debug` logs printed before the key (a later log prints only the new one).
 */
function keptSalt(olds: Props): string | undefined {
  const salt = typeof olds.digestSalt === "string" && olds.digestSalt !== "" ? olds.digestSalt : undefined;
  const keyed = olds.digestRecipe === DIGEST_KEY_RECIPE;
  return !keyed && currentClient().settings.digestKey !== undefined ? undefined : salt;
}

async function updateStep(_id: string, olds: Props, news: Props): Promise<UpdateResult> {
  settleRecord(olds.accountId, olds.connectorId);
  const outs = await apply(news, false, keptSalt(olds));
  notePasswordsWritten(olds.accountId, olds.connectorId, news.secretConfig); // the stored inputs are these now
  return { outs };
}

/**
 * Refreshes lastUpdated, configured, the digests of the fields the service returns and `drift`,
 * keeping appliedLastUpdated and the Password digests. No configuration any more (connector removed) → no id. Returns no
 * `inputs`: the engine then keeps the stored ones, whose secretConfig it holds encrypted and
 * which cannot be rebuilt from outputs that never contain it. Whether the connector is still
 * added and configured comes from the process's listing of the sub-account (shared with the
 * AddedConnector reads of the same refresh): a connector gone costs no Get; lastUpdated and
 * the values exist only in Get Connector Configuration, so a configured one costs one.
 */
async function readStep(id: string, props: Props = {}, inputs?: Props): Promise<ReadResult> {
  const parsed = configurationOutputs.safeParse(props);
  const { accountId, connectorId } = parsed.success ? parsed.data : splitId(id);
  settleRecord(accountId, connectorId);
  const { client, settings } = currentClient();
  const reading = `reading the configuration of connector ${connectorId} of sub-account ${accountId} failed`;
  // Gone only on a list proven complete (the client refuses any other) or on Get's own 404 for
  // this connector: a failed listing fails the refresh and keeps the state.
  const listed = await addedListing()
    .findConfirmed(client, accountId, connectorId)
    .catch((error: unknown) => {
      throw failure(reading, error);
    });
  if (!listed || !listed.configured) return { id: "", props: {} };
  let view: ConnectorConfigurationView;
  try {
    view = await configurationReadAhead().read(client, accountId, connectorId);
  } catch (error) {
    if (statusOf(error) === 404) return { id: "", props: {} };
    throw failure(reading, error);
  }
  if (!view.configured) return { id: "", props: {} };
  const base: Props = parsed.success
    ? withoutLegacyOutputs(parsed.data)
    : { accountId, connectorId, appliedLastUpdated: -1 };
  return {
    id,
    props: {
      ...base,
      ...refreshedDigests(
        parsed.success ? parsed.data : undefined,
        view,
        accountId,
        connectorId,
        settings.clientSecret,
        inputSaltOf(inputs),
        settings.profile,
        settings.digestKey,
      ),
      configured: view.configured,
      lastUpdated: view.lastUpdated ?? 0,
      secretName: view.secretName ?? base.secretName ?? null,
    },
  };
}

/**
 * `pulumi import` of a saved configuration: no value in its inputs (configuration-import.ts:
 * the engine prints its code from them), the fields the service holds named in a hidden input;
 * its outputs' digests are of the non-Password values the service returns, so a program that
 * declares them and adds the Password fields shows one update, which writes them (docs/import.md).
 */
async function importStep(id: string): Promise<{ id: string; props: Props; inputs: Props; notice?: string }> {
  const { accountId, connectorId } = splitId(id);
  const { client, settings } = currentClient();
  let view: ConnectorConfigurationView;
  try {
    view = await client.getConfiguration(accountId, connectorId);
  } catch (error) {
    throw failure(`importing the configuration of connector ${connectorId} of sub-account ${accountId} failed`, error);
  }
  if (!view.configured) {
    throw new Error(
      `connector ${connectorId} of sub-account ${accountId} has no saved configuration to import; ` +
        `declare a ConnectorConfiguration without importing it, and \`pulumi up\` writes one`,
    );
  }
  const configurationId = view.secretConfig[0]?.configurationId;
  // Read-only fields are the service's to set: a program may not (check refuses them).
  const settable = descriptorsOf(view).filter((field) => !field.readonly);
  const values = Object.fromEntries(
    Object.entries(valuesOf(view, settings.profile)).filter(([id]) => settable.some((field) => field.id === id)),
  );
  const secretConfig = validateSecretConfig(connectorId, settable, values).normalised as Inputs["secretConfig"];
  // Only the plugin imports: its salt is an input (digest-salt.ts), never an output.
  const inputs = withSaltInput(
    {},
    importedInputs(view, { connectorId, accountId, configurationId }, secretConfig, settings.profile),
  );
  const outs = outputsOf(
    view,
    { connectorId, accountId, configurationId, secretConfig },
    writeKey(settings.clientSecret, inputs, undefined),
    settings.profile,
  );
  return { id: `${accountId}/${connectorId}`, props: outs, inputs, notice: importNotice(inputs) };
}

/**
 * The service has no "unconfigure": the saved configuration stays until the connector goes
 * (removing it drops the configuration). So a warning only when this run's program still
 * declares the connector's AddedConnector (it stays). A destroy, or a run that removes both,
 * says nothing, but refuses while connections use the connector (delete-guard.ts): the
 * connector's removal would be refused, and the stack must not lose its configuration first.
 * `urn`: the resource the warning is about, when the host knows it (the plugin).
 */
async function removeStep(id: string, _props: Props = {}, urn?: string): Promise<void> {
  const { accountId, connectorId } = splitId(id);
  settleRecord(accountId, connectorId);
  if (!declaredConnectors().has(id)) return refuseWhileConnectorInUse(accountId, connectorId);
  runtime().warn(
    `the service cannot unconfigure a connector: the saved configuration of ${id} stays in the sub-account ` +
      `while its AddedConnector stays (remove the AddedConnector to drop it, or save other values to replace them)`,
    urn,
  );
}

// The engine's steps, counted while they run (engine-steps.ts: the Add coalescer's rule); check
// and diff are not steps. An import is a step too (the plugin's Read without properties).
export const create = countedStep(createStep);
export const read = countedStep(readStep);
export const update = countedStep(updateStep);
export const remove = countedStep(removeStep);
export const importExisting = countedStep(importStep);
