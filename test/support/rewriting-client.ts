// A client of the local service whose answers pass through a rewrite first: the same service
// as it would look with another behaviour (no `alreadyAdded`, a 404 before add, no lastUpdated,
// a 409 without counts), to prove each fallback of the provider (docs/service-contract.md).
import type { Pool } from "undici";
import {
  createPool,
  EmbeddedClient,
  UndiciTransport,
  type IncomingResponse,
  type OutgoingRequest,
} from "../../provider/client";
import type { ProviderFixture } from "./provider-fixtures";

export type Rewrite = (request: OutgoingRequest, response: IncomingResponse) => IncomingResponse;

/** The JSON of an answer, rewritten by `change` (which may return a new body, or undefined for none). */
export function withJson(
  response: IncomingResponse,
  change: (json: Record<string, unknown>) => unknown,
): IncomingResponse {
  const json = JSON.parse(response.body.toString("utf8")) as Record<string, unknown>;
  const changed = change(json);
  return { ...response, body: Buffer.from(changed === undefined ? "" : JSON.stringify(changed)) };
}

const pools: Pool[] = [];

/**
 * A client of the fixture's service and credentials whose answers go through `rewrite`, and
 * whose requests go through `ask` first: it may return the request rewritten (a service that reads
 * it otherwise: a page capped), or act ahead of it (what someone else does just before it arrives).
 */
export function rewritingClient(
  fx: ProviderFixture,
  rewrite: Rewrite,
  ask: (request: OutgoingRequest) => OutgoingRequest | void | Promise<OutgoingRequest | void> = () => undefined,
): EmbeddedClient {
  const pool = createPool(new URL(fx.service.baseUrl).origin, { connectMs: 5_000, headersMs: 30_000, bodyMs: 30_000 });
  pools.push(pool);
  const inner = new UndiciTransport(pool);
  return EmbeddedClient.create(
    {
      baseUrl: fx.service.baseUrl,
      clientId: fx.config["embedded:clientId"] as string,
      clientSecret: fx.config["embedded:clientSecret"] as string,
    },
    {
      transport: {
        send: async (request) => {
          const sent = (await ask(request)) ?? request;
          return rewrite(request, await inner.send(sent));
        },
      },
    },
  );
}

/** Closes the pools of every rewriting client made so far. */
export async function closeRewritingClients(): Promise<void> {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
}
