// ConnectorConfiguration's diff: what a preview shows and the update writes, from the program's
// secretConfig (diff) or, for the fleet's drift check, from the state's field digests only
// (diffByDigests). Rules: docs/behaviour.md.
import type { DiffResult } from "@pulumi/pulumi/dynamic";
import { isUnknown } from "../schema/checks";
import type { SecretTypesSource } from "../schema/secret-fields";
import { accountIdFor, currentClient } from "../runtime/runtime";
import { currentConfiguration } from "./process";
import { IN_PLACE_KEYS, REPLACE_KEYS } from "./check";
import { digestChanges, hiddenFieldChanges, secretConfigChanges, type DetailedDiff } from "./drift";
import { configurationOutputs, type ConfigurationOutputs } from "./outputs";
import { inputSaltOf, keyLost, stateKey, type StateKey } from "./digest-salt";
import { changedPasswords, changesFromStored } from "./password-changes";
import { configureWrites, heldFields, heldPasswordsRefusal } from "./held-passwords";
import { settleRecord } from "./pending-record";

type Props = Record<string, unknown>;

/**
 * Replace on a new connector or sub-account; update on changed fields (by their digests), on
 * changed names, and on a write made out of band. `detailedDiff` names what the update writes
 * (`secretConfig.<field>`): the plugin hands it to the engine; the dynamic host has none, its
 * refresh shows the same names in the `fieldDigests` and `drift` outputs.
 */
export async function diff(
  _id: string,
  olds: Props,
  news: Props,
): Promise<DiffResult & { detailedDiff: DetailedDiff }> {
  settleRecord(olds.accountId, olds.connectorId);
  const passwords = changedPasswords(olds.accountId, olds.connectorId, news.secretConfig);
  const result = await diffAgainst(olds, news, {
    fields: news.secretConfig,
    changes: (old) => {
      const key = currentStateKey(old, news);
      const lost =
        key && keyLost(old, key) ? changesFromStored(olds.accountId, olds.connectorId, news.secretConfig) : undefined;
      return secretConfigChanges(old, news.secretConfig, key?.key, passwords, lost);
    },
  });
  // What check cannot see: a write to restore what was changed out of band (the program is the same).
  const held = heldFields(news.heldByService);
  if (result.changes && (result.replaces ?? []).length === 0 && held.length > 0 && writesWhole()) {
    const where = `connector ${String(olds.connectorId)} of sub-account ${String(olds.accountId)}`;
    throw new Error(heldPasswordsRefusal(where, held, "writing"));
  }
  return result;
}

/** The service profile's part of the secret-field rule; unknown settings: the built-in profile's. */
function secretTypes(): SecretTypesSource {
  try {
    return currentClient().settings.profile;
  } catch {
    return undefined;
  }
}

/** Whether Configure replaces the whole configuration (unknown settings: assumed, the safe side). */
function writesWhole(): boolean {
  try {
    return configureWrites(currentClient().settings) === "whole";
  } catch {
    return true;
  }
}

/**
 * diff, with the desired secretConfig known by its digests only (`fieldDigests` of the state
 * as the last apply wrote them, under the current key): the fleet's drift check, which reads
 * the state without decrypting its secretConfig. The same rules as diff in every other way.
 */
export async function diffByDigests(
  _id: string,
  olds: Props,
  news: Props,
  desiredDigests: Record<string, string>,
): Promise<DiffResult & { detailedDiff: DetailedDiff }> {
  return diffAgainst(olds, news, {
    fields: desiredDigests,
    changes: (old) => digestChanges(old, desiredDigests, currentStateKey(old, news)?.key),
  });
}

/** What diff compares the state with: the desired secretConfig's fields, and how they differ from the state's. */
interface Desired {
  /** Field id → a non-empty value (or digest) for each desired field. */
  fields: unknown;
  changes: (old: ConfigurationOutputs) => DetailedDiff;
}

async function diffAgainst(
  olds: Props,
  news: Props,
  desired: Desired,
): Promise<DiffResult & { detailedDiff: DetailedDiff }> {
  const replaces: string[] = [];
  const detailedDiff: DetailedDiff = {};
  const newAccount = news.accountId ?? safeAccount();
  for (const key of REPLACE_KEYS) {
    const value = key === "accountId" ? newAccount : news[key];
    if (isUnknown(value) || value !== olds[key]) {
      replaces.push(key);
      detailedDiff[key] = { kind: "update", inputDiff: true };
    }
  }
  const parsed = configurationOutputs.safeParse(olds);
  if (!parsed.success)
    return {
      changes: true,
      replaces,
      detailedDiff: { ...detailedDiff, secretConfig: { kind: "update", inputDiff: true } },
    };
  const old = parsed.data;
  for (const key of IN_PLACE_KEYS) {
    const value = news[key];
    if (value !== undefined && value !== null && value !== (old as Props)[key])
      detailedDiff[key] = { kind: "update", inputDiff: true };
  }
  Object.assign(detailedDiff, desired.changes(old));
  const fieldsNamed = Object.keys(detailedDiff).some((path) => path.startsWith("secretConfig"));
  // Written out of band since our last write, and no field tells how: a Password, or the same values.
  const descriptors = () => currentConfiguration(old.accountId, old.connectorId);
  if (old.lastUpdated !== old.appliedLastUpdated && !fieldsNamed) {
    const hidden = await hiddenFieldChanges(desired.fields, descriptors, secretTypes());
    // With Passwords the service holds, a write that changed no field of this stack's is theirs
    // (a customer's new key): it shows through lastUpdated and `drift`, and there is nothing to restore.
    const theirs = heldFields(news.heldByService).length > 0 && Object.hasOwn(hidden, "lastUpdated");
    if (!theirs) Object.assign(detailedDiff, hidden);
  }
  const changes = replaces.length > 0 || Object.keys(detailedDiff).length > 0;
  return { changes, replaces, deleteBeforeReplace: false, detailedDiff };
}

/**
 * The digest key of a state (`news`: the inputs, which hold the plugin's salt) under the current
 * settings; undefined when they cannot be resolved (the operation reports that).
 */
function currentStateKey(old: ConfigurationOutputs, news: Props): StateKey | undefined {
  try {
    const { clientSecret, digestKey } = currentClient().settings;
    return stateKey(clientSecret, old, inputSaltOf(news), digestKey);
  } catch {
    return undefined;
  }
}

function safeAccount(): string | undefined {
  try {
    return accountIdFor(undefined);
  } catch {
    return undefined;
  }
}
