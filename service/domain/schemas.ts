// The service's wire shapes are the contract's: contract/views.ts in its `strict` form (the
// responses: unknown keys are dropped on output, so nothing leaks) and contract/requests.ts
// (what routes validate). The OpenAPI document is generated from them. Here: how a route
// declares its responses.
import type { z } from "zod";
import { strict } from "../../contract/views";

/** Response map for a route: the payload in the envelope on 200, the error envelope otherwise. */
export function responses<T extends z.ZodType>(payload: T) {
  return { 200: strict.envelope(payload), "4xx": strict.ErrorEnvelope, "5xx": strict.ErrorEnvelope };
}
