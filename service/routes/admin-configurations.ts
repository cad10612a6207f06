// The admin routes of the web page (service/ui/), also for scripts: what each sub-account
// holds, a configuration change that sends only the fields it changes, and Remove through the
// same delete guard as the contract's route. Admin routes: header x-admin-key, no stats, no faults.
import { z } from "zod";
import { requests } from "../../contract/requests";
import { strict } from "../../contract/views";
import { responses } from "../domain/schemas";
import { overview } from "../domain/overview";
import type { App, ServiceContext } from "../context";
import { ok } from "../envelope";

const config = { auth: "admin" as const };
const base = { hide: true, tags: ["admin"] };

const OverviewSchema = z.object({
  customers: z.array(
    z.object({
      clientId: z.string(),
      organizationAccountId: z.string(),
      subAccounts: z.array(
        z.object({
          accountId: z.string(),
          connectors: z.array(
            z.object({
              connectorId: z.string(),
              name: z.string(),
              supportedType: z.string(),
              configured: z.boolean(),
              lastUpdated: z.number(),
              srcConnections: z.number(),
              destConnections: z.number(),
              fields: z.array(strict.FieldDescriptor.extend({ set: z.boolean().optional() })),
            }),
          ),
          connections: z.array(
            z.object({ connectionId: z.string(), sourceConnectorId: z.string(), destinationConnectorId: z.string() }),
          ),
        }),
      ),
    }),
  ),
});

export function adminConfigurationRoutes(app: App, ctx: ServiceContext): void {
  app.get("/_admin/overview", { config, schema: { ...base, response: responses(OverviewSchema) } }, async () =>
    ok(overview(ctx.repo, ctx.connectors)),
  );

  /** A connector's configuration by its id and sub-account, with field values in the body. */
  const byConnector = {
    ...base,
    params: requests.ConnectorParams,
    querystring: z.object({ accountId: z.string() }),
    body: z.object({ secretConfig: z.record(z.string(), requests.FieldValue) }),
  };

  /** Only the fields in the body change; the others (Passwords too) keep their stored values. */
  app.patch(
    "/_admin/configurations/:connectorId",
    {
      config,
      schema: { ...byConnector, response: responses(strict.ConnectorConfigurationView) },
    },
    async (request) => {
      const { accountId } = request.query;
      const { connectorId } = request.params;
      return ok(ctx.connectors.mergeConfiguration(accountId, connectorId, request.body.secretConfig));
    },
  );

  /** Whether the service holds each value given (a Password by its digest): true or false, never a value. */
  app.post(
    "/_admin/configurations/:connectorId/holds",
    {
      config,
      schema: { ...byConnector, response: responses(z.record(z.string(), z.boolean())) },
    },
    async (request) =>
      ok(ctx.connectors.holds(request.query.accountId, request.params.connectorId, request.body.secretConfig)),
  );

  /** The contract's Remove, guard included (409 while connections use the connector). */
  app.delete(
    "/_admin/connectors/:connectorId",
    {
      config,
      schema: {
        ...base,
        params: requests.ConnectorParams,
        querystring: z.object({ accountId: z.string() }),
        response: responses(strict.RemoveResult),
      },
    },
    async (request) => ok(ctx.connectors.remove(request.query.accountId, request.params.connectorId)),
  );
}
