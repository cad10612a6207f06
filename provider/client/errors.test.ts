import assert from "node:assert/strict";
import {
  AuthenticationError,
  ConflictError,
  EmbeddedApiError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  ValidationError,
  NOTHING_SENT,
  errorFromResponse,
  redact,
  sentRequestOf,
} from "./";
import { routeLabel } from "../../contract/routes";

const route = routeLabel("removeConnector");
const envelope = (status: number, statusMessage: string, extra: Record<string, unknown> = {}) => ({
  statusCode: status,
  statusMessage,
  response: null,
  ...extra,
});

describe("client errors: errorFromResponse", () => {
  const cases: [number, new (...args: never[]) => EmbeddedApiError, string, boolean][] = [
    [400, ValidationError, "validation", false],
    [401, AuthenticationError, "authentication", false],
    [403, ForbiddenError, "forbidden", false],
    [404, NotFoundError, "not_found", false],
    [409, ConflictError, "conflict", false],
    [429, RateLimitError, "rate_limit", true],
    [500, ServerError, "server", true],
    [502, ServerError, "server", true],
    [503, ServerError, "server", true],
    [504, ServerError, "server", true],
  ];
  for (const [status, type, kind, retryable] of cases) {
    it(`maps ${status} to ${type.name}`, () => {
      const error = errorFromResponse({
        status,
        body: envelope(status, "said the service"),
        requestId: "req-42",
        route,
        sent: NOTHING_SENT,
      });
      assert.ok(error instanceof type);
      assert.ok(error instanceof EmbeddedApiError);
      assert.equal(error.kind, kind);
      assert.equal(error.status, status);
      assert.equal(error.statusMessage, "said the service");
      assert.equal(error.requestId, "req-42");
      assert.equal(error.retryable, retryable);
      assert.equal(error.route, route);
      assert.equal(error.name, type.name);
      assert.match(error.message, /^DELETE \/es\/v2\/connectors\/\{connectorId\}: /);
      assert.match(error.message, /\(request id req-42\)$/);
    });
  }

  it("maps other statuses (413, 415, 3xx) to a final EmbeddedApiError", () => {
    for (const status of [413, 415, 302, 418]) {
      const error = errorFromResponse({ status, body: undefined, requestId: "r", route, sent: NOTHING_SENT });
      assert.equal(error.constructor, EmbeddedApiError);
      assert.equal(error.kind, "http");
      assert.equal(error.retryable, false);
    }
  });

  it("carries the connection counts of a 409", () => {
    const body = envelope(409, "connector is used in connections", {
      response: { srcConnections: 2, destConnections: 1 },
    });
    const error = errorFromResponse({ status: 409, body, requestId: "r", route, sent: NOTHING_SENT });
    assert.ok(error instanceof ConflictError);
    assert.equal(error.srcConnections, 2);
    assert.equal(error.destConnections, 1);
    assert.match(error.message, /srcConnections=2, destConnections=1/);
  });

  it("carries the field errors of a 400, naming fields but not quoting messages", () => {
    const body = envelope(400, "validation failed", {
      errors: [
        { field: "secretConfig.apiKey", message: "is required" },
        { field: "secretConfig.limit", message: "must be at most 10, got 99" },
      ],
    });
    const sent = sentRequestOf({ body: { secretConfig: { apiKey: "k", limit: 5 } }, secrets: [] });
    const error = errorFromResponse({ status: 400, body, requestId: "r", route, sent });
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.fieldErrors, [
      { field: "secretConfig.apiKey", message: "is required" },
      { field: "secretConfig.limit", message: "must be at most 10, got 99" },
    ]);
    assert.match(error.message, /fields secretConfig\.apiKey, secretConfig\.limit/);
    assert.doesNotMatch(error.message, /got 99/);
  });

  it("takes Retry-After of a 429", () => {
    const error = errorFromResponse({
      status: 429,
      body: envelope(429, "slow down"),
      requestId: "r",
      route,
      sent: NOTHING_SENT,
      retryAfterMs: 2000,
    });
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.retryAfterMs, 2000);
  });

  it("falls back to the HTTP reason for bodies that are not the envelope (HTML from a proxy)", () => {
    const error = errorFromResponse({ status: 502, body: undefined, requestId: "r", route, sent: NOTHING_SENT });
    assert.ok(error instanceof ServerError);
    assert.equal(error.statusMessage, "Bad Gateway");
    const odd = errorFromResponse({
      status: 400,
      body: { errors: "nope", statusMessage: 7 },
      requestId: "r",
      route,
      sent: NOTHING_SENT,
    });
    assert.ok(odd instanceof ValidationError);
    assert.deepEqual(odd.fieldErrors, []);
    assert.equal(odd.statusMessage, "Bad Request");
  });

  it("never puts a secret in a message", () => {
    const body = envelope(401, "bad secret s3cr3t-value for token tok-abcdef", {
      errors: [{ field: "x", message: "s3cr3t-value" }],
    });
    const error = errorFromResponse({
      status: 401,
      body,
      requestId: "r",
      route,
      sent: sentRequestOf({ secrets: ["s3cr3t-value", "tok-abcdef"] }),
    });
    assert.doesNotMatch(error.message, /s3cr3t|tok-abcdef/);
    assert.match(error.message, /\[redacted\]/);
    const validation = errorFromResponse({
      status: 400,
      body: { ...body, statusCode: 400 },
      requestId: "r",
      route,
      sent: sentRequestOf({ body: { x: 1 }, secrets: ["s3cr3t-value"] }),
    });
    assert.ok(validation instanceof ValidationError);
    assert.equal(validation.fieldErrors[0].message, "[redacted]");
  });
});

describe("client errors: other classes", () => {
  it("NetworkError has status 0, is retryable, and quotes the route and request id", () => {
    const error = new NetworkError({
      route: "GET /x",
      requestId: "mine-1",
      code: "ECONNRESET",
      detail: "ECONNRESET: socket hang up",
    });
    assert.equal(error.status, 0);
    assert.equal(error.kind, "network");
    assert.equal(error.retryable, true);
    assert.equal(error.code, "ECONNRESET");
    assert.equal(error.message, "GET /x: no answer from the service: ECONNRESET: socket hang up (request id mine-1)");
  });

  it("ResponseFormatError names the field path and is final", () => {
    const error = new ResponseFormatError({
      route: "GET /x",
      requestId: "r",
      status: 200,
      fieldPath: "response.name",
      problem: "response.name: bad",
    });
    assert.equal(error.fieldPath, "response.name");
    assert.equal(error.retryable, false);
    assert.match(error.message, /GET \/x: 200 the answer breaks the contract: response\.name: bad \(request id r\)/);
  });

  it("redact ignores very short strings (they would shred messages)", () => {
    assert.equal(redact("abc def", ["abc"]), "abc def");
    assert.equal(redact("key=longsecret;", ["longsecret"]), "key=[redacted];");
  });
});
