// ConnectorConfiguration's drift, by field: which fields of secretConfig an update
// would write (diff), and what a refresh found changed out of band (read's `drift` output).
// Values never appear: fields are compared through their keyed digests (field-digests.ts).
// The process's state is not read here: the caller hands in the key and the descriptors.
import type { ConnectorConfigurationView } from "../client";
import { containsUnknown } from "../schema/checks";
import { isRecord } from "../schema/property";
import {
  changedFields,
  hiddenFields,
  matchesDigest,
  PASSWORD_MARK,
  type DigestKey,
  type FieldChange,
} from "./field-digests";
import type { SecretTypesSource } from "../schema/secret-fields";

type Props = Record<string, unknown>;

/** A property path of the detailed diff (`secretConfig.<field>`), how it changes, and whether against the inputs. */
export type DetailedDiff = Record<string, { kind: FieldChange; inputDiff: boolean }>;

/** What diff knows of the state (outputs). */
export interface StoredConfiguration {
  accountId: string;
  connectorId: string;
  lastUpdated: number;
  appliedLastUpdated: number;
  fieldDigests?: Record<string, string>;
  digestKeyId?: string;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * The fields of secretConfig whose desired value differs from the stored digest, as paths
 * `secretConfig.<field>`; a Password (PASSWORD_MARK, no digest) by `changedPasswords`, what
 * check found against the stored inputs. Without digests to compare (a state written before
 * them, or under another client secret), the whole secretConfig: the update re-writes it and
 * records them.
 */
export function secretConfigChanges(
  old: StoredConfiguration,
  desired: unknown,
  key: DigestKey | undefined,
  changedPasswords: ReadonlySet<string> = new Set(),
  keyLost?: DetailedDiff,
): DetailedDiff {
  const whole: DetailedDiff = { secretConfig: { kind: "update", inputDiff: true } };
  if (!isRecord(desired) || containsUnknown(desired)) return whole;
  // Digests under a digestKey changed since (digest-salt.ts keyLost): how the program differs from the stored inputs.
  if (keyLost && old.fieldDigests && key && old.digestKeyId !== key.id) return keyLost;
  if (!old.fieldDigests || !key || old.digestKeyId !== key.id) return whole;
  const stored = old.fieldDigests;
  const changes: DetailedDiff = {};
  for (const [fieldId, value] of Object.entries(desired)) {
    if (isEmpty(value)) continue;
    const digest = stored[fieldId];
    if (digest === undefined) changes[`secretConfig.${fieldId}`] = { kind: "add", inputDiff: true };
    else if (digest === PASSWORD_MARK) {
      if (changedPasswords.has(fieldId)) changes[`secretConfig.${fieldId}`] = { kind: "update", inputDiff: true };
    } else if (!matchesDigest(key, old.accountId, old.connectorId, fieldId, value, digest))
      changes[`secretConfig.${fieldId}`] = { kind: "update", inputDiff: true };
  }
  for (const fieldId of Object.keys(stored)) {
    if (isEmpty(desired[fieldId])) changes[`secretConfig.${fieldId}`] = { kind: "delete", inputDiff: true };
  }
  return changes;
}

/**
 * secretConfigChanges for desired values known by their digests only (under the same key):
 * the fleet's drift check compares the refreshed state with the digests its last apply
 * recorded, so that the encrypted secretConfig of the state is never decrypted. A field only
 * desired is added, one whose digest differs updated, one only stored deleted.
 */
export function digestChanges(
  old: StoredConfiguration,
  desired: Readonly<Record<string, string>>,
  key: DigestKey | undefined,
): DetailedDiff {
  if (!old.fieldDigests || !key || old.digestKeyId !== key.id)
    return { secretConfig: { kind: "update", inputDiff: true } };
  const changes: DetailedDiff = {};
  for (const [fieldId, kind] of changedFields(old.fieldDigests, desired))
    changes[`secretConfig.${fieldId}`] = { kind, inputDiff: true };
  return changes;
}

/**
 * Written out of band (lastUpdated moved) with no field found changed: a field the service
 * does not return (a Password) changed, or the same values were written again. The update
 * writes the desired Passwords back: those are the paths it names (every desired field when
 * the descriptors cannot be read).
 */
export async function hiddenFieldChanges(
  desired: unknown,
  descriptors: () => Promise<ConnectorConfigurationView>,
  profile: SecretTypesSource,
): Promise<DetailedDiff> {
  const fields = isRecord(desired) ? Object.keys(desired).filter((fieldId) => !isEmpty(desired[fieldId])) : [];
  let hidden = fields;
  try {
    const view = await descriptors();
    const passwords = hiddenFields(view, profile);
    hidden = fields.filter((fieldId) => passwords.includes(fieldId));
  } catch {
    // keep every desired field: the update re-writes them all
  }
  if (hidden.length === 0) return { lastUpdated: { kind: "update", inputDiff: false } };
  return Object.fromEntries(
    hidden.map((fieldId) => [`secretConfig.${fieldId}`, { kind: "update" as const, inputDiff: true }]),
  );
}

const DRIFT_PREFIX = "changed out of band at ";

function whenOf(lastUpdated: number): string {
  return new Date(lastUpdated * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/** The fields a drift text of ours names (a later refresh adds to them). */
function namedIn(drift: unknown): string[] {
  if (typeof drift !== "string") return [];
  const named =
    new RegExp(`^${DRIFT_PREFIX}\\S+: (.+)$`).exec(drift) ??
    new RegExp(`^${UNTIMED_PREFIX}(.+?)${BLIND_SPOT}$`).exec(drift);
  return named ? named[1].split(", ") : [];
}

// Without a lastUpdated that moves with every write, drift is seen through the field digests
// alone, and a Password field (never returned) is a blind spot: the message says so.
const UNTIMED_PREFIX = "changed out of band: ";
const BLIND_SPOT = " (the service's lastUpdated does not track writes: a change to a Password field cannot be seen)";

function untimedDrift(before: DriftInput, changed: string[]): string {
  if (changed.length === 0) return "";
  const names = [...new Set([...namedIn(before.drift), ...changed])].sort();
  return `${UNTIMED_PREFIX}${names.join(", ")}${BLIND_SPOT}`;
}

export interface DriftInput {
  /** What the state held before this read. */
  lastUpdated: number;
  appliedLastUpdated: number;
  drift?: string;
  fieldDigests: Record<string, string>;
  /** Whether the stored digests are under the current key (comparable). */
  sameKey: boolean;
  /** The state holds no digests at all: written by a version from before them. */
  beforeDigests?: boolean;
  /** The digests are under an embedded:digestKey the settings no longer reproduce (digest-salt.ts keyLost). */
  digestKeyChanged?: boolean;
}

/**
 * The `drift` output of a read: empty when the configuration is as our last write left it;
 * else when it was changed out of band and, by name, which fields (never a value). A field
 * the service does not return (Password) cannot be compared: then it says so in words.
 */
export function driftText(
  before: DriftInput,
  view: ConnectorConfigurationView,
  live: Record<string, string>,
  profile: SecretTypesSource,
): string {
  const hidden = new Set(hiddenFields(view, profile));
  const changed = before.sameKey
    ? [...changedFields(before.fieldDigests, live).keys()].filter((fieldId) => !hidden.has(fieldId))
    : [];
  // No lastUpdated, or one that stayed put while fields changed: the digests alone tell.
  if (view.lastUpdated === undefined || (view.lastUpdated === before.appliedLastUpdated && changed.length > 0))
    return untimedDrift(before, changed);
  if (view.lastUpdated === before.appliedLastUpdated && changed.length === 0) return "";
  if (
    view.lastUpdated === before.lastUpdated &&
    changed.length === 0 &&
    typeof before.drift === "string" &&
    before.drift !== ""
  )
    return before.drift;
  const names = [...new Set([...namedIn(before.drift), ...changed])].sort();
  const at = `${DRIFT_PREFIX}${whenOf(view.lastUpdated)}`;
  if (names.length > 0) return `${at}: ${names.join(", ")}`;
  if (before.beforeDigests)
    return `${at}; which fields cannot be told: the state is from before field digests (the next up writes it once)`;
  if (before.digestKeyChanged)
    return `${at}; which fields cannot be told: embedded:digestKey (or the client secret) changed since the last write`;
  if (!before.sameKey)
    return `${at}; which fields cannot be told: the provider's client secret changed since the last write`;
  // Short: the engine's display cuts a long string. "; " (not ": ") keeps it apart from a list of names.
  const passwords = [...hidden].filter((fieldId) => Object.hasOwn(before.fieldDigests, fieldId)).sort();
  if (passwords.length === 0) return `${at}; the same values were written again`;
  return `${at}; only a Password can differ (${passwords.join(", ")}), or the same values were written again`;
}

/** Props for the read of a state that may predate the digests: its legacy outputs left out. */
export function withoutLegacyOutputs(props: Props): Props {
  const { values: _values, fingerprint: _fingerprint, fingerprintSalt: _salt, ...rest } = props;
  return rest;
}
