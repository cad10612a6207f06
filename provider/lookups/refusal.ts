// A lookup that fails in the program process is an expected refusal (a name not in the
// catalogue, a missing setting, an answer of the service): one message, once, no stack.
// Why marked as a RunError, with a stack of its message alone: @pulumi/pulumi prints any other uncaught
// error with `util.inspect(error, { colors: true })`, and on Node.js 20 that loops in
// `markNodeModules` over a frame such as `/node_modules/@pulumi/output.ts` (which
// @pulumi/pulumi's own source maps produce) until the string is too long: about 30 s of CPU
// before the error shows. A RunError is printed as its message, and a stack
// without frames leaves nothing for that loop.
import * as pulumi from "@pulumi/pulumi";
import { isProgrammingError } from "../client/service-failures";

/**
 * How the Node SDK knows a RunError, in whichever copy of @pulumi/pulumi (its `RunError.isInstance`
 * checks this member): set on the lookup's own error, which keeps its class and fields
 * (`status`, `requestId`, `argument`, …) for a program that catches it.
 */
const RUN_ERROR_MARK = "__pulumiRunError";

/** The error a failed lookup rejects with: an expected refusal marked to print as its message alone; a bug as it is. */
export function asRefusal(error: unknown): unknown {
  if (pulumi.RunError.isInstance(error)) return error;
  if (!(error instanceof Error) || isProgrammingError(error)) return error;
  Object.defineProperty(error, RUN_ERROR_MARK, { value: true, configurable: true });
  error.stack = error.message;
  return error;
}
