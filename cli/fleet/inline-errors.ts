// Ends the inline runs an error nothing catches would leave hanging. When an Output of an
// inline program rejects (a lookup the service refused) and a resource takes it as an input,
// that resource never registers, so neither do the resources and stack outputs that wait for
// it. The Node.js language host exits on such an error (`pulumi up` fails); the Automation
// API's inline server only records it and keeps waiting for the stack's outputs, so the run
// never ends (pulumi/pulumi#17613). The fleet does what the language host does: it cancels
// the engine of every inline run in flight (the engine's own way: the step under way
// finishes, the lock is released). The handlers of uncaught errors are process-wide, so the
// error cannot be told apart from one of another run: runFleet reruns such a stack alone.
export interface GuardedRun {
  /** Aborted by the fleet's signal, or by an error no program caught during this run. */
  readonly signal: AbortSignal;
  /** The uncaught error that cancelled this run, if one did (boxed: a program may reject with `undefined`). */
  uncaught(): { error: unknown } | undefined;
  /** The run is over: it no longer listens. */
  end(): void;
}

const EVENTS = ["unhandledRejection", "uncaughtException"] as const;

export class InlineRunGuard {
  private readonly running = new Map<AbortController, { uncaught?: { error: unknown } }>();

  /** The fleet's signal (Ctrl-C, SIGTERM): it cancels every run too. */
  constructor(private readonly outer?: AbortSignal) {}

  private readonly onError = (error: unknown): void => {
    for (const [controller, run] of this.running) {
      run.uncaught ??= { error };
      controller.abort();
    }
  };

  start(): GuardedRun {
    const controller = new AbortController();
    const run: { uncaught?: { error: unknown } } = {};
    const abort = () => controller.abort();
    if (this.outer?.aborted) controller.abort();
    this.outer?.addEventListener("abort", abort);
    // Listening only while runs are in flight: an error outside them stays the process's own.
    if (this.running.size === 0) for (const event of EVENTS) process.on(event, this.onError);
    this.running.set(controller, run);
    return {
      signal: controller.signal,
      uncaught: () => run.uncaught,
      end: () => {
        this.outer?.removeEventListener("abort", abort);
        if (!this.running.delete(controller) || this.running.size > 0) return;
        for (const event of EVENTS) process.off(event, this.onError);
      },
    };
  }
}

/** What a run cancelled by an uncaught error says (the engine only records the cancellation). */
export function uncaughtText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `the program failed: ${message}`;
}
