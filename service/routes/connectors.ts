// The connector operations at the contract's routes (contract/routes.ts), with the contract's
// requests and views; the rules live in domain/.
import type { OperationName } from "../../contract/routes";
import { requests } from "../../contract/requests";
import { strict } from "../../contract/views";
import { responses } from "../domain/schemas";
import type { App, ServiceContext } from "../context";
import { ok } from "../envelope";
import { contractRoute } from "./contract-route";

const config = { auth: "bearer" as const, accountScoped: true };
const tags = ["connectors"];
const security = [{ bearerAuth: [] }];
const { AccountQuery, ConnectorParams } = requests;

/** Method, path and settings of a connector route, and the OpenAPI fields of its schema. */
function at(operation: OperationName) {
  const { summary, ...route } = contractRoute(operation);
  return { route: { ...route, config }, doc: { tags, security, summary } };
}

export function connectorRoutes(app: App, ctx: ServiceContext): void {
  const c = ctx.connectors;

  const list = at("listConnectors");
  app.route({
    ...list.route,
    schema: {
      ...list.doc,
      querystring: requests.ListQuery,
      response: responses(strict.page(strict.CatalogueConnector)),
    },
    handler: async (request) => ok(c.list(request.query)),
  });

  const add = at("addConnectors");
  app.route({
    ...add.route,
    schema: {
      ...add.doc,
      querystring: AccountQuery,
      body: requests.AddConnectorsBody,
      response: responses(strict.AddResult),
    },
    handler: async (request) => ok(c.add(request.query.accountId, request.body.connectorIds)),
  });

  const added = at("listAddedConnectors");
  app.route({
    ...added.route,
    schema: {
      ...added.doc,
      querystring: requests.ListQuery,
      response: responses(strict.page(strict.AddedConnectorView)),
    },
    handler: async (request) => ok(c.listAdded(request.query.accountId, request.query)),
  });

  const supported = at("listSupportedConnectors");
  app.route({
    ...supported.route,
    schema: {
      ...supported.doc,
      querystring: requests.SupportedQuery,
      response: responses(strict.page(strict.SupportedConnector)),
    },
    handler: async (request) => {
      const q = request.query;
      return ok(c.listSupported(q.accountId, q.connectorId, q.page, q.pageSize));
    },
  });

  const get = at("getConnector");
  app.route({
    ...get.route,
    schema: { ...get.doc, params: ConnectorParams, querystring: AccountQuery, response: responses(strict.Connector) },
    handler: async (request) => ok(c.getConnector(request.params.connectorId)),
  });

  const getConfiguration = at("getConfiguration");
  app.route({
    ...getConfiguration.route,
    schema: {
      ...getConfiguration.doc,
      params: ConnectorParams,
      querystring: AccountQuery,
      response: responses(strict.ConnectorConfigurationView),
    },
    handler: async (request) => ok(c.getConfiguration(request.query.accountId, request.params.connectorId)),
  });

  const configure = at("configure");
  app.route({
    ...configure.route,
    schema: {
      ...configure.doc,
      params: ConnectorParams,
      querystring: AccountQuery,
      body: requests.ConfigureBody,
      response: responses(strict.ConnectorConfigurationView),
    },
    handler: async (request) => ok(c.configure(request.query.accountId, request.params.connectorId, request.body)),
  });

  const remove = at("removeConnector");
  app.route({
    ...remove.route,
    schema: {
      ...remove.doc,
      params: ConnectorParams,
      querystring: AccountQuery,
      response: responses(strict.RemoveResult),
    },
    handler: async (request) => ok(c.remove(request.query.accountId, request.params.connectorId)),
  });
}
