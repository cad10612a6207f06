// Per-field keyed digests of a configuration: what the state and every drift
// display show instead of values. Each digest is an HMAC under a key derived from the client
// secret (docs/DESIGN.md, "Field digests").
//
// The key of a resource's digests is derived from the client secret AND a
// random salt of the resource (`digestSalt`, 128 bits, drawn at its create or import), kept in
// the state as a secret output. So no dictionary serves against two states, and two stacks (or
// two resources) managing one connector show different digests.
// The salt is NOT secret from everyone: every output reaches the program, and
// the Node.js SDK prints its RegisterResource response under `pulumi up --debug`, secret outputs
// in plaintext. A Password therefore has no digest at all (PASSWORD_MARK): the service never
// returns one, so a digest of it detected nothing, and it was the one value the holder of the
// client secret could not read from the service. Each non-Password value is returned by the
// service to that same holder; docs/DESIGN.md says what its digest still gives away and why.
// The salt stays for the resource's life, so that an update shows which field moved (the
// purpose of the digests).
// A state written before salts (no `digestSalt`) keeps its digests under the unsalted key until
// its next write, so that a refresh or an up shows no false drift; that write re-keys it. A
// state written before Passwords lost their digests keeps them until its next write, which marks them.
// On the dynamic host the setting `embedded:digestKey` (a stack secret, never an output) is mixed
// into the salted key: then the printed salt and the client secret no longer confirm a guess
// (digest-salt.ts says which recipe a state is under).
import { createHmac, randomBytes, scrypt, scryptSync } from "node:crypto";
import type { ConnectorConfigurationView } from "../client";
import { isSecretField, secretFieldIds, type SecretTypesSource } from "../schema/secret-fields";
import { descriptorsOf, type FieldDescriptor } from "./rules";

/** The key of a resource's digests. */
export interface DigestKey {
  readonly key: Buffer;
  /** A short id of the key (not of the secret): another id means another client secret (or salt). */
  readonly id: string;
  /** The salt it was derived with; undefined for the unsalted key of a state written before salts. */
  readonly salt?: string;
}

const KEY_LABEL = "pulumi-embedded-connectors/field-digest-key/v1";
const SALTED_LABEL = "pulumi-embedded-connectors/field-digest-key/v2-salted";
const DIGEST_KEY_LABEL = "pulumi-embedded-connectors/field-digest-key/v3-digest-key";
const KEY_ID_LABEL = "pulumi-embedded-connectors/field-digest-key-id/v1";
/** Hex characters kept of each HMAC: 64 bits, enough to tell values apart, short in a diff. */
const DIGEST_HEX = 16;

// scrypt under the client secret (N = 2^15, about 100 ms and 32 MiB, once per process and
// secret), then one HMAC per salt: a leaked salt (a state exported with --show-secrets) still
// leaves each guess of the client secret costing a scrypt.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const derived = new Map<string, DigestKey>();

function unsaltedKey(clientSecret: string): DigestKey {
  let found = derived.get(clientSecret);
  if (!found) {
    const key = scryptSync(clientSecret, KEY_LABEL, 32, SCRYPT);
    found = { key, id: keyId(key) };
    derived.set(clientSecret, found);
  }
  return found;
}

function keyId(key: Buffer): string {
  return createHmac("sha256", key).update(KEY_ID_LABEL).digest("hex").slice(0, 12);
}

/**
 * The key of the digests under `salt` (a resource's `digestSalt`), and `digestKey` (the setting
 * embedded:digestKey) when given; without a salt, the unsalted key of a state written before
 * salts (read and compared only, never written anew).
 */
export function digestKeyOf(clientSecret: string, salt?: string, digestKey?: string): DigestKey {
  const base = unsaltedKey(clientSecret);
  if (salt === undefined) return base;
  // JSON: the salt and the key material cannot be shifted into each other.
  const message =
    digestKey === undefined ? `${SALTED_LABEL}\n${salt}` : JSON.stringify([DIGEST_KEY_LABEL, digestKey, salt]);
  const key = createHmac("sha256", base.key).update(message).digest();
  return { key, id: keyId(key), salt };
}

/** A fresh salt for a write: 128 random bits, hex. */
export function newDigestSalt(): string {
  return randomBytes(16).toString("hex");
}

const scryptAsync = (secret: string, salt: string, length: number, options: typeof SCRYPT) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/**
 * The unsalted key (digestKeyOf without a salt), derived off the event loop (the libuv pool), so that several client secrets are
 * derived at once: the fleet's drift check, one per customer. Later digestKeyOf calls get it.
 */
export async function deriveDigestKey(clientSecret: string): Promise<DigestKey> {
  const known = derived.get(clientSecret);
  if (known) return known;
  const key = await scryptAsync(clientSecret, KEY_LABEL, 32, SCRYPT);
  const found = derived.get(clientSecret) ?? { key, id: keyId(key) };
  derived.set(clientSecret, found);
  return found;
}

/** How the canonical form reads a value: by the field's type when known, else by the value's shape. */
export type ValueRule = "number" | "list" | "string";

function ruleOf(type: string | undefined, value: unknown): ValueRule {
  if (type === "Number") return "number";
  if (type === "Multi-Select") return "list";
  if (type !== undefined) return "string";
  // A checked input is in the service's form: only a Number is a number, only a Multi-Select a list.
  return typeof value === "number" ? "number" : Array.isArray(value) ? "list" : "string";
}

function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((item) => String(item).trim());
  const text = String(value);
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map((item) => String(item).trim());
    } catch {
      // not JSON: comma-separated
    }
  }
  return text.split(",").map((item) => item.trim());
}

/**
 * One string per stored value, so that the forms the service treats alike digest alike:
 * 100, "100" and "100.0" for a Number; ["a", "b"], "a,b" and "a, b" for a Multi-Select (in
 * order: the service keeps it). undefined for what the service treats as missing ("", []).
 */
export function canonicalValue(value: unknown, rule: ValueRule): string | undefined {
  if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0))
    return undefined;
  if (rule === "number") {
    const n = typeof value === "number" ? value : Number(value);
    return Number.isFinite(n) ? `number:${String(n)}` : `string:${String(value)}`;
  }
  if (rule === "list") return `list:${JSON.stringify(listOf(value))}`;
  return `string:${typeof value === "string" ? value : JSON.stringify(value)}`;
}

/** HMAC-SHA256 under the key of (sub-account, connector, field, canonical value), truncated. */
export function fieldDigest(
  key: DigestKey,
  accountId: string,
  connectorId: string,
  fieldId: string,
  canonical: string,
): string {
  const message = JSON.stringify([accountId, connectorId, fieldId, canonical]);
  return createHmac("sha256", key.key).update(message).digest("hex").slice(0, DIGEST_HEX);
}

/**
 * What `fieldDigests` holds for a Password field: a mark, never a digest. The
 * service never returns a Password, so its digest could detect nothing out of band, and it was
 * the one offline oracle of the state: whoever printed the salt (`pulumi up --debug`) and held
 * the client secret could confirm a guessed Password. The mark keeps the field's name (a drift
 * text names it; removing it from the program is a change); a changed Password in the program
 * is told by check, which compares it with the stored inputs (password-changes.ts).
 */
export const PASSWORD_MARK = "(password: not digested)";

/**
 * The digest of every (non-empty) field of a checked secretConfig; a Password field (named in
 * `passwords`, from the connector's descriptors) gets PASSWORD_MARK instead.
 */
export function digestsOfInputs(
  key: DigestKey,
  accountId: string,
  connectorId: string,
  secretConfig: Record<string, unknown>,
  passwords: ReadonlySet<string>,
): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const [fieldId, value] of Object.entries(secretConfig)) {
    const canonical = canonicalValue(value, ruleOf(undefined, value));
    if (canonical === undefined) continue;
    digests[fieldId] = passwords.has(fieldId)
      ? PASSWORD_MARK
      : fieldDigest(key, accountId, connectorId, fieldId, canonical);
  }
  return digests;
}

/**
 * Whether a desired value has the stored digest. A string is tried under each rule: inputs
 * stored before check normalised them still hold "100.0" or "a, b" for a Number or a
 * Multi-Select, whose live digests follow the field's rule. The rule is part of the canonical
 * form, so a Text "100.0" still differs from a Text "100".
 */
export function matchesDigest(
  key: DigestKey,
  accountId: string,
  connectorId: string,
  fieldId: string,
  value: unknown,
  stored: string,
): boolean {
  const rules: ValueRule[] = typeof value === "string" ? ["string", "number", "list"] : [ruleOf(undefined, value)];
  return rules.some((rule) => {
    const canonical = canonicalValue(value, rule);
    return canonical !== undefined && fieldDigest(key, accountId, connectorId, fieldId, canonical) === stored;
  });
}

/** The fields whose value the service never shows (secret fields: schema/secret-fields.ts), by the view's descriptors. */
export function hiddenFields(view: ConnectorConfigurationView, profile: SecretTypesSource): string[] {
  return secretFieldIds(descriptorsOf(view), profile);
}

function settable(field: FieldDescriptor, profile: SecretTypesSource): boolean {
  return !isSecretField(field, profile) && !field.readonly;
}

/**
 * The digests as the service holds the configuration now: each settable field it returns,
 * from its live value; the stored entry of each field it never returns (a Password: its mark,
 * or the digest an older state holds), which only a write of ours can know.
 * A field it no longer returns has no digest.
 */
export function liveDigests(
  key: DigestKey,
  accountId: string,
  connectorId: string,
  view: ConnectorConfigurationView,
  stored: Readonly<Record<string, string>>,
  profile: SecretTypesSource,
): Record<string, string> {
  const digests: Record<string, string> = {};
  const hidden = new Set(hiddenFields(view, profile));
  for (const [fieldId, digest] of Object.entries(stored)) if (hidden.has(fieldId)) digests[fieldId] = digest;
  for (const field of descriptorsOf(view).filter((f) => settable(f, profile))) {
    const canonical = canonicalValue(field.value, ruleOf(field.type, field.value));
    if (canonical !== undefined) digests[field.id] = fieldDigest(key, accountId, connectorId, field.id, canonical);
  }
  return digests;
}

export type FieldChange = "add" | "delete" | "update";

/** Field id → how `to` differs from `from` (a field only in `to` is added, only in `from` deleted). */
export function changedFields(
  from: Readonly<Record<string, string>>,
  to: Readonly<Record<string, string>>,
): Map<string, FieldChange> {
  const changes = new Map<string, FieldChange>();
  for (const [fieldId, digest] of Object.entries(to)) {
    if (!Object.hasOwn(from, fieldId)) changes.set(fieldId, "add");
    else if (from[fieldId] !== digest) changes.set(fieldId, "update");
  }
  for (const fieldId of Object.keys(from)) if (!Object.hasOwn(to, fieldId)) changes.set(fieldId, "delete");
  return new Map([...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
