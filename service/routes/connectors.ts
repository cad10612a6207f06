// The connector operations at the contract's routes; the rules live in domain/.
import { z } from "zod";
import {
  AccountQuery, AddBodySchema, ConfigurationSchema, ConfigureBodySchema, ConnectorParams, ConnectorViewA,
  ConnectorViewG, ConnectorViewL, ConnectorViewS, ListQuery, SupportedQuery, page, responses,
} from "../domain/schemas";
import { ok, type App, type ServiceContext } from "../context";

const PREFIX = "/es/v2/connectors";
const config = { auth: "bearer" as const, accountScoped: true };
const tags = ["connectors"];
const security = [{ bearerAuth: [] }];

export function connectorRoutes(app: App, ctx: ServiceContext): void {
  const c = ctx.connectors;

  app.get(PREFIX, {
    config,
    schema: { tags, security, summary: "List Connectors", querystring: ListQuery, response: responses(page(ConnectorViewL)) },
  }, async (request) => ok(c.list(request.query)));

  app.post(PREFIX, {
    config,
    schema: {
      tags, security, summary: "Add Connector", querystring: AccountQuery, body: AddBodySchema,
      response: responses(z.object({ added: z.array(ConnectorViewA), alreadyAdded: z.array(z.string()) })),
    },
  }, async (request) => ok(c.add(request.query.accountId, request.body.connectorIds)));

  app.get(`${PREFIX}/added`, {
    config,
    schema: {
      tags, security, summary: "List Added Connectors", querystring: ListQuery, response: responses(page(ConnectorViewA)),
    },
  }, async (request) => ok(c.listAdded(request.query.accountId, request.query)));

  app.get(`${PREFIX}/supported`, {
    config,
    schema: {
      tags, security, summary: "List Supported Connectors", querystring: SupportedQuery,
      response: responses(page(ConnectorViewS)),
    },
  }, async (request) => {
    const q = request.query;
    return ok(c.listSupported(q.accountId, q.connectorId, q.page, q.pageSize));
  });

  app.get(`${PREFIX}/:connectorId`, {
    config,
    schema: {
      tags, security, summary: "Get Connector", params: ConnectorParams, querystring: AccountQuery,
      response: responses(ConnectorViewG),
    },
  }, async (request) => ok(c.getConnector(request.params.connectorId)));

  app.get(`${PREFIX}/:connectorId/configuration`, {
    config,
    schema: {
      tags, security, summary: "Get Connector Configuration", params: ConnectorParams, querystring: AccountQuery,
      response: responses(ConfigurationSchema),
    },
  }, async (request) => ok(c.getConfiguration(request.query.accountId, request.params.connectorId)));

  app.put(`${PREFIX}/:connectorId/configuration`, {
    config,
    schema: {
      tags, security, summary: "Configure Connector", params: ConnectorParams, querystring: AccountQuery,
      body: ConfigureBodySchema, response: responses(ConfigurationSchema),
    },
  }, async (request) => ok(c.configure(request.query.accountId, request.params.connectorId, request.body)));

  app.delete(`${PREFIX}/:connectorId`, {
    config,
    schema: {
      tags, security, summary: "Remove Connector", params: ConnectorParams, querystring: AccountQuery,
      response: responses(z.object({ removed: z.string() })),
    },
  }, async (request) => ok(c.remove(request.query.accountId, request.params.connectorId)));
}
