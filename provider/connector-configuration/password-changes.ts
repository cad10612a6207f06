// Which Password fields of a ConnectorConfiguration the program changed.
// A Password has no digest in the state (field-digests.ts, PASSWORD_MARK), so diff cannot
// compare a desired Password with what was applied. Check can: the engine hands it the stored
// inputs (olds), where it keeps the applied secretConfig encrypted, on both hosts. It notes here,
// in this process's memory only, a hash of each stored Password, for the Diff the engine sends
// next for the same resource in the same provider process; the update that writes new ones
// notes those. A Diff with no note (a refresh's, the fleet's) compares the stored inputs with
// themselves: no Password changed.
// The same note serves a state whose digests cannot be compared because embedded:digestKey
// changed since its last write (digest-salt.ts keyLost): check notes every stored field, and diff
// names the fields the program changed against them (changesFromStored), no other.
import { createHash } from "node:crypto";
import { processLocal } from "../runtime/process-local";
import type { DetailedDiff } from "./drift";

type Notes = Map<string, ReadonlyMap<string, string>>;
/** Per configuration: field id → hash of its stored Password ("" when none is stored). */
const notedPasswords = processLocal(
  "noted-passwords",
  (): Notes => new Map(),
  (notes) => notes.clear(),
);
/** Per configuration: field id → hash of each stored field's value (every field, a Password too). */
const notedStoredFields = processLocal(
  "noted-stored-fields",
  (): Notes => new Map(),
  (notes) => notes.clear(),
);

const keyOf = (accountId: unknown, connectorId: unknown) => `${String(accountId)}/${String(connectorId)}`;

function hashOf(value: unknown): string {
  if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) return "";
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

/**
 * Notes the stored value of each Password field (`passwords`: the connector's) of `stored`
 * (the old inputs' secretConfig, or what an update wrote). Without one (a create), nothing.
 */
export function notePasswords(
  accountId: unknown,
  connectorId: unknown,
  passwords: readonly string[],
  stored: unknown,
): void {
  const key = keyOf(accountId, connectorId);
  if (!isObject(stored)) {
    notedPasswords().delete(key);
    return;
  }
  notedPasswords().set(key, new Map(passwords.map((field) => [field, hashOf(stored[field])])));
}

/** Notes every field of `stored` (the old inputs' secretConfig): what changesFromStored compares with. */
export function noteStoredFields(accountId: unknown, connectorId: unknown, stored: unknown): void {
  const key = keyOf(accountId, connectorId);
  if (isObject(stored)) notedStoredFields().set(key, hashesOf(stored));
  else notedStoredFields().delete(key);
}

function hashesOf(secretConfig: Record<string, unknown>): ReadonlyMap<string, string> {
  return new Map(Object.entries(secretConfig).map(([field, value]) => [field, hashOf(value)]));
}

/** An update wrote `written` (a secretConfig): its Passwords are the stored ones now. */
export function notePasswordsWritten(accountId: unknown, connectorId: unknown, written: unknown): void {
  const key = keyOf(accountId, connectorId);
  const stored = notedPasswords().get(key);
  if (stored && isObject(written))
    notedPasswords().set(key, new Map([...stored.keys()].map((f) => [f, hashOf(written[f])])));
  if (notedStoredFields().has(key) && isObject(written)) notedStoredFields().set(key, hashesOf(written));
}

/**
 * The fields of `desired` that differ from the noted stored inputs, as diff paths (added,
 * updated, deleted). Without a note (a refresh's Diff, whose desired values are the stored
 * inputs themselves): none.
 */
export function changesFromStored(accountId: unknown, connectorId: unknown, desired: unknown): DetailedDiff {
  const stored = notedStoredFields().get(keyOf(accountId, connectorId));
  if (!stored || !isObject(desired)) return {};
  const changes: DetailedDiff = {};
  const wanted = hashesOf(desired);
  for (const field of new Set([...stored.keys(), ...wanted.keys()])) {
    const before = stored.get(field) ?? "";
    const after = wanted.get(field) ?? "";
    if (before === after) continue;
    const kind = before === "" ? "add" : after === "" ? "delete" : "update";
    changes[`secretConfig.${field}`] = { kind, inputDiff: true };
  }
  return changes;
}

/** The Password fields of `desired` that differ from the noted stored ones (none without a note). */
export function changedPasswords(accountId: unknown, connectorId: unknown, desired: unknown): ReadonlySet<string> {
  const stored = notedPasswords().get(keyOf(accountId, connectorId));
  if (!stored || !isObject(desired)) return new Set();
  return new Set([...stored].filter(([field, hash]) => hashOf(desired[field]) !== hash).map(([field]) => field));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
