// The client's defaults that the provider's settings share (provider/settings/resolve.ts takes its
// defaults from here). A module without imports: the settings load it without loading the
// client's transport (undici).

/** Timeouts of a request, milliseconds: connecting, the answer's headers, a pause in its body. */
export const DEFAULT_TIMEOUTS = { connectMs: 5_000, headersMs: 30_000, bodyMs: 30_000 } as const;

/** Requests in flight per process, base URL and client id (one customer's requests never wait for another's). */
export const DEFAULT_CONCURRENCY = 8;

/** Retries of a transient fault after the first attempt (the retry policy's maxAttempts is one more). */
export const DEFAULT_MAX_RETRIES = 5;

/** How long one call may wait in all when the service says when to come back, milliseconds. */
export const DEFAULT_RETRY_TIMEOUT_MS = 600_000;
