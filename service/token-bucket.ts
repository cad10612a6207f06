// Token bucket per client id: `rate` requests per second with a burst of one
// second's worth; the 429 tells how long until a request would pass.
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number,
  ) {}

  /** 0 when the request may pass, else the Retry-After in whole seconds. */
  take(key: string): number {
    if (this.ratePerSecond <= 0) return 0;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.ratePerSecond, at: now };
    bucket.tokens = Math.min(this.ratePerSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }

  reset(): void {
    this.buckets.clear();
  }
}
