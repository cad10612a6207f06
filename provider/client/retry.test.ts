import assert from "node:assert/strict";
import fc from "fast-check";
import {
  AuthenticationError,
  ConflictError,
  DEFAULT_RETRY_POLICY,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  ValidationError,
  backoffDelayMs,
  parseRetryAfterMs,
  shouldRetry,
  type RetryPolicy,
} from "./";

const init = { status: 500, statusMessage: "boom", requestId: "r1", route: "GET /x" };
const policy: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxElapsedMs: 60_000,
  retryTimeoutMs: 600_000,
};
const base = { attempt: 1, elapsedMs: 0, retrySafe: true, policy, random: () => 0.5 };

describe("client retry: shouldRetry", () => {
  it("retries network errors, 5xx and 429 of retry-safe operations", () => {
    for (const error of [
      new NetworkError({ route: "GET /x", requestId: "r1", code: "ECONNRESET" }),
      new ServerError(init),
      new ServerError({ ...init, status: 503 }),
      new RateLimitError({ ...init, status: 429 }),
    ]) {
      const decision = shouldRetry({ ...base, error });
      assert.equal(decision.retry, true, error.name);
    }
  });

  it("never retries final errors", () => {
    for (const error of [
      new AuthenticationError({ ...init, status: 401 }),
      new NotFoundError({ ...init, status: 404 }),
      new ConflictError({ ...init, status: 409 }),
      new ValidationError({ ...init, status: 400 }),
      new ResponseFormatError({ ...init, status: 200, problem: "x" }),
      new NetworkError({ route: "GET /x", requestId: "r1", code: "DEPTH_ZERO_SELF_SIGNED_CERT", retryable: false }),
      new Error("a bug"),
      "not even an error",
    ]) {
      assert.equal(shouldRetry({ ...base, error }).retry, false, String(error));
    }
  });

  it("does not retry an operation that is not retry-safe", () => {
    const decision = shouldRetry({ ...base, retrySafe: false, error: new ServerError(init) });
    assert.deepEqual(decision, { retry: false, reason: "the operation is not safe to repeat" });
  });

  it("stops after maxAttempts", () => {
    assert.equal(shouldRetry({ ...base, attempt: 5, error: new ServerError(init) }).retry, true);
    assert.equal(shouldRetry({ ...base, attempt: 6, error: new ServerError(init) }).retry, false);
  });

  it("stops when the next wait would pass the total time budget", () => {
    const error = new ServerError(init);
    assert.equal(shouldRetry({ ...base, random: () => 0, elapsedMs: 59_999, error }).retry, true);
    assert.equal(shouldRetry({ ...base, random: () => 0.99, attempt: 5, elapsedMs: 59_000, error }).retry, false);
  });

  it("honours Retry-After: never sooner than the service asked", () => {
    const error = new RateLimitError({ ...init, status: 429, retryAfterMs: 3_000 });
    assert.deepEqual(shouldRetry({ ...base, random: () => 0, error }), { retry: true, delayMs: 3_000 });
    // However many attempts came before: the service's estimate, not a backoff.
    assert.deepEqual(shouldRetry({ ...base, attempt: 5, waits: 5, random: () => 0.99, error }), {
      retry: true,
      delayMs: 3_000,
    });
    // A Retry-After beyond the retry timeout ends the call instead of sleeping past it.
    const far = new RateLimitError({ ...init, status: 429, retryAfterMs: 700_000 });
    assert.equal(shouldRetry({ ...base, error: far }).retry, false);
    assert.equal(
      shouldRetry({ ...base, error: new RateLimitError({ ...init, status: 429, retryAfterMs: 120_000 }) }).retry,
      true,
    );
  });

  it("waits out 429 and 503 with Retry-After without counting them against maxAttempts", () => {
    const limited = new RateLimitError({ ...init, status: 429, retryAfterMs: 1_000 });
    const busy = new ServerError({ ...init, status: 503, retryAfterMs: 1_000 });
    for (const error of [limited, busy]) {
      assert.deepEqual(shouldRetry({ ...base, attempt: 6, waits: 40, elapsedMs: 100_000, error }), {
        retry: true,
        delayMs: 1_000,
      });
      assert.equal(
        shouldRetry({ ...base, waits: 40, elapsedMs: 599_500, error }).retry,
        false,
        "not past retryTimeoutMs",
      );
    }
    // A 503 without Retry-After is an ordinary transient fault: counted.
    assert.equal(shouldRetry({ ...base, attempt: 6, error: new ServerError({ ...init, status: 503 }) }).retry, false);
  });

  it("backs off on a Retry-After of 0 instead of repeating at once", () => {
    const now = new RateLimitError({ ...init, status: 429, retryAfterMs: 0 });
    const decision = shouldRetry({ ...base, random: () => 0, error: now });
    assert.ok(decision.retry && decision.delayMs >= policy.baseDelayMs, JSON.stringify(decision));
  });

  it("does not let time spent waiting for the service eat the budget of other faults", () => {
    const error = new ServerError(init);
    assert.equal(shouldRetry({ ...base, random: () => 0, elapsedMs: 300_000, waitedMs: 290_000, error }).retry, true);
    assert.equal(shouldRetry({ ...base, random: () => 0, elapsedMs: 300_000, waitedMs: 0, error }).retry, false);
  });

  it("uses the documented defaults", () => {
    assert.deepEqual(
      { ...DEFAULT_RETRY_POLICY },
      { maxAttempts: 6, baseDelayMs: 200, maxDelayMs: 5_000, maxElapsedMs: 60_000, retryTimeoutMs: 600_000 },
    );
  });
});

describe("client retry: backoffDelayMs", () => {
  it("is full jitter over a capped exponential", () => {
    assert.equal(
      backoffDelayMs(1, policy, () => 0),
      0,
    );
    assert.equal(
      backoffDelayMs(1, policy, () => 0.5),
      100,
    );
    assert.equal(
      backoffDelayMs(2, policy, () => 0.5),
      200,
    );
    assert.equal(
      backoffDelayMs(3, policy, () => 0.5),
      400,
    );
    assert.equal(
      backoffDelayMs(20, policy, () => 0.5),
      2_500,
    );
    assert.equal(
      backoffDelayMs(1000, policy, () => 0.999999),
      4_999,
    );
  });

  it("stays within [0, min(cap, base·2^(n-1))] for any attempt and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (attempt, r, baseDelayMs, maxDelayMs) => {
          const p = { ...policy, baseDelayMs, maxDelayMs };
          const delay = backoffDelayMs(attempt, p, () => r);
          const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 30));
          return Number.isInteger(delay) && delay >= 0 && delay <= ceiling;
        },
      ),
    );
  });
});

describe("client retry: parseRetryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads delta-seconds and HTTP dates", () => {
    assert.equal(parseRetryAfterMs("2", now), 2_000);
    assert.equal(parseRetryAfterMs(" 0 ", now), 0);
    assert.equal(parseRetryAfterMs("Wed, 01 Jan 2025 00:00:05 GMT", now), 5_000);
    assert.equal(parseRetryAfterMs("Tue, 31 Dec 2024 23:59:00 GMT", now), 0);
  });
  it("ignores what it cannot read", () => {
    assert.equal(parseRetryAfterMs(undefined, now), undefined);
    assert.equal(parseRetryAfterMs("soon", now), undefined);
    assert.equal(parseRetryAfterMs("-3", now), undefined);
  });
});
