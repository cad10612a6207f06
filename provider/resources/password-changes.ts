// Which Password fields of a ConnectorConfiguration the program changed (issue 38, item 2).
// A Password has no digest in the state (field-digests.ts, PASSWORD_MARK), so diff cannot
// compare a desired Password with what was applied. Check can: the engine hands it the stored
// inputs (olds), where it keeps the applied secretConfig encrypted, on both hosts. It notes
// here which Passwords differ, for the Diff the engine sends next for the same resource, in the
// same provider process. A Diff with no note before it (a refresh's, the fleet's) compares the
// stored inputs with themselves: no Password changed.

/** What the last check of a configuration found: which desired Password fields differ from the stored ones. */
const noted = new Map<string, ReadonlySet<string>>();

const keyOf = (accountId: unknown, connectorId: unknown) => `${String(accountId)}/${String(connectorId)}`;

/**
 * Notes the Password fields of `desired` whose value differs from `stored` (the old inputs'
 * secretConfig), or that `stored` lacks. `passwords`: the connector's Password fields.
 */
export function notePasswordChanges(
  accountId: unknown,
  connectorId: unknown,
  passwords: readonly string[],
  stored: unknown,
  desired: unknown,
): void {
  if (!isObject(stored)) return clearPasswordChanges(accountId, connectorId); // a create: nothing stored to differ from
  const after = isObject(desired) ? desired : {};
  const before = stored;
  const changed = passwords.filter((field) => Object.hasOwn(after, field) && !sameValue(before[field], after[field]));
  noted.set(keyOf(accountId, connectorId), new Set(changed));
}

/** Forgets the note of a configuration (its check found nothing to compare: the inputs are the stored ones). */
export function clearPasswordChanges(accountId: unknown, connectorId: unknown): void {
  noted.delete(keyOf(accountId, connectorId));
}

/**
 * The Password fields the last check found changed (none when no check came before), once: the
 * note goes, so that a later Diff with no check before it (a refresh's) finds none.
 */
export function takeChangedPasswords(accountId: unknown, connectorId: unknown): ReadonlySet<string> {
  const key = keyOf(accountId, connectorId);
  const found = noted.get(key) ?? new Set<string>();
  noted.delete(key);
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
