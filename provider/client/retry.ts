// The retry policy as pure functions: what to retry, and how long to wait. The client's
// loop only applies the decision, so every rule here is tested without a clock or a network.
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_TIMEOUT_MS } from "./defaults";
import { EmbeddedApiError, RateLimitError, ServerError } from "./errors";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff of the first retry (before jitter). */
  baseDelayMs: number;
  /** Cap of the exponential backoff (before jitter). */
  maxDelayMs: number;
  /** No retry of a transient fault may start later than this after the call began (waits excluded). */
  maxElapsedMs: number;
  /**
   * How long one call may keep waiting in all when the service says when to come back (429,
   * or 503 with Retry-After): such answers are waited out, not counted against maxAttempts.
   */
  retryTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: DEFAULT_MAX_RETRIES + 1,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxElapsedMs: 60_000,
  retryTimeoutMs: DEFAULT_RETRY_TIMEOUT_MS,
};

export interface RetryInput {
  error: unknown;
  /** Attempts that failed with a transient fault so far (waits for the service not counted). */
  attempt: number;
  /** Answers so far that told the call to come back later (429, 503 with Retry-After). */
  waits?: number;
  /** Time since the call began. */
  elapsedMs: number;
  /** Of elapsedMs, the time spent waiting for the service (Retry-After). */
  waitedMs?: number;
  /** From the route table: whether repeating the operation is harmless. */
  retrySafe: boolean;
  policy: RetryPolicy;
  /** Uniform in [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Capped exponential backoff with full jitter: uniform in [0, min(cap, base·2^(attempt-1))].
 * Full jitter spreads clients that failed together (the AWS architecture blog's analysis).
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30); // 2^30 already exceeds any cap
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates start with a day name; Date.parse alone would read "-3" as a year.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The service said when to come back: a 429, or a 503 with Retry-After. Such a call is
 * waited out within retryTimeoutMs instead of counting against maxAttempts.
 */
export function waitsForService(error: unknown): error is RateLimitError | ServerError {
  if (error instanceof RateLimitError) return true;
  return error instanceof ServerError && error.status === 503 && error.retryAfterMs !== undefined;
}

/** Whether the failed attempt should be repeated, and after how long. Pure. */
export function shouldRetry(input: RetryInput): RetryDecision {
  const { error, attempt, elapsedMs, retrySafe, policy, random } = input;
  if (!(error instanceof EmbeddedApiError)) return { retry: false, reason: "not a service error" };
  if (!error.retryable) return { retry: false, reason: `${error.kind} errors are final` };
  if (!retrySafe) return { retry: false, reason: "the operation is not safe to repeat" };
  if (waitsForService(error)) {
    // Retry-After is the service's own estimate (and the limiter holds every call of the
    // process until then); without it, back off.
    // A Retry-After of 0 (or a date past) would repeat at once, without end: back off then too.
    const given = error.retryAfterMs;
    const delayMs =
      given !== undefined && given > 0
        ? given
        : Math.max(policy.baseDelayMs, backoffDelayMs((input.waits ?? 0) + 1, policy, random));
    if (elapsedMs + delayMs > policy.retryTimeoutMs) {
      return {
        retry: false,
        reason: `waiting ${delayMs} ms more would pass the retry timeout of ${policy.retryTimeoutMs} ms`,
      };
    }
    return { retry: true, delayMs };
  }
  if (attempt >= policy.maxAttempts) return { retry: false, reason: `${attempt} attempts made` };
  const delayMs = backoffDelayMs(attempt, policy, random);
  if (elapsedMs - (input.waitedMs ?? 0) + delayMs > policy.maxElapsedMs) {
    return { retry: false, reason: `the retry budget of ${policy.maxElapsedMs} ms would be exceeded` };
  }
  return { retry: true, delayMs };
}
