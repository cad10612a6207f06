// One access token per client, shared by every concurrent call: fetched once (callers
// that arrive during the fetch await the same promise), renewed shortly before it
// expires, and renewed once when the service rejects it (401).
import { AuthenticationError } from "./errors";

export interface IssuedToken {
  accessToken: string;
  /** Lifetime in seconds, as the token route returns it. */
  expirySeconds: number;
}

export type TokenFetcher = () => Promise<IssuedToken>;

export interface TokenManagerOptions {
  now?: () => number;
  /** Renew this long before expiry at most (default 30 s)… */
  renewBeforeMs?: number;
  /** …and at most this fraction of the lifetime (default 0.1), so short-lived tokens stay usable. */
  renewBeforeFraction?: number;
}

interface Held {
  value: string;
  /** When to stop handing it out and fetch a new one. */
  renewAtMs: number;
}

export class TokenManager {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;
  private requests = 0;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;
  private readonly renewBeforeFraction: number;

  constructor(
    private readonly fetcher: TokenFetcher,
    options: TokenManagerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.renewBeforeMs = options.renewBeforeMs ?? 30_000;
    this.renewBeforeFraction = options.renewBeforeFraction ?? 0.1;
  }

  /** Token requests made so far (for tests and benchmarks: the target is one per process). */
  get tokenRequests(): number {
    return this.requests;
  }

  /** A valid token: the held one, the one being fetched, or a new fetch. */
  async get(): Promise<string> {
    const held = this.held;
    if (held && this.now() < held.renewAtMs) return held.value;
    return (await this.fetchShared()).value;
  }

  /**
   * The service rejected `rejected`. Drop it unless a newer token is already held or being
   * fetched, so that N concurrent 401s cause one renewal, not N.
   */
  invalidate(rejected: string): void {
    if (this.held?.value === rejected) this.held = undefined;
  }

  private fetchShared(): Promise<Held> {
    if (!this.pending) {
      this.requests++;
      const started = this.now();
      this.pending = this.fetcher()
        .then((issued) => {
          const lifetimeMs = Math.max(0, issued.expirySeconds * 1000);
          const margin = Math.min(this.renewBeforeMs, lifetimeMs * this.renewBeforeFraction);
          // Measured from the request's start: the lifetime began at the service meanwhile.
          const held = { value: issued.accessToken, renewAtMs: started + lifetimeMs - margin };
          this.held = held;
          return held;
        })
        .finally(() => {
          // A failure is not cached: the next caller tries again.
          this.pending = undefined;
        });
    }
    return this.pending;
  }
}

/**
 * A 401 of the token route made again with what to check: the settings (stack config and
 * environment variables alike) that give the credentials, and the base URL that chose the
 * service. Any other error is returned as it is.
 */
export function credentialsRefused(error: unknown): unknown {
  if (!(error instanceof AuthenticationError)) return error;
  const check =
    "the service refused the client credentials: check embedded:clientId and embedded:clientSecret " +
    "(or EMBEDDED_CLIENT_ID and EMBEDDED_CLIENT_SECRET), and that embedded:baseUrl (EMBEDDED_BASE_URL) " +
    "is the service that issued them";
  const { status, statusMessage, requestId, route, detail } = error;
  return new AuthenticationError({
    status,
    statusMessage,
    requestId,
    route,
    detail: detail ? `${detail}; ${check}` : check,
    cause: error,
  });
}
