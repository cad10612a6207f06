// What doctor may show of an answer: its shape, types and lengths only, never a value; and
// what it can tell from a body: where the envelope's status and payload are, where a list's
// items, total and next page are, and whether the current profile reads it that way.
import type { ResolvedOperation, ResolvedProfile } from "../../contract/profile";
import { strict } from "../../contract/views";

/** `a.b.c` of a body: "" is the body itself. */
export function getPath(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path === "" ? [] : path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Names whose string values' lengths are not shown either. */
const SECRET_KEY = /secret|token|password|authorization|apikey|credential/i;

/** The keys shown of an answer to a request that carried a secret (the token's): any other key is only counted. */
export const TOKEN_KEYS: ReadonlySet<string> = new Set([
  "accessToken",
  "access_token",
  "expiresIn",
  "expires_in",
  "tokenType",
  "token_type",
  "statusCode",
  "code",
  "status",
  "statusMessage",
  "message",
  "response",
  "data",
  "result",
  "payload",
]);

/**
 * `{statusCode: number, response: array(3) of {connectorId: string(16), …}}`: types and lengths only.
 * With `carriedSecrets` (the answer to a request that sent one: true for TOKEN_KEYS, or the keys
 * that may be named), any other key is only counted: a service can make any text a key, and this
 * one could quote what was sent.
 */
export function shapeOf(
  value: unknown,
  carriedSecrets: boolean | ReadonlySet<string> = false,
  key = "",
  depth = 0,
): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (typeof value === "string") return SECRET_KEY.test(key) ? "string" : `string(${value.length})`;
  if (typeof value !== "object") return typeof value;
  if (depth >= 3) return Array.isArray(value) ? `array(${value.length})` : "object";
  if (Array.isArray(value)) {
    return value.length === 0
      ? "array(0)"
      : `array(${value.length}) of ${shapeOf(value[0], carriedSecrets, key, depth + 1)}`;
  }
  const entries = Object.entries(value);
  const known = carriedSecrets === true ? TOKEN_KEYS : carriedSecrets || undefined;
  const named = known ? entries.filter(([k]) => known.has(k)) : entries;
  const shown = named.slice(0, 6).map(([k, v]) => `${k}: ${shapeOf(v, carriedSecrets, k, depth + 1)}`);
  if (entries.length > shown.length) shown.push(`… ${entries.length - shown.length} more`);
  return `{${shown.join(", ")}}`;
}

/** The key names doctor may show of an answer (report, trace): the contract's views', the envelope's, the lists' and the profile's. */
export function knownKeys(profile: ResolvedProfile): ReadonlySet<string> {
  const keys = new Set([...TOKEN_KEYS, ...TOTAL_KEYS, ...NEXT_KEYS, "items"]);
  for (const view of Object.values(strict)) {
    if ("shape" in view) for (const key of Object.keys(view.shape)) keys.add(key);
  }
  for (const op of Object.values(profile.operations)) {
    const paths = [op.list.items, op.list.total, op.list.next, op.envelope.payload];
    for (const key of [...paths.flatMap((p) => p?.split(".") ?? []), ...op.envelope.status, ...op.envelope.message]) {
      keys.add(key);
    }
  }
  return keys;
}

const STATUS_KEYS = ["statusCode", "code", "status"];
const MESSAGE_KEYS = ["statusMessage", "message"];
const PAYLOAD_KEYS = ["response", "data", "result", "payload"];

export interface EnvelopeSeen {
  present: boolean;
  payload?: string;
  status?: string;
  message?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The envelope a body shows: a numeric status key next to a payload or message key. */
export function envelopeOf(body: unknown): EnvelopeSeen {
  if (!isObject(body)) return { present: false };
  const status = STATUS_KEYS.find((k) => typeof body[k] === "number");
  if (status === undefined) return { present: false };
  const payload = PAYLOAD_KEYS.find((k) => k in body);
  const message = MESSAGE_KEYS.find((k) => typeof body[k] === "string");
  if (payload === undefined && message === undefined) return { present: false };
  return { present: true, status, ...(payload ? { payload } : {}), ...(message ? { message } : {}) };
}

/** The status an answer means: an error status inside a 2xx body counts as that error. */
export function effectiveStatus(httpStatus: number, body: unknown): number {
  const seen = envelopeOf(body);
  const inner = seen.status && isObject(body) ? body[seen.status] : undefined;
  return typeof inner === "number" && inner >= 400 && httpStatus < 300 ? inner : httpStatus;
}

/** The payload of a body: inside the envelope if there is one. */
export function payloadOf(body: unknown): unknown {
  const seen = envelopeOf(body);
  if (!seen.present || !isObject(body)) return body;
  // An envelope with a status and a message but no payload key carries no payload.
  return seen.payload ? body[seen.payload] : undefined;
}

export interface ListSeen {
  /** "" for a bare array; a dotted path; undefined when no array of items was found. */
  items?: string;
  count: number;
  total?: string;
  next?: string;
  /** Where two arrays could each be the list (then `items` is undefined: doctor reads neither). */
  ambiguous?: string[];
}

/** Where the profile says a list is (`list.items`, `list.total`, `list.next`). */
export type ListSpec = ResolvedOperation["list"];

export const TOTAL_KEYS = ["total", "totalCount", "count"];
export const NEXT_KEYS = ["next", "nextOffset", "nextPage", "nextLink"];

function parentOf(path: string): string {
  return path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "";
}

/** `path` names a key that is there (even when its value is null). */
function present(payload: unknown, path: string): boolean {
  const holder = getPath(payload, parentOf(path));
  return isObject(holder) && path.slice(path.lastIndexOf(".") + 1) in holder;
}

/**
 * Where a list's items (an array of objects with a connectorId), total and next page are in a
 * payload. The profile's `list` is read first when its array is there; else the one array that
 * could be the list: a non-empty one before an empty one (a decoy `warnings: []` is not an empty
 * list), and none at all when two could be.
 */
export function listOf(payload: unknown, spec?: ListSpec): ListSeen {
  if (Array.isArray(payload)) return { items: "", count: payload.length };
  const own = spec ? getPath(payload, spec.items) : undefined;
  if (spec && Array.isArray(own)) {
    const total = spec.total !== null && typeof getPath(payload, spec.total) === "number" ? spec.total : undefined;
    const next = spec.next !== null && present(payload, spec.next) ? spec.next : undefined;
    return { ...heldBy(payload, spec.items, own.length), ...(total ? { total } : {}), ...(next ? { next } : {}) };
  }
  const arrays = findArrays(payload, "", 0);
  const full = arrays.filter((a) => a.length > 0);
  const withIds = full.filter((a) => hasConnectorId(getPath(payload, a.path)));
  const pick = full.length === 1 ? full : full.length > 1 ? (withIds.length === 1 ? withIds : full) : arrays;
  if (pick.length === 0) return { count: 0 };
  if (pick.length > 1) return { count: 0, ambiguous: pick.map((a) => a.path) };
  return heldBy(payload, pick[0].path, pick[0].length);
}

/** The list at `path` with the total and next its holder carries under a known name. */
function heldBy(payload: unknown, path: string, count: number): ListSeen {
  const parent = parentOf(path);
  const holder = getPath(payload, parent);
  const join = (k: string) => (parent ? `${parent}.${k}` : k);
  const total = isObject(holder) ? TOTAL_KEYS.find((k) => typeof holder[k] === "number") : undefined;
  const next = isObject(holder) ? NEXT_KEYS.find((k) => k in holder) : undefined;
  return {
    items: path,
    count,
    ...(total ? { total: join(total) } : {}),
    ...(next ? { next: join(next) } : {}),
  };
}

const hasConnectorId = (value: unknown) =>
  Array.isArray(value) && isObject(value[0]) && typeof value[0].connectorId === "string";

/** Every array of objects (or empty) up to two levels down, shallowest first. */
function findArrays(value: unknown, path: string, depth: number): { path: string; length: number }[] {
  if (!isObject(value) || depth > 2) return [];
  const found: { path: string; length: number }[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = path ? `${path}.${k}` : k;
    if (Array.isArray(v) && (v.length === 0 || isObject(v[0]))) found.push({ path: p, length: v.length });
  }
  for (const [k, v] of Object.entries(value)) found.push(...findArrays(v, path ? `${path}.${k}` : k, depth + 1));
  return found;
}

/** The items of a list answer as the service sent them (for comparing pages), or undefined. */
export function itemsOf(body: unknown, spec?: ListSpec): unknown[] | undefined {
  const payload = payloadOf(body);
  const seen = listOf(payload, spec);
  if (seen.items === undefined) return undefined;
  const items = getPath(payload, seen.items);
  return Array.isArray(items) ? items : undefined;
}

/** The profile keys (relative to the operation) under which `op` would not read what was seen. */
export function envelopeMismatches(op: ResolvedOperation, seen: EnvelopeSeen): string[] {
  const keys: string[] = [];
  const mode = op.envelope.mode;
  if (seen.present && mode === "absent") keys.push("envelope.mode");
  if (!seen.present && mode === "present") keys.push("envelope.mode");
  if (seen.present && mode !== "absent") {
    if (seen.payload && seen.payload !== op.envelope.payload) keys.push("envelope.payload");
    if (seen.status && !op.envelope.status.includes(seen.status)) keys.push("envelope.status");
    if (seen.message && !op.envelope.message.includes(seen.message)) keys.push("envelope.message");
  }
  return keys;
}

/** The list keys under which `op` would not read the list seen. */
export function listMismatches(op: ResolvedOperation, seen: ListSeen): string[] {
  const keys: string[] = [];
  if (seen.items === undefined) return ["list.items"];
  // A bare array is read whatever `list.items` says.
  if (seen.items !== "" && seen.items !== op.list.items) keys.push("list.items");
  if (op.list.total !== null && seen.total !== op.list.total) keys.push("list.total");
  if (op.list.next !== null && seen.next !== op.list.next) keys.push("list.next");
  return keys;
}
