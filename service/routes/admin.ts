// /_admin/*: outside the specification, for tests, demos and benchmarks.
// Registered only when an admin key is configured; hidden from the OpenAPI document.
import { z } from "zod";
import { FaultSettingsSchema } from "../faults";
import { requests } from "../../contract/requests";
import { responses } from "../domain/schemas";
import { StatsSchema } from "../stats";
import type { App, ServiceContext } from "../context";
import { ok } from "../envelope";

const config = { auth: "admin" as const };
const base = { hide: true, tags: ["admin"] };

export function adminRoutes(app: App, ctx: ServiceContext): void {
  app.post(
    "/_admin/connections",
    {
      config,
      schema: {
        ...base,
        body: z.object({
          accountId: z.string(),
          sourceConnectorId: requests.ConnectorId,
          destinationConnectorId: requests.ConnectorId,
        }),
        response: responses(z.object({ connectionId: z.string() })),
      },
    },
    async (request) => {
      const b = request.body;
      return ok(ctx.admin.createConnection(b.accountId, b.sourceConnectorId, b.destinationConnectorId));
    },
  );

  app.delete(
    "/_admin/connections/:connectionId",
    {
      config,
      schema: {
        ...base,
        params: z.object({ connectionId: z.string() }),
        response: responses(z.object({ deleted: z.string() })),
      },
    },
    async (request) => ok(ctx.admin.deleteConnection(request.params.connectionId)),
  );

  app.get(
    "/_admin/customers",
    {
      config,
      schema: {
        ...base,
        response: responses(
          z.array(
            z.object({ clientId: z.string(), organizationAccountId: z.string(), subAccountIds: z.array(z.string()) }),
          ),
        ),
      },
    },
    async () => ok(ctx.admin.customers()),
  );

  /** Idempotent: the customer ends with at least `count` sub-accounts (ids stable across runs). */
  app.post(
    "/_admin/sub-accounts",
    {
      config,
      schema: {
        ...base,
        body: z.object({ clientId: z.string(), count: z.number().int() }),
        response: responses(z.object({ clientId: z.string(), subAccountIds: z.array(z.string()) })),
      },
    },
    async (request) => ok(ctx.admin.ensureSubAccounts(request.body.clientId, request.body.count)),
  );

  app.get("/_admin/stats", { config, schema: { ...base, response: responses(StatsSchema) } }, async () =>
    ok(ctx.stats.snapshot()),
  );

  app.get("/_admin/faults", { config, schema: { ...base, response: responses(FaultSettingsSchema) } }, async () =>
    ok(ctx.faults.settings),
  );

  app.put(
    "/_admin/faults",
    {
      config,
      schema: { ...base, body: FaultSettingsSchema, response: responses(FaultSettingsSchema) },
    },
    async (request) => {
      ctx.faults.set(request.body);
      return ok(ctx.faults.settings);
    },
  );

  /** Back to the seed: added connectors, configurations, connections, stats, faults, rate buckets. Tokens stay valid. */
  app.post(
    "/_admin/reset",
    { config, schema: { ...base, response: responses(z.object({ reset: z.boolean() })) } },
    async () => {
      ctx.admin.reset();
      ctx.stats.reset();
      ctx.faults.set({ rules: [] });
      ctx.limiter.reset();
      return ok({ reset: true });
    },
  );
}
