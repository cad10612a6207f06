// Errors read once. For a failed check, diff, read or delete, the dynamic-provider host of
// @pulumi/pulumi (cmd/dynamic-provider) prints `${error}: ${error.stack}` to stderr, which
// the engine shows under the resource, and then returns the error, whose message the engine
// shows again: the user reads the message three times and a stack trace into our code. This
// module runs in that host process: an expected refusal (an error we raised for the user:
// the delete guard, a missing setting, a service answer) is kept off stderr, so the engine's
// copy is the only one; a programming error (TypeError and the like) keeps its stack, printed
// once.

import { isProgrammingError } from "../../client/service-failures";

/** Host lines waiting to be printed: line → what to print instead (undefined: nothing). */
type PendingLines = Map<string, string | undefined>;

const KEY = Symbol.for("pulumi-embedded-connectors/report-once");
/** Bounds what a host that printed nothing (a newer SDK that changed its logging) leaves behind. */
const MAX_PENDING = 100;

/** Runs a provider operation that the host logs on failure; see the module comment. */
export async function reportOnce<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof Error) expectHostLine(error);
    throw error;
  }
}

function expectHostLine(error: Error): void {
  const pending = consoleFilter();
  if (pending.size >= MAX_PENDING) pending.clear();
  // Exactly what the host passes to console.error.
  const hostLine = `${error}: ${error.stack}`;
  pending.set(hostLine, isProgrammingError(error) ? (error.stack ?? String(error)) : undefined);
}

/** Wraps console.error once per process (two copies of this module share the wrapper). */
function consoleFilter(): PendingLines {
  const holder = globalThis as { [KEY]?: PendingLines };
  const existing = holder[KEY];
  if (existing) return existing;
  const pending: PendingLines = new Map();
  const original = console.error.bind(console);
  console.error = (...args: unknown[]): void => {
    const line = args[0];
    if (args.length === 1 && typeof line === "string" && pending.has(line)) {
      const replacement = pending.get(line);
      pending.delete(line);
      if (replacement !== undefined) original(replacement);
      return;
    }
    original(...args);
  };
  holder[KEY] = pending;
  return pending;
}
