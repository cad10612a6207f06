import assert from "node:assert/strict";
import { z } from "zod";
import { ResponseFormatError } from "./";
import { formatPath, loose, parseEnvelope, parseToken } from "./schemas";
import { configurationPayload, viewA, viewG } from "../../test/support/client-fakes";
import { routeLabel } from "../../contract/routes";

const ctx = { route: routeLabel("listAddedConnectors"), requestId: "req-7", status: 200 };
const env = (response: unknown, statusCode = 200) => ({ statusCode, statusMessage: "OK", response });

function formatError(fn: () => unknown): ResponseFormatError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ResponseFormatError, String(error));
    return error;
  }
  assert.fail("expected a ResponseFormatError");
}

describe("client schemas", () => {
  it("accepts every view and keeps unknown extra fields", () => {
    const a = parseEnvelope(loose.AddedConnectorView, env(viewA("0123456789abcdef", { futureField: 1 })), ctx);
    assert.equal(a.connectorId, "0123456789abcdef");
    assert.equal((a as Record<string, unknown>).futureField, 1);
    const g = parseEnvelope(loose.Connector, env(viewG("0123456789abcdef")), ctx);
    assert.equal(g.integrated, true);
    const { editable: _e, env: _v, ...s } = viewA("0123456789abcdef");
    assert.equal(parseEnvelope(loose.SupportedConnector, env(s), ctx).srcConnections, 0);
    const { configured: _c, description: _d, srcConnections: _s, destConnections: _dc, ...l } = s;
    assert.equal(parseEnvelope(loose.CatalogueConnector, env(l), ctx).transfer, true);
    const conf = parseEnvelope(loose.ConnectorConfigurationView, env(configurationPayload()), ctx);
    assert.equal(conf.secretConfig[0].configuration[1].options?.[1], "us");
    const added = parseEnvelope(
      loose.AddResult,
      env({ added: [viewA("0123456789abcdef")], alreadyAdded: ["fedcba9876543210"] }),
      ctx,
    );
    assert.deepEqual(added.alreadyAdded, ["fedcba9876543210"]);
  });

  it("accepts optional fields absent, open field types and new enum values of open lists", () => {
    const { docUrl: _d, ...g } = viewG("0123456789abcdef");
    assert.equal(
      parseEnvelope(loose.Connector, env({ ...g, dataType: "a type from next year" }), ctx).docUrl,
      undefined,
    );
    const payload = configurationPayload();
    const conf = parseEnvelope(
      loose.ConnectorConfigurationView,
      env({ ...payload, configuration: [{ id: "x", label: "X", type: "Color", required: false, readonly: false }] }),
      ctx,
    );
    assert.equal(conf.configuration[0].type, "Color");
  });

  it("accepts statusCode 0 or equal to the HTTP status, refuses anything else", () => {
    assert.equal(parseEnvelope(z.string(), env("x", 0), ctx), "x");
    assert.equal(parseEnvelope(z.string(), env("x", 200), ctx), "x");
    const error = formatError(() => parseEnvelope(z.string(), env("x", 500), ctx));
    assert.equal(error.fieldPath, "statusCode");
  });

  it("names the route and the field path of a missing or mistyped field", () => {
    const page = loose.page(loose.AddedConnectorView);
    const items = [viewA("0123456789abcdef"), viewA("fedcba9876543210", { srcConnections: "2" })];
    const error = formatError(() => parseEnvelope(page, env({ items, page: 1, pageSize: 50, total: 2 }), ctx));
    assert.equal(error.fieldPath, "response.items[1].srcConnections");
    assert.equal(error.route, routeLabel("listAddedConnectors"));
    assert.match(
      error.message,
      /^GET \/es\/v2\/connectors\/added: 200 the answer breaks the contract: response\.items\[1\]\.srcConnections: /,
    );
    assert.match(error.message, /request id req-7/);

    const { name: _n, ...noName } = viewA("0123456789abcdef");
    assert.equal(
      formatError(() => parseEnvelope(loose.AddedConnectorView, env(noName), ctx)).fieldPath,
      "response.name",
    );
    // A supportedType of the service's own (a connector usable on both sides) is kept, not refused.
    assert.equal(
      parseEnvelope(loose.AddedConnectorView, env(viewA("0123456789abcdef", { supportedType: "Both" })), ctx)
        .supportedType,
      "Both",
    );
    assert.equal(formatError(() => parseEnvelope(loose.AddedConnectorView, env(null), ctx)).fieldPath, "response");
    assert.equal(formatError(() => parseEnvelope(loose.AddedConnectorView, [1, 2], ctx)).fieldPath, "");
  });

  it("reads the token bare or enveloped, and never quotes it when malformed", () => {
    const bare = { accessToken: "tok-secret-1", tokenType: "Bearer", expiry: 60 };
    assert.equal(parseToken(bare, ctx).accessToken, "tok-secret-1");
    assert.equal(parseToken(env(bare), ctx).expiry, 60);
    const error = formatError(() =>
      parseToken({ accessToken: "tok-secret-1", tokenType: "Bearer", expiry: "60" }, ctx),
    );
    assert.equal(error.fieldPath, "expiry");
    assert.doesNotMatch(error.message, /tok-secret-1/);
    assert.equal(
      formatError(() => parseToken(env({ tokenType: "Bearer", expiry: 1 }), ctx)).fieldPath,
      "response.accessToken",
    );
  });

  it("formats paths", () => {
    assert.equal(formatPath([]), "");
    assert.equal(formatPath(["response", "items", 0, "name"]), "response.items[0].name");
    assert.equal(formatPath([2, "x"]), "[2].x");
  });
});
