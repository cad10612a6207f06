// The client's settings: what callers pass (DESIGN.md, "The client's public interface"),
// and the same with every default filled in and checked, before anything is sent.
import { DEFAULT_PROFILE } from "../../contract/profile";
import type { ResolvedProfile } from "../../contract/profile-types";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUTS } from "./defaults";
import { InvalidArgumentError } from "./errors";
import { MAX_RESPONSE_BYTES } from "./http";
import { MAX_LIST_BYTES, MAX_PAGE_SIZE } from "./pagination";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import { checkBasePath, parseBaseUrl } from "./validation";

export interface ClientSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * Defaults 5 000 / 30 000 / 30 000 ms. headersMs bounds the wait for the answer's headers;
   * bodyMs the pause between two chunks of its body (undici's bodyTimeout), not the whole body.
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Defaults 6 attempts / 200 ms / 5 000 ms / 60 000 ms; waits for Retry-After up to 600 000 ms in all. */
  retry?: Partial<RetryPolicy>;
  /** Requests in flight per process, base URL and client id (one customer's requests never wait for another's); default 8. */
  concurrency?: number;
  /** PEM, for a service with a private CA. */
  caCertificate?: string;
  /** Items per list request; default (and maximum) 200, so a refresh costs the fewest calls. */
  pageSize?: number;
  /** Largest answer accepted; default 10 MiB. */
  maxResponseBytes?: number;
  /** Largest list accepted, all its pages together; default 64 MiB (pagination.ts MAX_LIST_BYTES). */
  maxListBytes?: number;
  /** The service's wire (docs/service-profile.md); default: the built-in profile, today's contract. */
  profile?: ResolvedProfile;
}

function positiveInt(name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1 || v > max) {
    throw new InvalidArgumentError(name, `${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return v;
}

/** Settings with every default filled in and checked. */
export function resolveSettings(settings: ClientSettings) {
  const profile = settings.profile ?? DEFAULT_PROFILE;
  const url = checkBasePath(
    parseBaseUrl(settings.baseUrl),
    Object.values(profile.operations).map((operation) => operation.path),
  );
  if (typeof settings.clientId !== "string" || settings.clientId === "") {
    throw new InvalidArgumentError("clientId", "clientId must be a non-empty string");
  }
  if (typeof settings.clientSecret !== "string" || settings.clientSecret === "") {
    throw new InvalidArgumentError("clientSecret", "clientSecret must be a non-empty string");
  }
  const t = settings.timeouts ?? {};
  const r = settings.retry ?? {};
  return {
    url,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    timeouts: {
      connectMs: positiveInt("timeouts.connectMs", t.connectMs, DEFAULT_TIMEOUTS.connectMs),
      headersMs: positiveInt("timeouts.headersMs", t.headersMs, DEFAULT_TIMEOUTS.headersMs),
      bodyMs: positiveInt("timeouts.bodyMs", t.bodyMs, DEFAULT_TIMEOUTS.bodyMs),
    },
    retry: {
      maxAttempts: positiveInt("retry.maxAttempts", r.maxAttempts, DEFAULT_RETRY_POLICY.maxAttempts),
      baseDelayMs: positiveInt("retry.baseDelayMs", r.baseDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs),
      maxDelayMs: positiveInt("retry.maxDelayMs", r.maxDelayMs, DEFAULT_RETRY_POLICY.maxDelayMs),
      maxElapsedMs: positiveInt("retry.maxElapsedMs", r.maxElapsedMs, DEFAULT_RETRY_POLICY.maxElapsedMs),
      retryTimeoutMs: positiveInt("retry.retryTimeoutMs", r.retryTimeoutMs, DEFAULT_RETRY_POLICY.retryTimeoutMs),
    },
    concurrency: positiveInt("concurrency", settings.concurrency, DEFAULT_CONCURRENCY),
    caCertificate: settings.caCertificate || undefined,
    pageSize: positiveInt("pageSize", settings.pageSize, MAX_PAGE_SIZE, MAX_PAGE_SIZE),
    maxResponseBytes: positiveInt("maxResponseBytes", settings.maxResponseBytes, MAX_RESPONSE_BYTES),
    maxListBytes: positiveInt("maxListBytes", settings.maxListBytes, MAX_LIST_BYTES),
    profile,
  };
}
export type ResolvedSettings = ReturnType<typeof resolveSettings>;
