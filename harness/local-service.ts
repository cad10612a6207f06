// Starts the local Embedded Connectors Service in this process on an ephemeral
// loopback port, for the tests (client, provider, plugin, end to end) and the benchmarks.
// Defaults: in-memory database, rate limiting off (pass rateLimitPerSecond to
// test it), a random admin key. Admin calls go through app.inject, so fault
// injection and socket resets never hit them.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildAppOptions } from "../service/app";
import type { FaultSettings } from "../service/faults";
import { seedCustomers, type SeededCustomer } from "../service/seed/customers";
import type { Stats } from "../service/stats";

export type { BuildAppOptions, FaultSettings, SeededCustomer, Stats };

export interface LocalService {
  /** http://127.0.0.1:<ephemeral port> */
  baseUrl: string;
  adminKey: string;
  /** [0] is the first customer. */
  customers: SeededCustomer[];
  stats(): Promise<Stats>;
  setFaults(faults: FaultSettings): Promise<void>;
  createConnection(accountId: string, sourceConnectorId: string, destinationConnectorId: string): Promise<string>;
  deleteConnection(connectionId: string): Promise<void>;
  /** Whether the service holds each value (a Password compared by its digest; it never shows one). */
  holds(accountId: string, connectorId: string, secretConfig: Record<string, string>): Promise<Record<string, boolean>>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

interface Envelope<T> {
  statusCode: number;
  statusMessage: string;
  response: T;
}

export async function startLocalService(
  options: Partial<BuildAppOptions> & { dbPath?: string } = {},
): Promise<LocalService> {
  const { dbPath, ...rest } = options;
  const adminKey = rest.adminKey ?? randomBytes(16).toString("hex");
  const app: FastifyInstance = buildApp({
    rateLimitPerSecond: 0,
    ...rest,
    db: dbPath ?? rest.db ?? ":memory:",
    adminKey,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });

  async function admin<T>(method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object): Promise<T> {
    const res = await app.inject({
      method,
      url,
      headers: { "x-admin-key": adminKey },
      ...(payload === undefined ? {} : { payload }),
    });
    const body = res.json() as Envelope<T>;
    if (res.statusCode !== 200) {
      throw new Error(`${method} ${url} failed: ${res.statusCode} ${body.statusMessage}`);
    }
    return body.response;
  }

  return {
    baseUrl: address,
    adminKey,
    customers: seedCustomers(rest.firstCustomer, rest.subAccountsPerCustomer),
    stats: () => admin<Stats>("GET", "/_admin/stats"),
    setFaults: async (faults) => {
      await admin("PUT", "/_admin/faults", faults);
    },
    createConnection: async (accountId, sourceConnectorId, destinationConnectorId) =>
      (
        await admin<{ connectionId: string }>("POST", "/_admin/connections", {
          accountId,
          sourceConnectorId,
          destinationConnectorId,
        })
      ).connectionId,
    deleteConnection: async (connectionId) => {
      await admin("DELETE", `/_admin/connections/${encodeURIComponent(connectionId)}`);
    },
    holds: (accountId, connectorId, secretConfig) =>
      admin<Record<string, boolean>>(
        "POST",
        `/_admin/configurations/${encodeURIComponent(connectorId)}/holds?accountId=${encodeURIComponent(accountId)}`,
        { secretConfig },
      ),
    reset: async () => {
      await admin("POST", "/_admin/reset");
    },
    stop: async () => {
      await app.close();
    },
  };
}
