// The connector operations at a profile's routes (service/wire/): each route's method and path,
// its parameters under the profile's names (the sub-account in the path or the query), its
// lists in the profile's container and paging, its answers in the profile's envelope, and the
// semantics the profile describes. The rules are the domain's, as on the contract routes
// (routes/connectors.ts).
import type { FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { z } from "zod";
import { requests } from "../../contract/requests";
import { DEFAULT_PAGE_SIZE, MIN_PAGE_SIZE } from "../../contract/ids";
import type { ResolvedOperation, ResolvedProfile } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import type { App, ServiceContext } from "../context";
import { badRequest } from "../domain/errors";
import { listPage, noBody, success } from "../wire/shape";
import { fastifyPathOf, inPath } from "../wire/service-profile";

/** Everything: the domain pages, and the profile's paging slices what it returns. */
const ALL = { page: 1, pageSize: Number.MAX_SAFE_INTEGER };

type Params = Record<string, string | undefined>;

/** The operation's parameters by their client names, wherever the profile puts them. */
function readParams(request: FastifyRequest, op: ResolvedOperation): Params {
  const path = request.params as Record<string, string | undefined>;
  const query = request.query as Record<string, unknown>;
  const out: Params = {};
  for (const [name, wireName] of Object.entries(op.query)) {
    const value = inPath(op, name) ? path[name] : query[wireName];
    if (typeof value === "string") out[name] = value;
  }
  return out;
}

/** A request part checked by the contract's schema; a refusal names the profile's field names. */
function parse<S extends z.ZodType>(schema: S, value: unknown, names: Record<string, string>): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    const [first, ...rest] = issue.path.map(String);
    return { field: [names[first ?? ""] ?? first ?? "request", ...rest].join("."), message: issue.message };
  });
  throw badRequest(`invalid request: ${errors[0]?.field}: ${errors[0]?.message}`, errors);
}

function integerParam(request: FastifyRequest, name: string, min: number, max: number, fallback: number): number {
  const value = (request.query as Record<string, unknown>)[name];
  if (typeof value !== "string") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`invalid request: ${name}: expected an integer from ${min} to ${max}`);
  }
  return n;
}

/**
 * The offset and size a list request asks for in the operation's paging style. Parameters of
 * another style are ignored, as a service that does not know them would: it sends its own
 * default page (the case the client must not take for the end of the list).
 */
function window(request: FastifyRequest, op: ResolvedOperation): { offset: number; size: number } {
  const p = op.paging;
  if (p.style === "none") return { offset: 0, size: Number.MAX_SAFE_INTEGER };
  const fallback = Math.min(DEFAULT_PAGE_SIZE, p.maxSize);
  if (p.style === "page") {
    const first = p.firstPage ?? 1;
    const page = integerParam(request, p.page, first, Number.MAX_SAFE_INTEGER, first);
    const size = integerParam(request, p.pageSize, MIN_PAGE_SIZE, p.maxSize, fallback);
    return { offset: (page - first) * size, size };
  }
  const size = integerParam(request, p.size, MIN_PAGE_SIZE, p.maxSize, fallback);
  return { offset: integerParam(request, p.offset, 0, Number.MAX_SAFE_INTEGER, 0), size };
}

/** A view without `lastUpdated` anywhere (a profile whose service sends none). */
function withoutLastUpdated<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "lastUpdated" ? undefined : v))) as T;
}

export function profileRoutes(app: App, ctx: ServiceContext, profile: ResolvedProfile): void {
  const c = ctx.connectors;
  const ops = profile.operations;
  const semantics = profile.semantics;

  function route(operation: OperationName, handle: (p: Params, req: FastifyRequest, reply: FastifyReply) => unknown) {
    const op = ops[operation];
    app.route({
      method: op.method as HTTPMethods,
      url: fastifyPathOf(op),
      config: {
        auth: "bearer",
        accountScoped: true,
        accountIdAt: inPath(op, "accountId")
          ? { in: "path", name: "accountId" }
          : { in: "query", name: op.query.accountId },
        operation,
      },
      schema: { hide: true },
      handler: async (request, reply) => handle(readParams(request, op), request, reply),
    });
  }

  const account = (p: Params) => p.accountId as string; // the sub-account guard requires it
  // As on the contract routes: any id is looked up, and an unknown one is a 404.
  const connectorOf = (operation: OperationName, p: Params): string => {
    if (p.connectorId !== undefined) return p.connectorId;
    throw badRequest(`invalid request: ${ops[operation].query.connectorId}: is required`);
  };

  function list<T>(operation: OperationName, all: (p: Params) => readonly T[]) {
    route(operation, (p, request) => {
      const { offset, size } = window(request, ops[operation]);
      return success(ops[operation], listPage(ops[operation], all(p), offset, size));
    });
  }

  const filters = (p: Params) => ({ ...parse(requests.ListQuery, p, ops.listConnectors.query), ...ALL });
  list("listConnectors", (p) => c.list(filters(p)).items);
  list("listAddedConnectors", (p) => c.listAdded(account(p), filters(p)).items);
  list("listSupportedConnectors", (p) => {
    const q = parse(requests.SupportedQuery, p, ops.listSupportedConnectors.query);
    return c.listSupported(q.accountId, q.connectorId, ALL.page, ALL.pageSize).items;
  });

  route("getConnector", (p) => success(ops.getConnector, c.getConnector(connectorOf("getConnector", p))));

  const configurationView = <T>(view: T): T => (semantics.lastUpdated === "absent" ? withoutLastUpdated(view) : view);

  route("getConfiguration", (p) => {
    const id = connectorOf("getConfiguration", p);
    if (semantics.configurationBeforeAdd === "notFound") c.assertAdded(account(p), id);
    return success(ops.getConfiguration, configurationView(c.getConfiguration(account(p), id)));
  });

  route("addConnectors", (p, request, reply) => {
    const name = ops.addConnectors.fields.connectorIds;
    const given = (request.body ?? {}) as Record<string, unknown>;
    const body = parse(requests.AddConnectorsBody, { connectorIds: given[name] }, { connectorIds: name });
    const result = c.add(account(p), body.connectorIds);
    if (ops.addConnectors.success === "empty") return noBody(ops.addConnectors, reply);
    return success(ops.addConnectors, semantics.addReportsAlreadyAdded ? result : { added: result.added });
  });

  route("configure", (p, request, reply) => {
    const names = ops.configure.fields;
    const given = (request.body ?? {}) as Record<string, unknown>;
    const keys = ["configurationId", "name", "secretName", "secretConfig"] as const;
    const contractBody = Object.fromEntries(
      keys.filter((k) => given[names[k]] !== undefined).map((k) => [k, given[names[k]]]),
    );
    const body = parse(requests.ConfigureBody, contractBody, names);
    const view = c.configure(account(p), connectorOf("configure", p), body, semantics.configureWrites === "given");
    if (ops.configure.success === "empty") return noBody(ops.configure, reply);
    return success(ops.configure, configurationView(view));
  });

  route("removeConnector", (p, _request, reply) => {
    const result = c.remove(account(p), connectorOf("removeConnector", p));
    return ops.removeConnector.success === "empty"
      ? noBody(ops.removeConnector, reply)
      : success(ops.removeConnector, result);
  });
}
