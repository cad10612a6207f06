// Helpers shared by the provider implementations (loaded in the dynamic-provider process).
import { checkAccountId } from "../client";

import { UNKNOWN } from "../definitions/checks";

export { UNKNOWN, containsUnknown } from "../definitions/checks";

export const CONNECTOR_ID_PATTERN = /^[A-Za-z0-9]{16}$/;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}


/** The request id of a service error, if the error carries one. */
export function requestIdOf(error: unknown): string | undefined {
  if (error !== null && typeof error === "object" && "requestId" in error) {
    const id = (error as { requestId?: unknown }).requestId;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

/** The message, plus " (request id X)" when the error carries one the message does not quote yet. */
export function withRequestId(message: string, error: unknown): string {
  const id = requestIdOf(error);
  return id && !message.includes(id) ? `${message} (request id ${id})` : message;
}

/** Wraps a service failure with what we were doing; keeps the request id, never secrets. */
export function failure(context: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(withRequestId(`${context}: ${message}`, error), { cause: error });
}

/** The per-sub-account map of one client (other credentials, other maps), made on first use. */
export function perClient<V>(maps: WeakMap<object, Map<string, V>>, client: object): Map<string, V> {
  let map = maps.get(client);
  if (!map) {
    map = new Map();
    maps.set(client, map);
  }
  return map;
}

/** `<accountId>/<connectorId>` → its parts (the connector id never contains "/"). */
export function splitId(id: string): { accountId: string; connectorId: string } {
  const at = id.lastIndexOf("/");
  return { accountId: id.slice(0, at), connectorId: id.slice(at + 1) };
}

/** HTTP status of a service error (404, 409, …), if any; avoids instanceof across module copies. */
export function statusOf(error: unknown): number | undefined {
  if (error !== null && typeof error === "object" && "status" in error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") return status;
  }
  return undefined;
}

/** A numeric property of an error (ConflictError's connection counts), if present. */
export function countOf(error: unknown, field: "srcConnections" | "destConnections"): number | undefined {
  if (error !== null && typeof error === "object" && field in error) {
    const value = (error as Record<string, unknown>)[field];
    if (typeof value === "number") return value;
  }
  return undefined;
}

/**
 * The check() rule for an explicit `accountId`: the client's own rule, so that whatever
 * check accepts is never refused later at create (unknown values pass during preview).
 */
export function accountIdProblem(value: unknown): string | undefined {
  if (isUnknown(value)) return undefined;
  try {
    checkAccountId(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
