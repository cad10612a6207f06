// The engine's resource steps in this process, and how many it may run at once. The engine
// runs at most P steps (create, read, update, delete) at once, P being its --parallel, and
// waits for a step's answer before it starts another in its place. So when this process holds
// P steps and every one is a create waiting for a coalesced Add, nothing else can arrive until
// that Add goes out (add-coalescer.ts sends it then instead of waiting out its idle time).
// Check and diff are not steps (the engine runs them outside that limit): they are not counted.
// A provider is not told --parallel; its default is known (defaultParallelism), and a larger
// one shows as more steps in progress at once than the default.
import { availableParallelism } from "node:os";

/**
 * The engine's default --parallel (Pulumi's `defaultParallel()`): PULUMI_PARALLEL when it is a
 * positive integer, else 4 × GOMAXPROCS, which is the CPUs Go may use (node's
 * availableParallelism(), or the GOMAXPROCS variable when it is set). Providers inherit the
 * engine's environment.
 */
export function defaultParallelism(env: NodeJS.ProcessEnv = process.env, cpus = availableParallelism()): number {
  return positiveInteger(env.PULUMI_PARALLEL) ?? 4 * (positiveInteger(env.GOMAXPROCS) ?? cpus);
}

/** Go's strconv.Atoi (an optional sign, decimal digits) and > 0; anything else is not set. */
function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export class EngineSteps {
  /** Steps running now. */
  inProgress = 0;
  /** The most steps ever running at once: the engine's --parallel is at least that. */
  mostAtOnce = 0;

  /** `defaultParallel`: the engine's --parallel when nothing larger was seen (tests pass theirs). */
  constructor(readonly defaultParallel = defaultParallelism()) {}

  /** The engine's --parallel as far as this process can tell. */
  estimate(): number {
    return Math.max(this.defaultParallel, this.mostAtOnce);
  }

  /**
   * True when `waiting` creates (all waiting for an Add) are every step in progress, and as
   * many as the engine runs at once: no other step can reach this process until one answers.
   */
  allWaiting(waiting: number): boolean {
    return waiting > 0 && waiting === this.inProgress && waiting >= this.estimate();
  }

  /** Runs one step, counted from the call (synchronously) until it settles, thrown or not. */
  async run<T>(step: () => Promise<T>): Promise<T> {
    this.inProgress++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.inProgress);
    try {
      return await step();
    } finally {
      this.inProgress--;
    }
  }
}

// On globalThis, like runtime.ts's state: two copies of this module (the dynamic provider
// loads the implementations by package path, tests by relative path) still count together.
const KEY = Symbol.for("pulumi-embedded-connectors/engine-steps");
type Holder = { [KEY]?: EngineSteps };

/** This process's steps: the `*-impl` modules count theirs, runtime.ts hands it to the coalescer. */
export function engineSteps(): EngineSteps {
  const holder = globalThis as Holder;
  holder[KEY] ??= new EngineSteps();
  return holder[KEY];
}

/**
 * An operation of a `*-impl` module that the engine runs as a step, counted while it runs.
 * Both hosts (the dynamic provider, the plugin) call the implementations, so it is counted
 * once whichever runs it. The implementations never call each other's counted exports.
 */
export function countedStep<A extends unknown[], R>(operation: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => engineSteps().run(() => operation(...args));
}
