// A refusal is a refusal whatever form it takes (an HTTP status, a status
// inside a 200 at either of the built-in status paths, a profile's own envelope), and after a
// request that carried secrets (Configure, the token request) none of the service's text
// reaches the error, however it quotes the values sent (service/quote-back.ts: upper-cased,
// lower-cased, truncated, base64, URL-encoded, JSON-escaped). A field name shows only when it is
// a key the request sent, on every call. Canaries from a printed seed: CANARY_SEED=<n> replays.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { resolveProfile, type ServiceProfile } from "../../contract/profile";
import {
  AuthenticationError,
  EmbeddedApiError,
  EmbeddedClient,
  Limiter,
  ResponseFormatError,
  ValidationError,
  collect,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import { quoteBackRefusal } from "../../service/quote-back";
import { canary, quotedTelltales, replayCanariesOnFailure } from "../../test/e2e/canaries";
import {
  ACCOUNT,
  CONNECTOR,
  answer,
  configurationPayload,
  ok,
  ScriptedTransport,
  tokenAnswer,
  viewA,
} from "../../test/support/client-fakes";

/** A value whose every quoted form differs from it (mixed case, a quote, a backslash, a space). */
const secretValue = (label: string) => `Pw"${canary(label).slice(-12)} \\${label}Q`;
const PASSWORD = secretValue("refusal-password");
const TEXT = secretValue("refusal-text");
const CLIENT_SECRET = secretValue("refusal-client-secret");
const CANARIES: [string, string][] = [
  ["the Password", PASSWORD],
  ["the Text", TEXT],
  ["the client secret", CLIENT_SECRET],
];

/** How a service says "refused": the status and where it puts it. */
interface Wire {
  name: string;
  profile: ServiceProfile;
  refuse: (status: number, refusal: ReturnType<typeof quoteBackRefusal>) => IncomingResponse;
}

const WIRES: Wire[] = [
  {
    name: "an HTTP status",
    profile: {},
    refuse: (status, { message, errors }) =>
      answer(status, { statusCode: status, statusMessage: message, response: null, errors }),
  },
  {
    name: "a 200 with statusCode/statusMessage",
    profile: {},
    refuse: (status, { message, errors }) =>
      answer(200, { statusCode: status, statusMessage: message, response: null, errors }),
  },
  {
    name: "a 200 with code/message",
    profile: {},
    refuse: (status, { message, errors }) => answer(200, { code: status, message, errors }),
  },
  {
    name: "a 200 in a profile's own envelope (error.status, error.detail)",
    profile: {
      defaults: { envelope: { mode: "auto", status: ["error.status"], message: ["error.detail"] } },
      semantics: { errorStatusIn: "body" },
    },
    refuse: (status, { message, errors }) => answer(200, { error: { status, detail: message }, errors }),
  },
];

const isToken = (r: OutgoingRequest) => r.target.includes("/oauth/client-token");
const bodyOf = (r: OutgoingRequest): unknown => (r.body ? JSON.parse(r.body) : {});

function clientOf(profile: ServiceProfile, script: (request: OutgoingRequest) => IncomingResponse): EmbeddedClient {
  return EmbeddedClient.create(
    {
      baseUrl: "http://127.0.0.1:1/api",
      clientId: "demo-client",
      clientSecret: CLIENT_SECRET,
      profile: resolveProfile(profile, "test"),
    },
    {
      transport: new ScriptedTransport(script),
      limiter: new Limiter(4),
      random: () => 0,
      sleep: async () => undefined,
    },
  );
}

/** Everything an error shows: message, stack, own fields (inspected) and causes. */
function shown(error: unknown): string {
  const parts = [inspect(error, { depth: 20 })];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? "");
  return parts.join("\n");
}

async function failed(call: Promise<unknown>): Promise<EmbeddedApiError> {
  const error = await call.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof EmbeddedApiError, `a typed error, got ${String(error).slice(0, 200)}`);
  return error;
}

/** No form of any canary in what the error shows; assert.ok, so that a failure does not print the leak. */
function assertNoQuotedCanary(error: unknown, where: string): void {
  const text = shown(error);
  for (const [what, value] of CANARIES) {
    for (const { form, telltale } of quotedTelltales(value)) {
      assert.ok(!text.includes(telltale), `${what}, ${form}, appears in ${where}`);
    }
  }
}

const configure = (client: EmbeddedClient) =>
  client.configure(ACCOUNT, CONNECTOR, {
    configurationId: "c0c0c0c0c0c0c0c0",
    secretConfig: { region: "eu-west-1", password: PASSWORD, workspace: TEXT },
  });

describe(`client: refusals in every form quoting the values sent (CANARY_SEED replays)`, () => {
  replayCanariesOnFailure();

  it("the canaries: no quoted form holds the value sent (exact match cannot find it), each telltale is long", () => {
    for (const [, value] of CANARIES) {
      for (const quoted of quoteBackRefusal({ value }).errors.slice(1)) assert.ok(!quoted.field.includes(value));
      for (const { telltale } of quotedTelltales(value)) assert.ok(telltale.length >= 20);
    }
  });

  for (const wire of WIRES) {
    it(`Configure refused in ${wire.name}: status, request id and the sent field names; no text, no form of a value`, async () => {
      const client = clientOf(wire.profile, (r) =>
        isToken(r) ? tokenAnswer() : wire.refuse(400, quoteBackRefusal(bodyOf(r))),
      );
      const error = await failed(configure(client));
      assertNoQuotedCanary(error, `Configure's error (${wire.name})`);
      assert.ok(error instanceof ValidationError, error.message);
      assert.equal(error.status, 400);
      assert.match(error.message, /^PUT \/es\/v2\/connectors\/\{connectorId\}\/configuration: 400 Bad Request: /);
      assert.match(
        error.message,
        /fields [a-zA-Z.]+, secretConfig\.region, secretConfig\.password, secretConfig\.workspace, /,
      );
      assert.match(error.message, /the service's text is left out \(the request carried secret values\)/);
      // The service's id (srv-…) is neither a UUID nor hex: after secrets were sent, our own id is shown.
      assert.match(error.message, /\(request id [0-9a-f]{8}-[0-9a-f-]{27}\)$/);
      // One per value sent, by its key; then the "fields" the service named by a quoted value.
      const named = error.fieldErrors.filter((f) => f.field !== "(unnamed field)").map((f) => f.field);
      assert.deepEqual(named.slice(1), ["secretConfig.region", "secretConfig.password", "secretConfig.workspace"]);
      assert.equal(error.fieldErrors.length, named.length * 7, "each value's six quoted forms named no field");
    });

    it(`the token request refused (401) in ${wire.name}: no text, no form of the client secret`, async () => {
      const client = clientOf(wire.profile, (r) =>
        isToken(r) ? wire.refuse(401, quoteBackRefusal(bodyOf(r))) : assert.fail("no token, no call"),
      );
      const error = await failed(client.getConfiguration(ACCOUNT, CONNECTOR));
      assertNoQuotedCanary(error, `the token request's error (${wire.name})`);
      assert.ok(error instanceof AuthenticationError, error.message);
      assert.match(
        error.message,
        /^POST \/es\/v2\/oauth\/client-token: 401 Unauthorized: the service's text is left out/,
      );
    });
  }

  it("a call without secrets (List Added Connectors) refused in a 200: its text scrubbed, field names only where sent", async () => {
    const client = clientOf({}, (r) =>
      isToken(r)
        ? tokenAnswer()
        : answer(200, {
            statusCode: 400,
            statusMessage: "pageSize is too large",
            errors: [
              { field: "pageSize", message: "at most 50" },
              { field: `SELECT ${ACCOUNT.toUpperCase()}`, message: "not a field" },
            ],
          }),
    );
    const error = await failed(collect(client.listAddedConnectors(ACCOUNT)));
    assert.ok(error instanceof ValidationError, error.message);
    assert.deepEqual(
      error.fieldErrors.map((f) => f.field),
      ["pageSize", "(unnamed field)"],
    );
    assert.match(error.message, /400 pageSize is too large: fields pageSize, \(unnamed field\)/);
    assert.ok(!error.message.includes("SELECT"), error.message);
  });

  it("a next-page link's query names no field: a refusal of that page naming one of its keys shows it unnamed", async () => {
    const client = clientOf({ operations: { listAddedConnectors: { list: { next: "next" } } } }, (r) => {
      if (isToken(r)) return tokenAnswer();
      if (!r.target.includes("tok3n"))
        return ok({ items: [viewA(CONNECTOR)], next: "/api/es/v2/connectors/added?tok3n=1" });
      return answer(200, { statusCode: 400, statusMessage: "bad page", errors: [{ field: "tok3n", message: "bad" }] });
    });
    const error = await failed(collect(client.listAddedConnectors(ACCOUNT)));
    assert.ok(error instanceof ValidationError, error.message);
    assert.deepEqual(
      error.fieldErrors.map((f) => f.field),
      ["(unnamed field)"],
    );
  });

  it("Configure answered by a 200 whose keys quote the values: the format error shows no key of it", async () => {
    let reads = 0;
    const keys = Object.fromEntries(quoteBackRefusal({ PASSWORD, TEXT }).errors.map((e, i) => [e.field, i]));
    const client = clientOf({}, (r) => {
      if (isToken(r)) return tokenAnswer();
      if (r.method === "PUT") return ok(keys);
      reads++;
      return ok(configurationPayload({ configured: false }));
    });
    const error = await failed(configure(client));
    assert.ok(error instanceof ResponseFormatError && reads === 1, error.message);
    assertNoQuotedCanary(error, "Configure's format error");
    assert.match(error.message, /the answer breaks the contract: its details are left out/);
    assert.equal(error.fieldPath, "");
  });

  it("the token answered with keys that quote the client secret: the format error shows no key of it", async () => {
    const keys = Object.fromEntries(quoteBackRefusal({ CLIENT_SECRET }).errors.map((e) => [e.field, true]));
    const client = clientOf({}, (r) => (isToken(r) ? answer(200, keys) : assert.fail("no token, no call")));
    const error = await failed(client.getConfiguration(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof ResponseFormatError, error.message);
    assertNoQuotedCanary(error, "the token's format error");
    assert.match(error.message, /^POST \/es\/v2\/oauth\/client-token: 200 the answer breaks the contract: its details/);
  });

  it("the token answered with another content type naming the client secret: left out", async () => {
    const client = clientOf({}, (r) =>
      isToken(r)
        ? answer(200, "{}", { contentType: `text/${encodeURIComponent(CLIENT_SECRET)}` })
        : assert.fail("no token, no call"),
    );
    const error = await failed(client.getConfiguration(ACCOUNT, CONNECTOR));
    assertNoQuotedCanary(error, "the token's content-type error");
    assert.match(error.message, /expected a JSON body, got an unexpected content type/);
  });
});
