// Which Password fields of a ConnectorConfiguration the program changed (issue 38, item 2).
// A Password has no digest in the state (field-digests.ts, PASSWORD_MARK), so diff cannot
// compare a desired Password with what was applied. Check can: the engine hands it the stored
// inputs (olds), where it keeps the applied secretConfig encrypted, on both hosts. It notes here,
// in this process's memory only, a hash of each stored Password, for the Diff the engine sends
// next for the same resource in the same provider process; the update that writes new ones
// notes those. A Diff with no note (a refresh's, the fleet's) compares the stored inputs with
// themselves: no Password changed.
import { createHash } from "node:crypto";

/** Per configuration: field id → hash of its stored Password ("" when none is stored). */
const noted = new Map<string, ReadonlyMap<string, string>>();

const keyOf = (accountId: unknown, connectorId: unknown) => `${String(accountId)}/${String(connectorId)}`;

function hashOf(value: unknown): string {
  if (value === undefined || value === null || value === "") return "";
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
    noted.delete(key);
    return;
  }
  noted.set(key, new Map(passwords.map((field) => [field, hashOf(stored[field])])));
}

/** An update wrote `written` (a secretConfig): its Passwords are the stored ones now. */
export function notePasswordsWritten(accountId: unknown, connectorId: unknown, written: unknown): void {
  const key = keyOf(accountId, connectorId);
  const stored = noted.get(key);
  if (stored && isObject(written)) noted.set(key, new Map([...stored.keys()].map((f) => [f, hashOf(written[f])])));
}

/** The Password fields of `desired` that differ from the noted stored ones (none without a note). */
export function changedPasswords(accountId: unknown, connectorId: unknown, desired: unknown): ReadonlySet<string> {
  const stored = noted.get(keyOf(accountId, connectorId));
  if (!stored || !isObject(desired)) return new Set();
  return new Set([...stored].filter(([field, hash]) => hashOf(desired[field]) !== hash).map(([field]) => field));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
