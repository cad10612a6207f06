// ConnectorConfiguration's provider implementation, loaded by the dynamic-provider process
// at call time (see connector-configuration.ts). Rules: issue 3, ConnectorConfiguration.
import { isDeepStrictEqual } from "node:util";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { isId } from "../../contract/ids";
import { inputSchema, secretAwareCheck, shown, typeFailures } from "../definitions/checks";
import { CONNECTOR_CONFIGURATION } from "../definitions/connector-configuration";
import type { ValuesOf } from "../definitions/property";
import type { CheckFailure, CheckResult, CreateResult, DiffResult, ReadResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import type { ConnectorConfigurationView } from "../client";
import { accountIdFor, cachedConfiguration, currentClient, runtime } from "./runtime";
import { descriptorsOf, fingerprintOf, normalisesTo, sameValue, validateSecretConfig, valuesOf } from "./configuration-rules";
import { accountIdProblem, splitId } from "./resource-ids";
import { containsUnknown, isUnknown } from "../definitions/checks";
import { failure, statusOf, withRequestId } from "./service-failures";
import { countedStep } from "./engine-steps";

export { configureFromRequest } from "./runtime";

/** The inputs after check() (from the definition). */
export const configurationInputs = inputSchema(CONNECTOR_CONFIGURATION.inputs);
type Inputs = ValuesOf<typeof CONNECTOR_CONFIGURATION.inputs>;

export const configurationOutputs = z.looseObject({
  connectorId: z.string(),
  accountId: z.string(),
  configurationId: z.string(),
  name: z.string().nullish(),
  secretName: z.string().nullish(),
  configured: z.boolean(),
  /** The service's lastUpdated as last read. */
  lastUpdated: z.number(),
  /** The lastUpdated our own last write produced; differs from lastUpdated after an out-of-band write. */
  appliedLastUpdated: z.number(),
  values: z.record(z.string(), z.unknown()),
  fingerprint: z.string(),
  fingerprintSalt: z.string(),
});
export type ConfigurationOutputs = z.infer<typeof configurationOutputs>;

type Props = Record<string, unknown>;

function nullishToUndefined(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Validates ids and secretConfig against the live descriptors; reads only (GET). An input that
 * arrived secret is named by its kind, never quoted (definitions/checks.ts).
 */
export const check = secretAwareCheck(async (olds: Props, news: Props, secrets: ReadonlySet<string>): Promise<CheckResult> => {
  const failures: CheckFailure[] = typeFailures(CONNECTOR_CONFIGURATION.inputs, news, ["configurationId", "name", "secretName"]);
  const inputs: Props = { ...news };
  const { connectorId, configurationId, secretConfig } = news;
  const idOk = typeof connectorId === "string" && isId(connectorId);
  if (!isUnknown(connectorId) && !idOk) {
    failures.push({ property: "connectorId", reason: `connectorId must be a 16-character alphanumeric connector id, got ${shown(connectorId, secrets.has("connectorId"))}` });
  }
  let accountId = news.accountId;
  if (accountId === undefined || accountId === null) {
    try {
      accountId = inputs.accountId = accountIdFor(undefined);
    } catch (error) {
      failures.push({ property: "accountId", reason: error instanceof Error ? error.message : String(error) });
    }
  } else {
    const problem = accountIdProblem(accountId, secrets.has("accountId"));
    if (problem) failures.push({ property: "accountId", reason: problem });
  }
  const configOk = secretConfig !== null && typeof secretConfig === "object" && !Array.isArray(secretConfig);
  if (!isUnknown(secretConfig) && !configOk) {
    failures.push({ property: "secretConfig", reason: `secretConfig must be an object of field id to value, got ${Array.isArray(secretConfig) ? "a list" : typeof secretConfig}` });
  }
  if (failures.length > 0 || !idOk || typeof accountId !== "string" || isUnknown(accountId)) return { inputs, failures };
  if (sameAsApplied(olds, inputs)) {
    // What the state holds passed this check and the service's own validation when it was
    // applied; nothing will be sent for it, so a no-change preview costs no call.
    inputs.configurationId = olds.configurationId;
    inputs.secretConfig = olds.secretConfig; // its normalised form, which the state holds
    return { inputs, failures };
  }

  let view: ConnectorConfigurationView;
  try {
    const { client, settings } = currentClient();
    view = await cachedConfiguration(client, settings.baseUrl, accountId, connectorId as string);
  } catch (error) {
    const status = statusOf(error);
    const property = status === 403 || status === 400 ? "accountId" : "connectorId";
    const connector = secrets.has("connectorId") ? shown(connectorId, true) : connectorId;
    const what = status === 404 ? `there is no connector ${connector} in the catalogue` : `could not read the fields of connector ${connector}`;
    const message = error instanceof Error ? error.message : String(error);
    failures.push({ property, reason: withRequestId(`${what} (sub-account ${accountId}): ${message}`, error) });
    return { inputs, failures };
  }
  const first = view.secretConfig[0]?.configurationId;
  if (configurationId === undefined || configurationId === null) {
    if (first !== undefined) inputs.configurationId = first;
  } else if (!isUnknown(configurationId) && first !== undefined && configurationId !== first) {
    failures.push({
      property: "configurationId",
      reason: `configurationId must be the first secret configuration's id (${first}); only that one can be saved, got ${shown(configurationId, secrets.has("configurationId"))}`,
    });
  }
  if (configOk) {
    // The inputs check returns are what is stored, sent and compared: the service's forms
    // ("100.0" → 100, "a, b" → ["a", "b"]), or every diff would see "100.0" ≠ "100".
    const validated = validateSecretConfig(connectorId as string, descriptorsOf(view), secretConfig as Props);
    failures.push(...validated.failures);
    inputs.secretConfig = validated.normalised;
  }
  return { inputs, failures };
});

/** Inputs equal to the last checked ones (olds), a defaulted configurationId and normalisation aside. */
function sameAsApplied(olds: Props, inputs: Props): boolean {
  if (typeof olds.configurationId !== "string") return false;
  const configurationId = inputs.configurationId ?? olds.configurationId;
  return (
    configurationId === olds.configurationId &&
    ["connectorId", "accountId", "name", "secretName"].every((key) => isDeepStrictEqual(olds[key], inputs[key])) &&
    normalisesTo(olds.secretConfig, inputs.secretConfig)
  );
}

const REPLACE_KEYS = ["connectorId", "accountId"] as const;

/** Replace on a new connector or sub-account; update on changed secrets, values or drift. */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces: string[] = [];
  const newAccount = news.accountId ?? safeAccount();
  for (const key of REPLACE_KEYS) {
    const value = key === "accountId" ? newAccount : news[key];
    if (isUnknown(value) || value !== olds[key]) replaces.push(key);
  }
  const parsed = configurationOutputs.safeParse(olds);
  if (!parsed.success) return { changes: true, replaces };
  const old = parsed.data;
  return { changes: replaces.length > 0 || needsUpdate(old, news), replaces, deleteBeforeReplace: false };
}

function safeAccount(): string | undefined {
  try {
    return accountIdFor(undefined);
  } catch {
    return undefined;
  }
}

function needsUpdate(old: ConfigurationOutputs, news: Props): boolean {
  if (old.lastUpdated !== old.appliedLastUpdated) return true; // written out of band since our last write
  const desired = news.secretConfig;
  if (containsUnknown(desired) || desired === null || typeof desired !== "object") return true;
  if (fingerprintOf(desired, old.fingerprintSalt, old.accountId, old.connectorId) !== old.fingerprint) return true;
  const wanted = desired as Props;
  for (const [key, live] of Object.entries(old.values)) {
    if (key in wanted && !sameValue(wanted[key], live)) return true;
  }
  for (const key of ["configurationId", "name", "secretName"] as const) {
    const value = news[key];
    if (value !== undefined && value !== null && value !== old[key]) return true;
  }
  return false;
}

function outputsOf(view: ConnectorConfigurationView, inputs: Inputs & { accountId: string }, salt: string): ConfigurationOutputs {
  const first = view.secretConfig[0];
  return {
    connectorId: inputs.connectorId,
    accountId: inputs.accountId,
    configurationId: first?.configurationId ?? inputs.configurationId ?? "",
    name: inputs.name ?? first?.name ?? null,
    secretName: view.secretName ?? first?.secretName ?? inputs.secretName ?? null,
    configured: view.configured,
    lastUpdated: view.lastUpdated,
    appliedLastUpdated: view.lastUpdated,
    values: valuesOf(view),
    fingerprint: fingerprintOf(inputs.secretConfig, salt, inputs.accountId, inputs.connectorId),
    fingerprintSalt: salt,
  };
}

async function apply(props: Props, salt: string): Promise<ConfigurationOutputs> {
  const parsed = configurationInputs.parse(nullishToUndefined(props));
  const inputs = { ...parsed, accountId: accountIdFor(parsed.accountId) };
  const { client, settings } = currentClient();
  const where = `connector ${inputs.connectorId} of sub-account ${inputs.accountId}`;
  const configurationId =
    inputs.configurationId ??
    (await cachedConfiguration(client, settings.baseUrl, inputs.accountId, inputs.connectorId)).secretConfig[0]?.configurationId;
  if (!configurationId) throw new Error(`${where} has no secret configuration to save`);
  // Configure changes the connector's `configured` in List Added Connectors: drop the listing,
  // and what a refresh fetched ahead of this configuration.
  const cache = runtime().added;
  cache.invalidate(client, inputs.accountId);
  runtime().readAhead.forget(client, inputs.accountId, inputs.connectorId);
  try {
    const body = { configurationId, name: inputs.name, secretName: inputs.secretName, secretConfig: inputs.secretConfig };
    const { view, retried } = await client.configureWithOutcome(inputs.accountId, inputs.connectorId, body);
    cache.invalidate(client, inputs.accountId);
    // An attempt whose answer was lost may have landed after the one that answered (same body,
    // later lastUpdated): record what the service holds now, or the next refresh sees drift.
    const applied = retried ? await client.getConfiguration(inputs.accountId, inputs.connectorId).catch(() => view) : view;
    return outputsOf(applied, inputs, salt);
  } catch (error) {
    cache.invalidate(client, inputs.accountId);
    const hint = statusOf(error) === 404 ? " (is it added? create its AddedConnector first and pass `connectorId: added.connectorId`)" : "";
    throw failure(`configuring ${where} failed${hint}${fieldErrors(error)}`, error);
  }
}

// Names only: the service's per-field texts may quote the values, which are secrets.
function fieldErrors(error: unknown): string {
  const list = (error as { fieldErrors?: unknown } | null)?.fieldErrors;
  if (!Array.isArray(list) || list.length === 0) return "";
  const names = list.map((e: { field?: unknown }) => (typeof e.field === "string" && e.field !== "" ? e.field : "(unnamed)"));
  return `: the service refused fields ${[...new Set(names)].join(", ")}; fix their values in secretConfig`;
}

async function createStep(inputs: Props): Promise<CreateResult> {
  const outs = await apply(inputs, randomBytes(16).toString("hex"));
  return { id: `${outs.accountId}/${outs.connectorId}`, outs };
}

async function updateStep(_id: string, olds: Props, news: Props): Promise<UpdateResult> {
  const salt = typeof olds.fingerprintSalt === "string" ? olds.fingerprintSalt : randomBytes(16).toString("hex");
  return { outs: await apply(news, salt) };
}

/**
 * Refreshes lastUpdated, configured and the non-Password values, keeping appliedLastUpdated
 * and the fingerprint. No configuration any more (connector removed) → no id. Returns no
 * `inputs`: the engine then keeps the stored ones, whose secretConfig it holds encrypted and
 * which cannot be rebuilt from outputs that never contain it. Whether the connector is still
 * added and configured comes from the process's listing of the sub-account (shared with the
 * AddedConnector reads of the same refresh): a connector gone costs no Get; lastUpdated and
 * the values exist only in Get Connector Configuration, so a configured one costs one.
 */
async function readStep(id: string, props: Props = {}): Promise<ReadResult> {
  const parsed = configurationOutputs.safeParse(props);
  const { accountId, connectorId } = parsed.success ? parsed.data : splitId(id);
  const { client } = currentClient();
  let view: ConnectorConfigurationView;
  try {
    const listed = await runtime().added.findConfirmed(client, accountId, connectorId);
    if (!listed || !listed.configured) return { id: "", props: {} };
    view = await runtime().readAhead.read(client, accountId, connectorId);
  } catch (error) {
    if (statusOf(error) === 404) return { id: "", props: {} };
    throw failure(`reading the configuration of connector ${connectorId} of sub-account ${accountId} failed`, error);
  }
  if (!view.configured) return { id: "", props: {} };
  const base: Props = parsed.success ? parsed.data : { accountId, connectorId, appliedLastUpdated: -1 };
  return {
    id,
    props: { ...base, configured: view.configured, lastUpdated: view.lastUpdated, values: valuesOf(view), secretName: view.secretName ?? base.secretName ?? null },
  };
}

/**
 * `pulumi import` of a saved configuration: its inputs are what the service returns (the
 * non-Password values, in the form check stores them), never a Password value, which the
 * service does not return. The fingerprint covers exactly those inputs, so a program that
 * adds the Password fields shows one update, which writes them (README, "Import").
 */
async function importStep(id: string): Promise<{ id: string; props: Props; inputs: Props }> {
  const { accountId, connectorId } = splitId(id);
  const { client } = currentClient();
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
  const values = Object.fromEntries(Object.entries(valuesOf(view)).filter(([id]) => settable.some((field) => field.id === id)));
  const secretConfig = validateSecretConfig(connectorId, settable, values).normalised as Inputs["secretConfig"];
  const inputs: Props = { connectorId, accountId, configurationId, secretConfig };
  const outs = outputsOf(view, { connectorId, accountId, configurationId, secretConfig }, randomBytes(16).toString("hex"));
  return { id: `${accountId}/${connectorId}`, props: outs, inputs };
}

/**
 * The service has no "unconfigure": the saved configuration stays until the connector goes
 * (removing it drops the configuration). So a warning only when this run's program still
 * declares the connector's AddedConnector (it stays); a destroy, or a run that removes both,
 * says nothing. `urn`: the resource the warning is about, when the host knows it (the plugin).
 */
async function removeStep(id: string, _props: Props = {}, urn?: string): Promise<void> {
  if (!runtime().declared.has(id)) return;
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
