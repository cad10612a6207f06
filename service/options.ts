// The knobs of buildApp (the command line maps its flags onto these, and takes their defaults
// from DEFAULT_OPTIONS).
import type { FastifyServerOptions } from "fastify";
import type { FaultSettings } from "./faults";
import type { CustomerCredentials } from "./domain/auth";
import type { ProfileInput } from "./wire/service-profile";

export interface BuildAppOptions {
  /** A file path or ":memory:". */
  db: string;
  /** Lifetime of access tokens, in seconds. */
  tokenTtlSeconds: number;
  /** Requests per second per client id (token bucket, burst of one second); 0 = off. */
  rateLimitPerSecond: number;
  /** Enables /_admin/* (header x-admin-key) when set. */
  adminKey?: string;
  /** Serves the web page at /ui (service/ui/; needs adminKey, which the page sends). Off by default. */
  ui?: boolean;
  /** Credentials of the first seeded customer (defaults demo-client / demo-secret). */
  firstCustomer?: Partial<CustomerCredentials>;
  faults?: FaultSettings;
  /** Fastify logger: false (default), true, or pino options. */
  logger?: FastifyServerOptions["logger"];
  /** Sub-accounts each seeded customer starts with (default 3); more: POST /_admin/sub-accounts. */
  subAccountsPerCustomer?: number;
  /** Synthetic catalogue connectors added after the seeded ones (benchmarks); default 0. */
  extraConnectors?: number;
  /**
   * A service profile (profiles/*.json, docs/hosted-service.md): the service registers its routes
   * and shapes its answers from it. Absent: the contract's routes (docs/service-contract.md).
   */
  profile?: ProfileInput;
  /**
   * Answer as many consoles do: a Password field's type spelled `password`, and a set one's value
   * masked as `********` (an unset one has none). Off (default): the contract's `Password`, with
   * no value. Configure still stores what it is sent, `********` included, as a console would.
   */
  consolePasswords?: boolean;
  /** Clock in milliseconds; tests replace it to expire tokens and refill buckets without waiting. */
  now?: () => number;
}

export const DEFAULT_OPTIONS: BuildAppOptions = {
  db: ":memory:",
  tokenTtlSeconds: 3600,
  rateLimitPerSecond: 50,
};
