// Bounded concurrency per process, base URL and client id, shared by every client of that
// customer on that URL (getClient's registry). On a 429 the whole limiter pauses for
// Retry-After: the service's limit is per client id, so letting that customer's other queued
// calls go on would only earn more 429s, while another customer's calls go on.

/** Node's timers fire at once beyond this (2^31 - 1 ms); a longer pause re-arms. */
const MAX_TIMER_MS = 2_147_483_647;

export interface LimiterOptions {
  now?: () => number;
  /** Timer, injectable for tests. */
  setTimer?: (callback: () => void, ms: number) => void;
}

export class Limiter {
  private limit: number;
  private active = 0;
  private peak = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private timerArmed = false;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => void;

  constructor(concurrency: number, options: LimiterOptions = {}) {
    this.limit = Limiter.check(concurrency);
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((callback, ms) => void setTimeout(callback, ms));
  }

  private static check(concurrency: number): number {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
    }
    return concurrency;
  }

  /** The bound; a later client of the same base URL and client id may change it. */
  get concurrency(): number {
    return this.limit;
  }

  set concurrency(value: number) {
    this.limit = Limiter.check(value);
    this.drain();
  }

  /** Calls running now. */
  get running(): number {
    return this.active;
  }

  /** Calls waiting for a slot or for the end of a pause. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Most calls ever running at once (tests check the bound with it). */
  get peakRunning(): number {
    return this.peak;
  }

  /** Whether new calls are held back by a 429 pause now. */
  get paused(): boolean {
    return this.now() < this.pausedUntil;
  }

  /** Runs `task` when a slot is free and no pause is on; the slot is released when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.waiting.length > 0 || !this.canStart()) {
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        this.drain();
      });
    } else {
      this.start();
    }
    try {
      return await task();
    } finally {
      this.active--;
      this.drain();
    }
  }

  /** Holds every call that has not started yet for `ms` (a pause is extended, never shortened). */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.drain();
  }

  private canStart(): boolean {
    return this.active < this.limit && !this.paused;
  }

  private start(): void {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      this.start();
      const next = this.waiting.shift();
      if (next) next();
    }
    if (this.waiting.length > 0 && this.paused && !this.timerArmed) {
      this.timerArmed = true;
      this.setTimer(
        () => {
          this.timerArmed = false;
          this.drain();
        },
        Math.min(this.pausedUntil - this.now(), MAX_TIMER_MS),
      );
    }
  }
}
