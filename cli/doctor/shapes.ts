// What doctor may show of an answer: its shape, types and lengths only, never a value; and
// what it can tell from a body: where the envelope's status and payload are, where a list's
// items, total and next page are, and whether the current profile reads it that way.
import type { ResolvedOperation } from "../../contract/profile";

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
const TOKEN_KEYS = new Set([
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
 * With `carriedSecrets` (the answer to a request that sent one), a key outside TOKEN_KEYS is not
 * named either: a service can make any text a key, and this one could quote what was sent.
 */
export function shapeOf(value: unknown, carriedSecrets = false, key = "", depth = 0): string {
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
  const named = carriedSecrets ? entries.filter(([k]) => TOKEN_KEYS.has(k)) : entries;
  const shown = named.slice(0, 6).map(([k, v]) => `${k}: ${shapeOf(v, carriedSecrets, k, depth + 1)}`);
  if (entries.length > shown.length) shown.push(`… ${entries.length - shown.length} more`);
  return `{${shown.join(", ")}}`;
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
}

/** Where a list's items (an array of objects with a connectorId), total and next page are in a payload. */
export function listOf(payload: unknown): ListSeen {
  if (Array.isArray(payload)) return { items: "", count: payload.length };
  const found = findArray(payload, "", 0);
  if (found === undefined) return { count: 0 };
  const parent = found.path.includes(".") ? found.path.slice(0, found.path.lastIndexOf(".")) : "";
  const holder = getPath(payload, parent);
  const join = (k: string) => (parent ? `${parent}.${k}` : k);
  const total = isObject(holder)
    ? ["total", "totalCount", "count"].find((k) => typeof holder[k] === "number")
    : undefined;
  const next = isObject(holder) ? ["next", "nextOffset", "nextPage", "nextLink"].find((k) => k in holder) : undefined;
  return {
    items: found.path,
    count: found.length,
    ...(total ? { total: join(total) } : {}),
    ...(next ? { next: join(next) } : {}),
  };
}

function findArray(value: unknown, path: string, depth: number): { path: string; length: number } | undefined {
  if (!isObject(value) || depth > 2) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const p = path ? `${path}.${k}` : k;
    if (Array.isArray(v) && (v.length === 0 || isObject(v[0]))) return { path: p, length: v.length };
  }
  for (const [k, v] of Object.entries(value)) {
    const deeper = findArray(v, path ? `${path}.${k}` : k, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The items of a list answer as the service sent them (for comparing pages), or undefined. */
export function itemsOf(body: unknown): unknown[] | undefined {
  const payload = payloadOf(body);
  const seen = listOf(payload);
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
