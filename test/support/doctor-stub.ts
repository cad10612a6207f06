// A small stand-in of the contract's service on loopback, for the doctor tests the local service
// cannot stage: a redirect, an Add whose list lies, a token that is not a header value, pages
// counted from 0. It speaks the built-in profile's wire (envelope, `items`/`total`, `page`/
// `pageSize`) over a catalogue of ids `c0…`, logs every request, and lets a test answer any
// request itself first (`intercept`).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { doctor, type DoctorFlags } from "../../provider/doctor/command";

export interface Target {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accountId: string;
}

/** doctor's command with these settings (no stack config); its exit code and everything it printed. */
export async function runDoctor(
  t: Target,
  flags: Partial<DoctorFlags> = {},
): Promise<{ code: number; text: string; progress: string }> {
  let text = "";
  let progress = "";
  const code = await doctor(
    { ...t, stack: false, pulumi: "pulumi", ...flags },
    (chunk) => (text += chunk),
    (line) => (progress += line),
  );
  return { code, text, progress };
}

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface StubAnswer {
  /** 0: no answer at all. */
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface StubOptions {
  /** Catalogue size (ids c0, c1, …). */
  catalogue?: number;
  /** Ids added before the test. */
  added?: string[];
  /** Ids the added list never shows (Add still knows them). */
  hidden?: string[];
  /** The number of the first page (1, the contract's). */
  firstPage?: 0 | 1;
  /** The page size when none is asked. */
  defaultPageSize?: number;
  accessToken?: string;
  /** Lists (by path) paged by `size`/`offset` instead. */
  offsetPaged?: string[];
  intercept?: (request: StubRequest) => StubAnswer | undefined;
}

export interface Stub {
  baseUrl: string;
  requests: StubRequest[];
  added: Set<string>;
  close(): Promise<void>;
}

const ok = (response: unknown): StubAnswer => ({
  status: 200,
  body: { statusCode: 200, statusMessage: "OK", response },
});
const refusal = (status: number): StubAnswer => ({ status, body: { statusCode: status, statusMessage: "refused" } });

export async function startStub(options: StubOptions = {}): Promise<Stub> {
  const catalogue = Array.from({ length: options.catalogue ?? 6 }, (_, i) => `c${i}`);
  const added = new Set(options.added ?? []);
  const requests: StubRequest[] = [];
  const first = options.firstPage ?? 1;
  const view = (id: string) => ({ connectorId: id, name: `Connector ${id}`, dataType: "Stub" });

  function page(ids: string[], query: URLSearchParams, path: string): StubAnswer {
    if ((options.offsetPaged ?? []).includes(path)) {
      const [offset, size] = [
        Number(query.get("offset") ?? 0),
        Number(query.get("size") ?? options.defaultPageSize ?? 50),
      ];
      return ok({ items: ids.slice(offset, offset + size).map(view), total: ids.length });
    }
    const size = Number(query.get("pageSize") ?? options.defaultPageSize ?? 50);
    const number = Number(query.get("page") ?? first);
    if (!Number.isInteger(number) || number < first || !(size >= 1)) return refusal(400);
    const items = ids.slice((number - first) * size, (number - first + 1) * size).map(view);
    return ok({ items, total: ids.length });
  }

  function answer(r: StubRequest): StubAnswer {
    const own = options.intercept?.(r);
    if (own) return own;
    const route = `${r.method} ${r.path}`;
    if (route === "POST /es/v2/oauth/client-token") {
      return { status: 200, body: { accessToken: options.accessToken ?? "stub-token-0123456789", expiresIn: 3600 } };
    }
    if (route === "GET /es/v2/connectors") return page(catalogue, r.query, r.path);
    if (route === "GET /es/v2/connectors/added") {
      return page(
        catalogue.filter((id) => added.has(id) && !(options.hidden ?? []).includes(id)),
        r.query,
        r.path,
      );
    }
    if (route === "GET /es/v2/connectors/supported") return page(catalogue, r.query, r.path);
    if (route === "POST /es/v2/connectors") {
      const ids = (JSON.parse(r.body) as { connectorIds: string[] }).connectorIds;
      const already = ids.filter((id) => added.has(id));
      for (const id of ids) added.add(id);
      return ok({ added: ids.filter((id) => !already.includes(id)).map(view), alreadyAdded: already });
    }
    const one = /^\/es\/v2\/connectors\/([^/]+)(\/configuration)?$/.exec(r.path);
    const id = one?.[1];
    if (id && catalogue.includes(id)) {
      if (r.method === "GET" && !one[2]) return ok(view(id));
      if (r.method === "GET") return ok({ connectorId: id, configured: false });
      if (r.method === "DELETE") return added.delete(id) ? ok({ connectorId: id }) : refusal(404);
    }
    return refusal(404);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub");
      const request = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body };
      requests.push(request);
      const a = answer(request);
      if (a.status === 0) return; // never answered
      res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
      res.end(a.body === undefined ? "" : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    added,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
