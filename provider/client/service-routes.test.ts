// The client against the local service on an ephemeral port: every route and every error mapping.
import assert from "node:assert/strict";
import {
  AuthenticationError,
  ConflictError,
  ForbiddenError,
  InvalidArgumentError,
  NotFoundError,
  ValidationError,
  collect,
  getClient,
} from "./";
import { isSecretField } from "../schema/secret-fields";
import { secretConfigFor, useLocalService } from "../../test/support/local-client";
import { routeKey, routeLabel } from "../../contract/routes";

describe("client against the local service: routes and errors", function () {
  this.timeout(30_000);
  const ctx = useLocalService();

  describe("routes", () => {
    it("walks the connector lifecycle through every route", async () => {
      const client = getClient(ctx.credentials());
      const g = await client.getConnector(ctx.account, ctx.source.connectorId);
      assert.equal(g.name, ctx.source.name);
      assert.equal(typeof g.integrated, "boolean");

      const added = await client.addConnectors(ctx.account, [ctx.source.connectorId, ctx.destination.connectorId]);
      assert.deepEqual(
        added.added.map((a) => a.connectorId).sort(),
        [ctx.source.connectorId, ctx.destination.connectorId].sort(),
      );
      assert.deepEqual(added.alreadyAdded, []);
      assert.equal(added.retried, false);
      const again = await client.addConnectors(ctx.account, [ctx.source.connectorId]);
      assert.deepEqual(again.alreadyAdded, [ctx.source.connectorId]);

      const listed = await collect(client.listAddedConnectors(ctx.account));
      assert.equal(listed.length, 2);
      const sources = await collect(client.listAddedConnectors(ctx.account, { supportedType: "Source" }));
      assert.deepEqual(
        sources.map((s) => s.connectorId),
        [ctx.source.connectorId],
      );

      const supported = await collect(client.listSupportedConnectors(ctx.account, ctx.source.connectorId));
      assert.ok(supported.length > 0);
      assert.ok(supported.every((s) => s.supportedType === "Destination"));

      const before = await client.getConfiguration(ctx.account, ctx.source.connectorId);
      assert.equal(before.configured, false);
      assert.equal(before.lastUpdated, 0);
      const secretConfig = secretConfigFor(before);
      const configured = await client.configure(ctx.account, ctx.source.connectorId, {
        configurationId: before.secretConfig[0].configurationId,
        secretConfig,
      });
      assert.equal(configured.configured, true);
      assert.ok((configured.lastUpdated ?? 0) > 0);
      const password = configured.configuration.find((f) => isSecretField(f, undefined));
      assert.equal(password?.value, undefined, "Password values are never returned");

      await client.removeConnector(ctx.account, ctx.source.connectorId);
      assert.deepEqual(
        (await collect(client.listAddedConnectors(ctx.account))).map((a) => a.connectorId),
        [ctx.destination.connectorId],
      );
      assert.equal((await client.getConfiguration(ctx.account, ctx.source.connectorId)).configured, false);
      assert.equal(client.tokenRequests, 1);
    });

    it("filters List Connectors and walks more than one page", async () => {
      const client = ctx.direct({ pageSize: 20 });
      const all = await collect(client.listConnectors(ctx.account));
      assert.equal(all.length, ctx.catalogue.length);
      assert.ok(ctx.catalogue.length > 40, "the seed catalogue spans several pages of 20");
      assert.equal(new Set(all.map((c) => c.connectorId)).size, all.length);
      assert.equal((await ctx.routeStats(routeKey("listConnectors")))["200"], Math.ceil(ctx.catalogue.length / 20));
      const named = await collect(
        client.listConnectors(ctx.account, { name: ctx.source.name.slice(0, 4).toLowerCase() }),
      );
      assert.ok(named.some((c) => c.connectorId === ctx.source.connectorId));
      const typed = await collect(
        client.listConnectors(ctx.account, { dataType: ctx.source.dataType as never, supportedType: "Source" }),
      );
      assert.ok(
        typed.length > 0 && typed.every((c) => c.dataType === ctx.source.dataType && c.supportedType === "Source"),
      );
    });

    it("shares one token among many concurrent calls", async () => {
      const client = ctx.direct();
      await Promise.all(ctx.catalogue.slice(0, 30).map((c) => client.getConnector(ctx.account, c.connectorId)));
      assert.equal((await ctx.svc.stats()).tokenRequests, 1);
      assert.equal(client.tokenRequests, 1);
    });

    it("makes no request at all for a bad id", async () => {
      const client = ctx.direct();
      await assert.rejects(client.getConnector(ctx.account, "not-an-id"), InvalidArgumentError);
      await assert.rejects(client.addConnectors(ctx.account, [ctx.source.connectorId, "0123"]), InvalidArgumentError);
      await assert.rejects(client.removeConnector(ctx.account, "../../_admin/x"), InvalidArgumentError);
      assert.throws(() => client.listSupportedConnectors(ctx.account, ""), InvalidArgumentError);
      assert.deepEqual(await ctx.svc.stats(), { byRoute: {}, tokenRequests: 0 });
    });
  });

  describe("error mapping", () => {
    it("401: wrong client secret", async () => {
      const client = ctx.direct({ clientSecret: "not-the-secret" });
      await assert.rejects(client.getConnector(ctx.account, ctx.source.connectorId), (e: unknown) => {
        assert.ok(e instanceof AuthenticationError);
        assert.equal(e.status, 401);
        assert.equal(e.route, routeLabel("getToken"));
        assert.match(e.message, /request id \S+\)$/);
        assert.doesNotMatch(e.message, /not-the-secret/);
        return true;
      });
      assert.deepEqual(await ctx.routeStats(routeKey("getToken")), { "401": 1 });
    });

    it("403: a sub-account of another customer", async () => {
      const other = ctx.svc.customers[1].subAccountIds[0];
      await assert.rejects(
        ctx.direct().getConnector(other, ctx.source.connectorId),
        (e: unknown) => e instanceof ForbiddenError && e.status === 403 && !e.retryable,
      );
    });

    it("400: the organization account", async () => {
      const org = ctx.svc.customers[0].organizationAccountId;
      await assert.rejects(
        ctx.direct().addConnectors(org, [ctx.source.connectorId]),
        (e: unknown) => e instanceof ValidationError && /sub-accounts/.test(e.statusMessage),
      );
    });

    it("404: unknown connector, and configuring one that is not added", async () => {
      const client = ctx.direct();
      await assert.rejects(client.getConnector(ctx.account, "0000000000000000"), NotFoundError);
      await assert.rejects(
        client.addConnectors(ctx.account, [ctx.source.connectorId, "0000000000000000"]),
        NotFoundError,
      );
      assert.deepEqual(await collect(client.listAddedConnectors(ctx.account)), [], "Add is atomic");
      const conf = await client.getConfiguration(ctx.account, ctx.source.connectorId);
      await assert.rejects(
        client.configure(ctx.account, ctx.source.connectorId, {
          configurationId: conf.secretConfig[0].configurationId,
          secretConfig: secretConfigFor(conf),
        }),
        // A Configure carried secrets: the status and request id, none of the service's text.
        (e: unknown) => e instanceof NotFoundError && e.statusMessage === "Not Found" && e.requestId !== "",
      );
      await assert.rejects(client.removeConnector(ctx.account, ctx.source.connectorId), NotFoundError);
    });

    it("409: removing a connector used in a connection, with the counts", async () => {
      const client = ctx.direct();
      await client.addConnectors(ctx.account, [ctx.source.connectorId, ctx.destination.connectorId]);
      const connection = await ctx.svc.createConnection(
        ctx.account,
        ctx.source.connectorId,
        ctx.destination.connectorId,
      );
      await assert.rejects(client.removeConnector(ctx.account, ctx.source.connectorId), (e: unknown) => {
        assert.ok(e instanceof ConflictError);
        assert.equal(e.srcConnections, 1);
        assert.equal(e.destConnections, 0);
        assert.match(e.message, /srcConnections=1, destConnections=0/);
        return true;
      });
      await assert.rejects(
        client.removeConnector(ctx.account, ctx.destination.connectorId),
        (e: unknown) => e instanceof ConflictError && e.destConnections === 1,
      );
      assert.deepEqual(await ctx.routeStats(routeKey("removeConnector")), { "409": 2 });
      await ctx.svc.deleteConnection(connection);
      await client.removeConnector(ctx.account, ctx.source.connectorId);
    });

    it("400: validation with one field error per field, nothing saved", async () => {
      const client = ctx.direct();
      await client.addConnectors(ctx.account, [ctx.source.connectorId]);
      const conf = await client.getConfiguration(ctx.account, ctx.source.connectorId);
      const readonly = conf.secretConfig[0].configuration.find((f) => f.readonly);
      const secretConfig: Record<string, string> = { notAField: "x", ...(readonly ? { [readonly.id]: "y" } : {}) };
      await assert.rejects(
        client.configure(
          ctx.account,
          ctx.source.connectorId,
          { configurationId: conf.secretConfig[0].configurationId, secretConfig },
          { fieldIds: conf.secretConfig[0].configuration.map((f) => f.id) },
        ),
        (e: unknown) => {
          assert.ok(e instanceof ValidationError);
          const fields = e.fieldErrors.map((f) => f.field);
          assert.ok(fields.includes("secretConfig.notAField"), fields.join());
          if (readonly) assert.ok(fields.includes(`secretConfig.${readonly.id}`), fields.join());
          const required = conf.secretConfig[0].configuration.filter((f) => f.required);
          for (const field of required) assert.ok(fields.includes(`secretConfig.${field.id}`), field.id);
          return true;
        },
      );
      assert.equal((await client.getConfiguration(ctx.account, ctx.source.connectorId)).configured, false);
    });
  });
});
