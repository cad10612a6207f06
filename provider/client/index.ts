// The client's public API, and the per-process registry that makes a whole Pulumi preview
// or update share one client (one token) per credentials, one pool per origin and one limiter
// per base URL and client id (the service's rate limit is per client id: one customer's 429
// pauses that customer only). The registry object hangs on globalThis under a registered symbol, so that two
// copies of this module (installed package and relative import) still share it.
import { createHash } from "node:crypto";
import type { Pool } from "undici";
import { EmbeddedClient } from "./client";
import { resolveSettings, type ClientSettings } from "./client-settings";
import { createPool, UndiciTransport } from "./http";
import { Limiter } from "./limiter";

export interface ClientRegistry {
  /** Key: base URL, client id, hash of the secret. */
  readonly clients: Map<string, EmbeddedClient>;
  /** Key: origin, CA hash, timeouts. */
  readonly pools: Map<string, Pool>;
  /** Key: base URL and client id. */
  readonly limiters: Map<string, Limiter>;
  /** Counts closeClients(): a client kept from before it is closed. */
  generation: number;
}

const KEY = Symbol.for("pulumi-embedded-connectors/client-registry");
type Holder = { [KEY]?: ClientRegistry };

function createRegistry(): ClientRegistry {
  return { clients: new Map(), pools: new Map(), limiters: new Map(), generation: 0 };
}

export const clientRegistry: ClientRegistry = ((globalThis as Holder)[KEY] ??= createRegistry());

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/**
 * The process's client for these credentials: created on first use, then shared (with its
 * token). Later calls with other timeouts, retry or concurrency get the existing client;
 * an explicit different concurrency updates the limiter that customer's clients of the base URL share.
 */
export function getClient(settings: ClientSettings): EmbeddedClient {
  const resolved = resolveSettings(settings);
  const { url, timeouts, caCertificate, concurrency, maxResponseBytes } = resolved;
  // The trusted CA is part of the key: a client that trusts a private CA is never handed to a
  // caller that did not ask for it (found by provider/client/transport.test.ts).
  const trust = caCertificate ? hash(caCertificate) : "-";
  // Each customer's provider may read its own wire: the profile is part of the key too.
  const profile = resolved.profile.source === "built-in" ? "-" : hash(JSON.stringify(resolved.profile));
  const clientKey = `${url.normalized}\n${resolved.clientId}\n${hash(resolved.clientSecret)}\n${trust}\n${profile}`;
  // The service limits each client id on its own: a 429 for one customer holds back only the
  // calls made with that customer's credentials, never another customer's on the same base URL.
  const limiterKey = `${url.normalized}\n${resolved.clientId}`;
  let limiter = clientRegistry.limiters.get(limiterKey);
  if (limiter) {
    // Only an explicit setting moves the bound; a caller relying on the default does not.
    if (settings.concurrency !== undefined && limiter.concurrency !== concurrency) limiter.concurrency = concurrency;
  } else {
    limiter = new Limiter(concurrency);
    clientRegistry.limiters.set(limiterKey, limiter);
  }
  const existing = clientRegistry.clients.get(clientKey);
  if (existing) return existing;
  const poolKey = `${url.origin}\n${trust}\n${timeouts.connectMs}/${timeouts.headersMs}/${timeouts.bodyMs}`;
  let pool = clientRegistry.pools.get(poolKey);
  if (!pool) {
    pool = createPool(url.origin, { ...timeouts, caCertificate });
    clientRegistry.pools.set(poolKey, pool);
  }
  const client = new EmbeddedClient(resolved, { transport: new UndiciTransport(pool, maxResponseBytes), limiter });
  clientRegistry.clients.set(clientKey, client);
  return client;
}

/** Totals over the process's clients: token requests (target: one per process) and HTTP requests. */
export function clientStats(): { clients: number; tokenRequests: number; requests: number } {
  let tokenRequests = 0;
  let requests = 0;
  for (const client of clientRegistry.clients.values()) {
    tokenRequests += client.tokenRequests;
    requests += client.requestCount;
  }
  return { clients: clientRegistry.clients.size, tokenRequests, requests };
}

/** Closes every shared pool and forgets every client (tests; a long-lived process shutting down). */
export async function closeClients(): Promise<void> {
  const pools = [...clientRegistry.pools.values()];
  clientRegistry.generation++;
  clientRegistry.clients.clear();
  clientRegistry.pools.clear();
  clientRegistry.limiters.clear();
  await Promise.all(pools.map((pool) => pool.close()));
}

export {
  EmbeddedClient,
  type AddConnectorsResult,
  type ClientDependencies,
  type ConfigureBody,
  type ConfigureOptions,
  type ConfigureResult,
  type ConnectorFilters,
} from "./client";
export { resolveSettings, type ClientSettings, type ResolvedSettings } from "./client-settings";
export { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUTS } from "./defaults";
export {
  AuthenticationError,
  ConflictError,
  EmbeddedApiError,
  ForbiddenError,
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  ValidationError,
  NOTHING_SENT,
  errorFromResponse,
  mayHaveBeenApplied,
  redact,
  redactSentValues,
  sentRequestOf,
  sentValuesOf,
  type ErrorKind,
  type ErrorResponse,
  type FieldError,
  type SentRequest,
} from "./errors";
export { scrubCredentials, withoutCredentials } from "./url-credentials";
export {
  MAX_RESPONSE_BYTES,
  UndiciTransport,
  createPool,
  decodeResponse,
  type IncomingResponse,
  type OutgoingRequest,
  type PoolOptions,
  type Transport,
} from "./http";
export { Limiter, type LimiterOptions } from "./limiter";
export { MAX_PAGE_SIZE, collect, paginate, type PageFetcher, type PaginateOptions } from "./pagination";
export {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  parseRetryAfterMs,
  shouldRetry,
  type RetryDecision,
  type RetryInput,
  type RetryPolicy,
} from "./retry";
export { ROUTES, buildTarget, routeLabel, type HttpMethod, type OperationName, type RouteDefinition } from "./routes";
export {
  DATA_TYPES,
  DATA_TYPE_CATEGORIES,
  PLATFORM_TYPES,
  SUPPORTED_TYPES,
  type AccessTokenResponse,
  type AddedConnectorView,
  type CatalogueConnector,
  type Connector,
  type ConnectorConfigurationView,
  type DataType,
  type DataTypeCategory,
  type FieldDescriptor,
  type Page,
  type PlatformType,
  type SupportedConnector,
  type SupportedType,
} from "./schemas";
export { TokenManager, type IssuedToken, type TokenFetcher, type TokenManagerOptions } from "./token";
export {
  ID_PATTERN,
  MAX_ADD_IDS,
  checkAccountId,
  checkConnectorIds,
  checkId,
  isLoopbackHost,
  parseBaseUrl,
} from "./validation";
