// The answers of a profile's wire: a payload in the operation's envelope (or bare), a list page
// in its container, and every refusal rewritten once, as it is sent, into the profile's error
// shape (its status key, HTTP 200 when the profile signals errors inside a 2xx, no counts when
// its 409 carries none). The admin API keeps the contract's envelope: the harness reads it.
import type { FastifyReply } from "fastify";
import type { ResolvedOperation, ResolvedProfile } from "../../contract/profile";
import { appPlugin, isAdminUrl } from "../plugins/plugin";
import { setPath } from "./service-profile";

/** The body of an answer: `payload` in the operation's envelope, or bare. */
export function success(op: ResolvedOperation, payload: unknown): unknown {
  if (op.envelope.mode === "absent") return payload;
  const body: Record<string, unknown> = {};
  setPath(body, op.envelope.status[0] ?? "statusCode", 200);
  if (op.envelope.message[0]) setPath(body, op.envelope.message[0], "OK");
  setPath(body, op.envelope.payload, payload);
  return body;
}

/** An answer without a success body: the envelope's status alone, or 204 with no body at all. */
export function noBody(op: ResolvedOperation, reply: FastifyReply): FastifyReply {
  if (op.envelope.mode === "absent") return reply.code(204).send();
  const body = success(op, null) as Record<string, unknown>;
  delete body[op.envelope.payload];
  return reply.code(200).send(body);
}

/** One page of `all` in the operation's container: a bare array, or the items and totals at their paths. */
export function listPage<T>(op: ResolvedOperation, all: readonly T[], offset: number, size: number): unknown {
  const items = all.slice(offset, offset + size);
  const { list, paging } = op;
  if (list.items === "") return items;
  const body: Record<string, unknown> = {};
  setPath(body, list.items, items);
  if (list.total !== null) {
    setPath(body, list.total, all.length);
    if (paging.style === "page") {
      body[paging.page] = Math.floor(offset / size) + (paging.firstPage ?? 1);
      body[paging.pageSize] = size;
    }
  }
  if (list.next !== null && offset + size < all.length) {
    setPath(
      body,
      list.next,
      paging.style === "page" ? Math.floor(offset / size) + 1 + (paging.firstPage ?? 1) : offset + size,
    );
  }
  return body;
}

interface ContractError {
  statusCode?: number;
  statusMessage?: string;
  response?: unknown;
  errors?: unknown;
}

/** The operation a request reached (its route's config), for the shape of its refusal. */
declare module "fastify" {
  interface FastifyContextConfig {
    /** Set on a profile's routes. */
    operation?: ResolvedOperation["operation"];
  }
}

/** Rewrites the contract's error envelope, which every refusal is built as, into the profile's. */
export function wireErrors(profile: ResolvedProfile) {
  return appPlugin("wire-errors", (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      if (reply.statusCode < 400 || isAdminUrl(request) || typeof payload !== "string") return payload;
      let body: ContractError;
      try {
        body = JSON.parse(payload) as ContractError;
      } catch {
        return payload;
      }
      const operation = request.routeOptions.config.operation ?? "getConnector";
      const op = profile.operations[operation];
      const status = body.statusCode ?? reply.statusCode;
      // 429 and 5xx stay HTTP statuses: a caller waits or retries on them before reading any body.
      if (profile.semantics.errorStatusIn === "body" && status < 500 && status !== 429) reply.code(200);
      const out: Record<string, unknown> = {};
      setPath(out, op.envelope.status[0] ?? "statusCode", status);
      if (op.envelope.message[0]) setPath(out, op.envelope.message[0], body.statusMessage ?? "");
      const counts = status === 409 && !profile.semantics.conflictCounts ? null : (body.response ?? null);
      setPath(out, op.envelope.payload || "response", counts);
      if (body.errors !== undefined) out.errors = body.errors;
      return JSON.stringify(out);
    });
  });
}
