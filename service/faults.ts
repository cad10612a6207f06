// Fault injection: lets the client's retry logic and the provider's recovery be
// tested against exact, reproducible failures of a real HTTP server.
import { z } from "zod";

/**
 * FaultSettings — what PUT /_admin/faults takes (it replaces the whole set;
 * `{ "rules": [] }` turns every fault off):
 *
 * ```
 * {
 *   seed?: number,               // seeds the PRNG behind `rate` and jitter (default 1)
 *   rules: [{
 *     route?: string,            // "METHOD /pattern" as registered, e.g. "POST /es/v2/connectors"
 *                                // or "GET /es/v2/connectors/:connectorId"; omitted or "*" = every
 *                                // public route (never /_admin/*)
 *     mode: "latency" | "error" | "rateLimit" | "reset" | "commitThenDrop" | "expireToken"
 *           | "quoteBack",
 *     rate?: number,             // chance 0..1 that a matching request is hit (default 1)
 *     count?: number,            // the rule hits at most this many requests, then is spent
 *     latencyMs?: number,        // latency: delay = latencyMs + uniform[0, jitterMs)
 *     jitterMs?: number,
 *     status?: 500 | 503,        // error: the status (default: 500 or 503, drawn from the PRNG)
 *     retryAfterSeconds?: number,// rateLimit: the Retry-After header (default 1)
 *     refusalStatus?: number,    // quoteBack: the refusal's status, 400..499 (default 400)
 *     inBody?: boolean           // quoteBack: answered as HTTP 200 with the status in the body
 *   }]
 * }
 * ```
 *
 * Latency rules add up and the request goes on; of the other rules the first
 * that hits decides: `error` answers 500/503, `rateLimit` answers 429,
 * `reset` destroys the socket without answering (nothing is done), and
 * `commitThenDrop` runs the handler (the change is saved) then destroys the
 * socket instead of answering. `{ mode: "error", count: 2 }` therefore fails
 * exactly the next two requests. `expireToken` ends the life of the caller's
 * bearer token now, before the lifetime it was issued with: that request and
 * every later one with the token get 401 "access token expired" (a token the
 * service stops honouring before the client's own early renewal; no effect on
 * routes without a bearer token). `quoteBack` refuses the request, once its body is read, with
 * a text that quotes every value sent in other forms (upper-cased, truncated, base64, …:
 * quote-back.ts), as a careless service does; `inBody` sends that refusal inside a 200, the
 * hosted service's convention (a served profile with `errorStatusIn: body` does so already).
 */
export const FaultModeSchema = z.enum([
  "latency",
  "error",
  "rateLimit",
  "reset",
  "commitThenDrop",
  "expireToken",
  "quoteBack",
]);
export const FaultRuleSchema = z
  .object({
    route: z.string().min(1).optional(),
    mode: FaultModeSchema,
    rate: z.number().min(0).max(1).optional(),
    count: z.number().int().min(0).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    jitterMs: z.number().int().min(0).max(60_000).optional(),
    status: z.union([z.literal(500), z.literal(503)]).optional(),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    refusalStatus: z.number().int().min(400).max(499).optional(),
    inBody: z.boolean().optional(),
  })
  .strict();
export const FaultSettingsSchema = z
  .object({ seed: z.number().int().optional(), rules: z.array(FaultRuleSchema).max(100) })
  .strict();

export type FaultMode = z.infer<typeof FaultModeSchema>;
export type FaultRule = z.infer<typeof FaultRuleSchema>;
export type FaultSettings = z.infer<typeof FaultSettingsSchema>;

export type FaultAction =
  | { kind: "error"; status: 500 | 503 }
  | { kind: "rateLimit"; retryAfterSeconds: number }
  | { kind: "reset" }
  | { kind: "commitThenDrop" }
  | { kind: "expireToken" }
  | { kind: "quoteBack"; status: number; inBody: boolean };

export interface FaultDecision {
  delayMs: number;
  action?: FaultAction;
}

/** A small seedable PRNG (mulberry32): the same seed gives the same faults. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds settings from the --latency-ms and --fault-rate flags. */
export function faultsFromFlags(latencyMs: number, faultRate: number): FaultSettings {
  const rules: FaultRule[] = [];
  if (latencyMs > 0) rules.push({ mode: "latency", latencyMs, jitterMs: Math.ceil(latencyMs / 2) });
  if (faultRate > 0) rules.push({ mode: "error", rate: faultRate });
  return { rules };
}

export class FaultInjector {
  private rules: FaultRule[] = [];
  private remaining: (number | undefined)[] = [];
  private random: () => number = prng(1);

  constructor(settings?: FaultSettings) {
    this.set(settings ?? { rules: [] });
  }

  set(settings: FaultSettings): void {
    const parsed = FaultSettingsSchema.parse(settings);
    this.rules = parsed.rules;
    this.remaining = parsed.rules.map((r) => r.count);
    this.random = prng(parsed.seed ?? 1);
  }

  get settings(): FaultSettings {
    return {
      rules: this.rules.map((r, i) => ({ ...r, ...(r.count === undefined ? {} : { count: this.remaining[i] }) })),
    };
  }

  /** Decides what happens to one request of `routeKey` ("METHOD /pattern"). */
  decide(routeKey: string): FaultDecision {
    const decision: FaultDecision = { delayMs: 0 };
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i];
      if (rule.route !== undefined && rule.route !== "*" && rule.route !== routeKey) continue;
      const left = this.remaining[i];
      if (left !== undefined && left <= 0) continue;
      if (rule.mode !== "latency" && decision.action) continue;
      const rate = rule.rate ?? 1;
      // Always draw when the rate is partial, so the sequence depends only on the seed and the traffic.
      if (rate < 1 && this.random() >= rate) continue;
      if (left !== undefined) this.remaining[i] = left - 1;
      switch (rule.mode) {
        case "latency":
          decision.delayMs += (rule.latencyMs ?? 0) + Math.floor(this.random() * (rule.jitterMs ?? 0));
          break;
        case "error":
          decision.action = { kind: "error", status: rule.status ?? (this.random() < 0.5 ? 500 : 503) };
          break;
        case "rateLimit":
          decision.action = { kind: "rateLimit", retryAfterSeconds: rule.retryAfterSeconds ?? 1 };
          break;
        case "reset":
          decision.action = { kind: "reset" };
          break;
        case "commitThenDrop":
          decision.action = { kind: "commitThenDrop" };
          break;
        case "expireToken":
          decision.action = { kind: "expireToken" };
          break;
        case "quoteBack":
          decision.action = { kind: "quoteBack", status: rule.refusalStatus ?? 400, inBody: rule.inBody === true };
          break;
      }
    }
    return decision;
  }
}
