// Ends the inline runs an error nothing catches would leave hanging. When an Output of an
// inline program rejects (a lookup the service refused) and a resource takes it as an input,
// that resource never registers, so neither do the resources and stack outputs that wait for
// it. The Node.js language host exits on such an error (`pulumi up` fails); the Automation
// API's inline server only records it and keeps waiting for the stack's outputs, so the run
// never ends (pulumi/pulumi#17613). The fleet does what the language host does: it cancels
// the engine of every inline run in flight (the engine's own way: the step under way
// finishes, the lock is released). The handlers of uncaught errors are process-wide, so the
// error cannot be told apart from one of another run: runFleet reruns such a stack alone.
//
// A cancellation reaches the engine only while it can take one. The CLI takes the stack's lock
// before it installs its handler of SIGINT, and drops that handler before it releases the lock
// (backend/diy: Lock, then NewScope … scope.Close, then Unlock); a SIGINT outside that window
// ends the process with the lock still held, and the stack then needs `pulumi cancel`. So an
// abort waits for the run's first engine event (emitted inside the scope) and is dropped once
// the engine has sent its summary (the run is ending by itself).
import type { EngineEvent } from "@pulumi/pulumi/automation";

export interface GuardedRun {
  /** Aborted by the fleet's signal, or by an error no program caught, once the engine can take it. */
  readonly signal: AbortSignal;
  /** Every engine event of the run goes here first: it tells when a cancellation is safe. */
  onEvent(event: EngineEvent): void;
  /** The uncaught error that cancelled this run, if one did (boxed: a program may reject with `undefined`). */
  uncaught(): { error: unknown } | undefined;
  /** The run is over: it no longer listens. */
  end(): void;
}
const EVENTS = ["unhandledRejection", "uncaughtException"] as const;

// gRPC's UNAVAILABLE and CANCELLED: what `@pulumi/pulumi` rejects a registration or an invoke
// with once the engine has closed its resource monitor ("Resource monitor is terminating").
// Such an error is the end of a run, often of an earlier one whose last calls lag behind, not
// a program's error: the Automation API's own server does not report it (errors.isGrpcError).
const MONITOR_CLOSED_CODES = new Set([1, 14]);

/** Whether an uncaught error only says that some run's engine has closed. */
export function isMonitorClosed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "number" && MONITOR_CLOSED_CODES.has(code);
}

/** One run's cancellation, held back until its engine can take it. */
class GatedAbort {
  readonly controller = new AbortController();
  private phase: "starting" | "running" | "ending" = "starting";
  private wanted = false;
  uncaught?: { error: unknown };

  request(): void {
    this.wanted = true;
    if (this.phase === "running") this.controller.abort();
  }

  onEvent(event: EngineEvent): void {
    if (this.phase === "starting") {
      this.phase = "running";
      if (this.wanted) this.controller.abort();
    }
    if (event.summaryEvent) this.phase = "ending";
  }
}

export class RunGuard {
  private readonly running = new Set<GatedAbort>();

  /**
   * @param outer the fleet's signal (Ctrl-C, SIGTERM): it cancels every run too.
   * @param inline whether programs run in this process, so that their uncaught errors reach it.
   */
  constructor(
    private readonly outer: AbortSignal | undefined,
    private readonly inline: boolean,
  ) {}

  private readonly onError = (error: unknown): void => {
    if (isMonitorClosed(error)) return;
    for (const run of this.running) {
      run.uncaught ??= { error };
      run.request();
    }
  };

  start(): GuardedRun {
    const run = new GatedAbort();
    const abort = () => run.request();
    if (this.outer?.aborted) run.request();
    this.outer?.addEventListener("abort", abort);
    // Listening only while runs are in flight: an error outside them stays the process's own.
    if (this.inline && this.running.size === 0) for (const event of EVENTS) process.on(event, this.onError);
    this.running.add(run);
    return {
      signal: run.controller.signal,
      onEvent: (event) => run.onEvent(event),
      uncaught: () => run.uncaught,
      end: () => {
        this.outer?.removeEventListener("abort", abort);
        if (!this.running.delete(run) || this.running.size > 0 || !this.inline) return;
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
