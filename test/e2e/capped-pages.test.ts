// A service that caps its pages but echoes the
// `pageSize` it was asked for. `pulumi refresh` used to take page one for the whole list and
// delete the other connectors from the state. Now the list is read by counting its items, and
// the state keeps every connector. The cap is a small proxy in front of the local service
// (loopback only), on List Added Connectors alone.
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { connectorId, connectorsStack, e2eSuite, FACEBOOK, MIXPANEL, S3, SEGMENT } from "./fixtures";

const CAP = 2;

interface CappingProxy {
  url: string;
  /** Whether List Added Connectors pages are capped now (off: every request passes as it is). */
  capping: boolean;
  cappedPages: number;
  close: () => Promise<void>;
}

/** A proxy to `target` whose List Added Connectors pages, while `capping`, hold at most CAP items, each saying the size asked. */
async function cappingProxy(target: string): Promise<CappingProxy> {
  const proxy = { capping: false, cappedPages: 0 } as CappingProxy;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", target);
      const listing = proxy.capping && incoming.method === "GET" && url.pathname === "/es/v2/connectors/added";
      const asked = url.searchParams.get("pageSize");
      if (listing) url.searchParams.set("pageSize", String(CAP));
      const headers = Object.fromEntries(
        Object.entries(incoming.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
      ) as Record<string, string>;
      void request(url, {
        method: incoming.method as "GET",
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
        .then(async (answer) => {
          let body = Buffer.from(await answer.body.arrayBuffer());
          if (listing && answer.statusCode === 200) {
            const json = JSON.parse(body.toString("utf8")) as { response: Record<string, unknown> };
            json.response.pageSize = Number(asked);
            body = Buffer.from(JSON.stringify(json));
            proxy.cappedPages++;
          }
          const pass = ["content-type", "x-request-id", "retry-after"];
          for (const name of pass) {
            const value = answer.headers[name];
            if (typeof value === "string") outgoing.setHeader(name, value);
          }
          outgoing.writeHead(answer.statusCode).end(body);
        })
        .catch(() => outgoing.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}

describe("e2e: refresh against a service that caps its pages and echoes the size asked", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const AMPLITUDE = connectorId("Amplitude");
  const keys = ["segment", "mixpanel", "s3", "amplitude", "facebook"];
  const ids = [SEGMENT, MIXPANEL, S3, AMPLITUDE, FACEBOOK];
  let proxy: CappingProxy;
  const e2e = e2eSuite({
    // The stack talks to the service through the proxy from its first `up`: a refresh reads with
    // the settings the state recorded.
    stack: async (svc) => {
      proxy = await cappingProxy(svc.baseUrl);
      return connectorsStack({ ...svc, baseUrl: proxy.url }, "capped-pages", {
        connectors: keys.map((key, i) => ({ key, connectorId: ids[i] })),
      });
    },
    setUp: async ({ stack }) => {
      await stack.up();
    },
  });
  after(async () => proxy?.close()); // after the suite's own `after` has destroyed the stack

  it("keeps every connector in the state (the list is counted, not taken whole at page one)", async () => {
    proxy.capping = true;
    try {
      await e2e.stack.refresh();
    } finally {
      proxy.capping = false;
    }
    assert.deepEqual((await e2e.stack.resources()).map(resourceName).sort(), [...keys].sort());
    assert.ok(proxy.cappedPages >= 3, `the listing went through the cap (${proxy.cappedPages} pages)`);
  });
});
