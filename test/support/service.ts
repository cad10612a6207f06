// Shared pieces of the service tests: an app on app.inject with a movable
// clock, tokens per seeded customer, and envelope assertions.
import assert from "node:assert/strict";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp, type BuildAppOptions } from "../../service/app";
import { CATALOGUE, type CatalogueConnector } from "../../service/seed/catalogue";
import { seedCustomers, type SeededCustomer } from "../../service/seed/customers";

export const ADMIN_KEY = "test-admin-key";
export const START = Date.parse("2030-01-01T00:00:00Z");

export interface Harness {
  app: FastifyInstance;
  customers: SeededCustomer[];
  /** The first customer's first sub-account. */
  account: string;
  clock: { now: number };
  token(customer?: number): Promise<string>;
  call(
    method: InjectOptions["method"],
    url: string,
    opts?: { token?: string; payload?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  admin(method: InjectOptions["method"], url: string, payload?: object): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function harness(options: Partial<BuildAppOptions> = {}): Promise<Harness> {
  const clock = { now: START };
  const app = buildApp({ rateLimitPerSecond: 0, adminKey: ADMIN_KEY, now: () => clock.now, ...options });
  await app.ready();
  const customers = seedCustomers(options.firstCustomer);
  const tokens = new Map<number, string>();
  const h: Harness = {
    app,
    customers,
    account: customers[0].subAccountIds[0],
    clock,
    async token(customer = 0) {
      const cached = tokens.get(customer);
      if (cached) return cached;
      const { clientId, clientSecret } = customers[customer];
      const res = await app.inject({
        method: "POST",
        url: "/es/v2/oauth/client-token",
        payload: { clientId, clientSecret },
      });
      assert.equal(res.statusCode, 200, res.body);
      const token = (res.json() as { accessToken: string }).accessToken;
      tokens.set(customer, token);
      return token;
    },
    async call(method, url, opts = {}) {
      const token = opts.token ?? (await h.token());
      const headers: Record<string, string> = {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...opts.headers,
      };
      return app.inject({
        method,
        url,
        headers,
        ...(opts.payload === undefined ? {} : { payload: opts.payload as InjectOptions["payload"] }),
      });
    },
    admin(method, url, payload) {
      return app.inject({ method, url, headers: { "x-admin-key": ADMIN_KEY }, ...(payload ? { payload } : {}) });
    },
    close: () => app.close(),
  };
  return h;
}

export interface Envelope<T = unknown> {
  statusCode: number;
  statusMessage: string;
  response: T;
  errors?: { field: string; message: string }[];
}

/** Asserts the status, the envelope and the x-request-id header; returns the envelope. */
export function expectEnvelope<T = unknown>(
  res: LightMyRequestResponse,
  status: number,
  message?: RegExp,
): Envelope<T> {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers["x-request-id"] ?? ""), /.+/, "x-request-id header");
  const body = res.json() as Envelope<T>;
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.statusMessage, "string");
  if (status >= 400 && status !== 409) assert.equal(body.response, null);
  if (message) assert.match(body.statusMessage, message);
  return body;
}

export const byName = (name: string): CatalogueConnector => {
  const c = CATALOGUE.find((x) => x.name === name);
  if (!c) throw new Error(`no seeded connector ${name}`);
  return c;
};

export const q = (accountId: string, extra: Record<string, string | number> = {}): string =>
  `?${new URLSearchParams({ accountId, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) })}`;

export async function addedIds(h: Harness, accountId = h.account, customer = 0): Promise<string[]> {
  const res = await h.call("GET", `/es/v2/connectors/added${q(accountId, { pageSize: 200 })}`, {
    token: await h.token(customer),
  });
  return expectEnvelope<{ items: { connectorId: string }[] }>(res, 200)
    .response.items.map((i) => i.connectorId)
    .sort();
}

/** A valid Configure body for an "oauth" connector (Facebook, Google Ads, ...). */
export function oauthBody(c: CatalogueConnector, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    configurationId: c.secretConfiguration.configurationId,
    secretConfig: {
      adAccountId: "act_123",
      clientSecret: "s3cr3t-value",
      apiVersion: "v19.0",
      permissions: ["read", "audiences"],
      dailyUploadLimit: 500,
      tokenIssuedOn: "2029-12-31",
      ...overrides,
    },
  };
}
