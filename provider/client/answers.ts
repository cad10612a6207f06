// Reading an answer the way the service profile says (contract/profile.ts), tolerant wherever
// one reading is unambiguous: an envelope present or absent, an error status inside a 2xx, a
// list as a bare array or an object holding it, with or without a total. Where a shape could
// mean two things, it is refused with the route and the shape seen (types, never values).
import type { z } from "zod";
import type { ResolvedOperation } from "../../contract/profile";
import { describeShape, valueAt } from "../../contract/shape";
import { errorFromResponse, ResponseFormatError, type EmbeddedApiError, type SentRequest } from "./errors";
import { parseBody, type BodyContext } from "./schemas";

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The first status found at the profile's status paths of a body, if any. */
export function statusInBody(op: ResolvedOperation, body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  for (const path of op.envelope.status) {
    const value = valueAt(body, path);
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  return undefined;
}

function messageInBody(op: ResolvedOperation, body: Record<string, unknown>): string | undefined {
  for (const path of op.envelope.message) {
    const value = valueAt(body, path);
    if (typeof value === "string") return value;
  }
  return undefined;
}

/** A 2xx answer's context, with the call's request (required: the error factory needs it). */
export interface BodyErrorContext extends BodyContext {
  sent: SentRequest;
}

/**
 * The error a 2xx body carries in its status (404, 409, 500 inside a 200), as the error of that
 * status; undefined when the body carries none. A status that is neither success nor an error
 * (a 1xx or 3xx) is refused: the client cannot tell what happened.
 */
export function errorInBody(op: ResolvedOperation, body: unknown, ctx: BodyErrorContext): EmbeddedApiError | undefined {
  const status = statusInBody(op, body);
  if (status === undefined || status === 0 || (status >= 200 && status <= 299)) return undefined;
  if (!isRecord(body)) return undefined;
  if (status >= 400 && status <= 599) {
    const payload = valueAt(body, op.envelope.payload);
    // The one error factory reads the contract's error shape: the body's own keys, renamed.
    const normalized = {
      ...body,
      statusCode: status,
      statusMessage: messageInBody(op, body),
      response: payload ?? null,
    };
    return errorFromResponse({
      status,
      body: normalized,
      requestId: ctx.requestId,
      route: ctx.route,
      sent: ctx.sent,
    });
  }
  return new ResponseFormatError({
    ...ctx,
    fieldPath: op.envelope.status.join("|"),
    problem: `the body's status ${status} is neither 0, a 2xx nor an error status (4xx, 5xx)`,
  });
}

function looksEnveloped(op: ResolvedOperation, body: unknown): body is Record<string, unknown> {
  return isRecord(body) && op.envelope.payload in body && statusInBody(op, body) !== undefined;
}

/** The payload of an answer: inside its envelope, or the body itself, as the profile's envelope mode says. */
export function payloadOf(op: ResolvedOperation, body: unknown, ctx: BodyContext): unknown {
  const { mode, payload, status } = op.envelope;
  if (mode === "absent") return body;
  if (looksEnveloped(op, body)) return body[payload];
  if (mode === "auto") return body;
  throw new ResponseFormatError({
    ...ctx,
    fieldPath: payload,
    problem: `expected an envelope {${status[0]}, ${payload}}, got ${describeShape(body)}`,
  });
}

/** The payload read with a view's schema (field paths named from the body's top). */
export function readPayload<T extends z.ZodType>(
  op: ResolvedOperation,
  schema: T,
  body: unknown,
  ctx: BodyContext,
): z.infer<T> {
  const at = looksEnveloped(op, body) && op.envelope.mode !== "absent" ? [op.envelope.payload] : [];
  return parseBody(schema, payloadOf(op, body, ctx), ctx, at);
}

/** What one list answer says: its items, and what it tells about the rest. */
export interface ListAnswer<T> {
  items: T[];
  /** Items in the whole list, when the answer says. */
  total?: number;
  /** The page size the service used, when it says. */
  pageSize?: number;
  /** A next offset, page number or link; null when the answer's `next` field says there is none. */
  next?: number | string | null;
}

/**
 * One page of a list: a bare array, or an object holding the items at the profile's `list.items`
 * (with `total` and `next` where the profile says). Anything else is refused with its shape.
 */
export function readListPage<T>(
  op: ResolvedOperation,
  arraySchema: z.ZodType<T[]>,
  body: unknown,
  ctx: BodyContext,
): ListAnswer<T> {
  const payload = payloadOf(op, body, ctx);
  const base = looksEnveloped(op, body) && op.envelope.mode !== "absent" ? [op.envelope.payload] : [];
  if (Array.isArray(payload)) return { items: parseBody(arraySchema, payload, ctx, base) };
  const itemsPath = op.list.items;
  const items = isRecord(payload) ? valueAt(payload, itemsPath) : undefined;
  if (!Array.isArray(items)) {
    throw new ResponseFormatError({
      ...ctx,
      fieldPath: [...base, itemsPath].filter((p) => p !== "").join("."),
      problem: `expected a list: an array, or an object with an array at "${itemsPath || "(payload)"}"; got ${describeShape(payload)}`,
    });
  }
  const at = [...base, ...(itemsPath === "" ? [] : itemsPath.split("."))];
  const answer: ListAnswer<T> = { items: parseBody(arraySchema, items, ctx, at) };
  const total = op.list.total === null ? undefined : valueAt(payload, op.list.total);
  if (typeof total === "number" && Number.isInteger(total) && total >= 0) answer.total = total;
  const pageSize = op.paging.style === "page" ? valueAt(payload, op.paging.pageSize) : undefined;
  if (typeof pageSize === "number" && Number.isInteger(pageSize) && pageSize >= 1) answer.pageSize = pageSize;
  if (op.list.next !== null) {
    const next = valueAt(payload, op.list.next);
    answer.next = typeof next === "number" || (typeof next === "string" && next !== "") ? next : null;
  }
  return answer;
}
