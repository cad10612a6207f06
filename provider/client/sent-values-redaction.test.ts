// A service that quotes what it was sent (a refused secretConfig value) in
// its statusMessage or its per-field messages must not get that value into any error.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import {
  EmbeddedClient,
  Limiter,
  ServerError,
  ValidationError,
  redactSentValues,
  sentValuesOf,
  type ConfigureBody,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import { ACCOUNT, CONNECTOR, ScriptedTransport, failure, tokenAnswer } from "../../test/support/client-fakes";
import { FIELD_REFUSED } from "./service-text";

const API_KEY = "sk_live_4f9a8b7c6d5e4f3a";
const WORKSPACE = "acme-private-workspace";
const LIMIT = 12345;
const REGION = "eu";
const TOKEN = "/api/es/v2/oauth/client-token";
const body: ConfigureBody = {
  configurationId: "c0c0c0c0c0c0c0c0",
  secretConfig: {
    apiKey: API_KEY,
    workspace: WORKSPACE,
    limit: LIMIT,
    region: REGION,
    eventTypes: ["pageview-secret", "track"],
  },
};
const SENT = [API_KEY, WORKSPACE, String(LIMIT), "pageview-secret"];

function clientAnswering(handler: (request: OutgoingRequest) => IncomingResponse): EmbeddedClient {
  const transport = new ScriptedTransport((request) => (request.target === TOKEN ? tokenAnswer() : handler(request)));
  return EmbeddedClient.create(
    { baseUrl: "http://127.0.0.1:1/api", clientId: "demo-client", clientSecret: "very-secret-value" },
    { transport, limiter: new Limiter(4), random: () => 0, sleep: async () => undefined },
  );
}

/** Everything an error shows: message, stack, own fields (statusMessage, fieldErrors) and causes. */
function everything(error: unknown): string {
  return inspect(error, { depth: 10, showHidden: false });
}

function assertNoSentValue(error: unknown): void {
  const shown = everything(error);
  for (const value of SENT) assert.ok(!shown.includes(value), `${value} appears in the error: ${shown}`);
  assert.doesNotMatch(shown, /region "eu"/);
}

describe("client: values the request sent are never quoted back", () => {
  it("a 400 quoting sent values in statusMessage and errors[].message: the error names fields, not values", async () => {
    const client = clientAnswering((request) => {
      const sent = JSON.parse(request.body ?? "{}") as { secretConfig: Record<string, unknown> };
      const { apiKey, workspace, limit } = sent.secretConfig;
      return failure(400, `invalid configuration: key ${String(apiKey)} is revoked; region "eu" is closed`, {
        errors: [
          { field: "secretConfig.apiKey", message: `"${String(apiKey)}" is not a live key` },
          { field: "secretConfig.workspace", message: `unknown workspace ${String(workspace)}` },
          { field: "secretConfig.limit", message: `must be at most 10, got ${String(limit)}` },
          { field: "secretConfig.eventTypes", message: "pageview-secret is not an event type" },
        ],
      });
    });
    const error = await client.configure(ACCOUNT, CONNECTOR, body).then(
      () => assert.fail("expected a ValidationError"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ValidationError);
    assertNoSentValue(error);
    assert.match(
      error.message,
      /fields secretConfig\.apiKey, secretConfig\.workspace, secretConfig\.limit, secretConfig\.eventTypes/,
    );
    // A Configure carried secrets: none of the service's text, only the status's.
    assert.equal(error.statusMessage, "Bad Request");
    assert.deepEqual(
      error.fieldErrors.map((e) => e.message),
      Array(4).fill(FIELD_REFUSED),
    );
  });

  it("a 5xx quoting a sent value, after every retry, does not quote it either", async () => {
    const client = clientAnswering(() => failure(503, `could not store ${API_KEY} for workspace ${WORKSPACE}`));
    const error = await client.configure(ACCOUNT, CONNECTOR, body).then(
      () => assert.fail("expected a ServerError"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServerError);
    assertNoSentValue(error);
    assert.match(error.message, /503 Service Unavailable: the service's text is left out/);
  });
});

describe("client: redactSentValues and sentValuesOf", () => {
  it("collects every string and number of a body, not its keys, and a number's canonical form", () => {
    assert.deepEqual(
      sentValuesOf({ a: "x-1", b: [2, "y"], c: { d: true, e: null, f: "100.0" } }).sort(),
      ["100", "100.0", "2", "x-1", "y"].sort(),
    );
  });

  it("replaces long values anywhere and short ones only as whole words", () => {
    assert.equal(
      redactSentValues("key sk_live_1234 and xsk_live_1234x", ["sk_live_1234"]),
      "key [redacted] and x[redacted]x",
    );
    assert.equal(redactSentValues('region "eu" in neutral europe', ["eu"]), 'region "[redacted]" in neutral europe');
    assert.equal(redactSentValues("got 5 of 15", ["5"]), "got [redacted] of 15");
  });

  it("replaces the longest value first, in one pass, and takes values as text (not patterns)", () => {
    assert.equal(redactSentValues("secret-long and secret", ["secret", "secret-long"]), "[redacted] and [redacted]");
    assert.equal(redactSentValues("a.b+c and axb+c", ["a.b+c"]), "[redacted] and axb+c");
    assert.equal(redactSentValues("nothing to hide", []), "nothing to hide");
  });
});
