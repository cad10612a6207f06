// A lookup's refusal names the lookup and the arguments it was given (their names, never a
// value), on both hosts. The engine reports a lookup's error where the program's language puts
// it, not under the lookup (docs/troubleshooting.md: under the Stack, framed as `error serializing
// property …` of the input it fed, in TypeScript; after the program's traceback in Python), so
// the message itself must say which call failed.
import { isProgrammingError } from "../client/service-failures";

/** The error, its message (and stack) led by `<lookup>(<the given arguments' names>): `; a bug as it is. */
export function namedByLookup(error: unknown, lookup: string, args: object): unknown {
  if (!(error instanceof Error) || isProgrammingError(error)) return error;
  const given = Object.entries(args)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name]) => name);
  const prefix = `${lookup}(${given.join(", ")}): `;
  if (error.message.startsWith(prefix)) return error;
  const message = error.message;
  error.message = `${prefix}${message}`;
  if (error.stack) error.stack = error.stack.replace(message, error.message);
  return error;
}

/** A lookup whose refusals name it (namedByLookup). */
export function namedLookup<C, A extends object, R>(
  lookup: string,
  run: (ctx: C, args: A) => Promise<R>,
): (ctx: C, args: A) => Promise<R> {
  return async (ctx, args) => {
    try {
      return await run(ctx, args);
    } catch (error) {
      throw namedByLookup(error, lookup, args);
    }
  };
}
