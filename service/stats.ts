// Request counts for benchmarks and tests (GET /_admin/stats).
import { z } from "zod";

/**
 * Stats: `{ byRoute: { "POST /es/v2/connectors": { "200": 3, "429": 1 }, … }, tokenRequests: 4 }`.
 * Keys are "METHOD /pattern" as registered ("GET /es/v2/connectors/:connectorId");
 * requests that match no route count under "METHOD <unmatched>". Status keys are
 * the HTTP status, or "reset" / "dropped" for sockets destroyed by fault injection.
 * /_admin/* requests are not counted.
 */
export const StatsSchema = z.object({
  byRoute: z.record(z.string(), z.record(z.string(), z.number().int())),
  tokenRequests: z.number().int(),
});
export type Stats = z.infer<typeof StatsSchema>;

export class StatsRecorder {
  private byRoute = new Map<string, Map<string, number>>();
  private tokenRequests = 0;

  record(routeKey: string, status: string): void {
    let statuses = this.byRoute.get(routeKey);
    if (!statuses) {
      statuses = new Map();
      this.byRoute.set(routeKey, statuses);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  countTokenRequest(): void {
    this.tokenRequests++;
  }

  snapshot(): Stats {
    const byRoute: Stats["byRoute"] = {};
    for (const [route, statuses] of this.byRoute) byRoute[route] = Object.fromEntries(statuses);
    return { byRoute, tokenRequests: this.tokenRequests };
  }

  reset(): void {
    this.byRoute.clear();
    this.tokenRequests = 0;
  }
}
