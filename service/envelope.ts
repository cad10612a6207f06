// The contract's envelope: every JSON answer except the token is
// { statusCode, statusMessage, response } (errors may add `errors`).
import type { Strict } from "../contract/views";

export const OK = "OK";

/** The envelope of a successful answer. */
export function ok<T>(response: T): { statusCode: 200; statusMessage: string; response: T } {
  return { statusCode: 200, statusMessage: OK, response };
}

/** The envelope of a refusal: `response` is null unless the refusal carries one (a 409's counts). */
export function errorEnvelope(
  status: number,
  message: string,
  extra: Partial<Strict<"ErrorEnvelope">> = {},
): Strict<"ErrorEnvelope"> {
  return {
    statusCode: status,
    statusMessage: message,
    response: extra.response ?? null,
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
}
