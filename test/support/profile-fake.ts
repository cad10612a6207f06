// A scripted service that lays out its answers the way a service profile says (lists, paging,
// envelope), so the client can be proven against more than one wire without a real service.
import type { ResolvedOperation } from "../../contract/profile";
import type { OutgoingRequest } from "../../provider/client";
import { answer, tokenAnswer, type Script } from "./client-fakes";

export interface ListServing {
  /** Whether the service wraps answers in `{statusCode, statusMessage, response}`. */
  envelope: boolean;
  /** Whether a list answer is a bare array (else `{items, …}`). */
  bare: boolean;
  /** Whether an `{items}` answer carries the total. */
  total: boolean;
  /** The most items the service sends in one answer, whatever was asked. */
  cap: number;
}

function query(request: OutgoingRequest): URLSearchParams {
  return new URLSearchParams(request.target.split("?")[1] ?? "");
}

/** One page of `items` for `request`, in the serving's conventions and the operation's paging. */
export function servePage(
  op: ResolvedOperation,
  items: readonly unknown[],
  serving: ListServing,
  request: OutgoingRequest,
) {
  const q = query(request);
  let start = 0;
  let size = items.length;
  if (op.paging.style === "page") {
    size = Math.min(Number(q.get(op.paging.pageSize)), serving.cap);
    start = (Number(q.get(op.paging.page)) - 1) * size;
  } else if (op.paging.style === "offset") {
    size = Math.min(Number(q.get(op.paging.size)), serving.cap);
    start = Number(q.get(op.paging.offset));
  }
  const slice = items.slice(start, start + size);
  const payload = serving.bare
    ? slice
    : {
        items: slice,
        ...(op.paging.style === "page" ? { page: Number(q.get(op.paging.page)), pageSize: size } : {}),
        ...(serving.total ? { total: items.length } : {}),
      };
  return answer(200, serving.envelope ? { statusCode: 0, statusMessage: "OK", response: payload } : payload);
}

/** A script answering the token route and every request to `op` with `items`. */
export function listScript(op: ResolvedOperation, items: readonly unknown[], serving: ListServing): Script {
  return (request) => (request.target.includes("/oauth/") ? tokenAnswer() : servePage(op, items, serving, request));
}
