// Shared setup of the client's tests against the local service: one service per test
// file on an ephemeral port, reset before each test, and clients with their own pools.
import assert from "node:assert/strict";
import type { Pool } from "undici";
import {
  EmbeddedClient,
  closeClients,
  collect,
  createPool,
  getClient,
  UndiciTransport,
  type CatalogueConnector,
  type ClientSettings,
} from "../../provider/client";
import { startLocalService, type LocalService } from "../../harness/local-service";

export interface LocalContext {
  svc: LocalService;
  /** The first customer's first sub-account. */
  account: string;
  catalogue: CatalogueConnector[];
  source: CatalogueConnector;
  destination: CatalogueConnector;
  credentials(customer?: number): ClientSettings;
  /** A client with its own pool and no jitter (random 0), so retries do not wait. */
  direct(extra?: Partial<ClientSettings>, deps?: ConstructorParameters<typeof EmbeddedClient>[1]): EmbeddedClient;
  /** A pool that is closed after the file's tests. */
  pool(baseUrl: string): Pool;
  routeStats(key: string): Promise<Record<string, number>>;
}

/** Registers the mocha hooks; the returned object is filled in by `before`. */
export function useLocalService(): LocalContext {
  const pools: Pool[] = [];
  const ctx = {} as LocalContext;
  ctx.credentials = (customer = 0) => ({
    baseUrl: ctx.svc.baseUrl,
    clientId: ctx.svc.customers[customer].clientId,
    clientSecret: ctx.svc.customers[customer].clientSecret,
  });
  ctx.pool = (baseUrl) => {
    const pool = createPool(baseUrl, { connectMs: 2_000, headersMs: 10_000, bodyMs: 10_000 });
    pools.push(pool);
    return pool;
  };
  ctx.direct = (extra = {}, deps = {}) => {
    const pool = createPool(ctx.svc.baseUrl, {
      connectMs: 2_000,
      headersMs: extra.timeouts?.headersMs ?? 10_000,
      bodyMs: 10_000,
    });
    pools.push(pool);
    return EmbeddedClient.create(
      { ...ctx.credentials(), ...extra },
      { transport: new UndiciTransport(pool), random: () => 0, ...deps },
    );
  };
  ctx.routeStats = async (key) => (await ctx.svc.stats()).byRoute[key] ?? {};

  before(async () => {
    ctx.svc = await startLocalService();
    ctx.account = ctx.svc.customers[0].subAccountIds[0];
    ctx.catalogue = await collect(getClient(ctx.credentials()).listConnectors(ctx.account));
    ctx.source = ctx.catalogue.find((c) => c.supportedType === "Source") ?? assert.fail("no source");
    ctx.destination = ctx.catalogue.find((c) => c.supportedType === "Destination") ?? assert.fail("no destination");
  });
  beforeEach(() => ctx.svc.reset());
  after(async () => {
    await closeClients();
    await Promise.all(pools.splice(0).map((p) => p.close()));
    await ctx.svc.stop();
  });
  return ctx;
}

/** A valid secretConfig for the connector's fields (from the live descriptors). */
export function secretConfigFor(conf: {
  secretConfig: {
    configuration: {
      id: string;
      type: string;
      required: boolean;
      readonly: boolean;
      min?: number;
      options?: string[];
    }[];
  }[];
}): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = {};
  for (const field of conf.secretConfig[0].configuration) {
    if (field.readonly || !field.required) continue;
    switch (field.type) {
      case "Number":
        out[field.id] = field.min ?? 1;
        break;
      case "Select":
        out[field.id] = field.options?.[0] ?? "x";
        break;
      case "Multi-Select":
        out[field.id] = field.options?.slice(0, 1) ?? [];
        break;
      case "Date":
        out[field.id] = "2024-01-01";
        break;
      default:
        out[field.id] = `value-of-${field.id}`;
    }
  }
  return out;
}
