// A service that quotes a sent secret back in another form than the one sent
// (JSON-escaped, trimmed, truncated, upper-cased, URL-encoded, Unicode-normalised) defeats
// scrubbing by exact match. An error answer to a request that carried secret values (Configure,
// the token request) keeps the status, the request id and the names of the fields sent, and
// none of the service's free text. Canaries come from a printed seed: QUOTED_SEED=<n> replays.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { inspect } from "node:util";
import {
  AuthenticationError,
  EmbeddedApiError,
  EmbeddedClient,
  Limiter,
  ServerError,
  ValidationError,
  type ConfigureBody,
  type IncomingResponse,
} from "./";
import { ACCOUNT, CONNECTOR, ScriptedTransport, failure, tokenAnswer } from "../../test/support/client-fakes";
import { printSeedOnFailure, seedFrom } from "../../test/support/seed";

const SEED = seedFrom("QUOTED_SEED");
const TOKEN = "/api/es/v2/oauth/client-token";
const CLIENT_SECRET_CORE = "demo-client-secret";

/** A canary's random core (from the seed), long enough that any 8 characters of it are telling. */
function core(label: string): string {
  return createHash("sha256").update(`${SEED}:${label}`).digest("hex").slice(0, 24);
}

/** One sent secret and the form a service quotes it back in. */
interface QuotedForm {
  name: string;
  sent: string;
  quoted: (sent: string) => string;
  /** What of the quoted form must appear nowhere. */
  telltale: (sent: string) => string;
}

const FORMS: QuotedForm[] = [
  {
    name: "JSON-escaped",
    sent: `pw"${core("json")}\\end`,
    quoted: (s) => JSON.stringify(s).slice(1, -1),
    telltale: () => core("json"),
  },
  {
    name: "trimmed",
    sent: `  ${core("trim")}  `,
    quoted: (s) => s.trim(),
    telltale: () => core("trim"),
  },
  {
    name: "truncated",
    sent: `pw-${core("trunc")}-${core("trunc-tail")}`,
    quoted: (s) => `${s.slice(0, 20)}…`,
    telltale: (s) => s.slice(3, 20),
  },
  {
    name: "upper-cased",
    sent: `pw-${core("upper")}`,
    quoted: (s) => s.toUpperCase(),
    telltale: () => core("upper").toUpperCase(),
  },
  {
    name: "URL-encoded",
    sent: `pw ${core("url")}/&=?`,
    quoted: (s) => encodeURIComponent(s),
    telltale: () => core("url"),
  },
  {
    name: "Unicode-normalised",
    // Full-width digits and letters: NFKC turns them into ASCII.
    sent: `pw-${[...core("nfkc")].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("")}`,
    quoted: (s) => s.normalize("NFKC"),
    telltale: () => core("nfkc"),
  },
];

function clientWith(script: (target: string, body: string) => IncomingResponse, clientSecret = "x-secret-x") {
  const transport = new ScriptedTransport((request) => script(request.target, request.body ?? ""));
  return EmbeddedClient.create(
    { baseUrl: "http://127.0.0.1:1/api", clientId: "demo-client", clientSecret },
    { transport, limiter: new Limiter(4), random: () => 0, sleep: async () => undefined },
  );
}

/** Everything an error shows: message, stack, own fields and causes. */
function shown(error: unknown): string {
  const parts = [inspect(error, { depth: 20 })];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? "");
  return parts.join("\n");
}

async function failed(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

describe(`client: secrets quoted back in another form (seed ${SEED}, QUOTED_SEED replays)`, () => {
  printSeedOnFailure("QUOTED_SEED", SEED);

  for (const form of FORMS) {
    const body: ConfigureBody = {
      configurationId: "c0c0c0c0c0c0c0c0",
      secretConfig: { region: "eu-west-1", password: form.sent },
    };
    const quoted = form.quoted(form.sent);
    const telltale = form.telltale(form.sent);

    it(`Configure refused with 400 quoting the Password ${form.name}: status, request id and field names, no service text`, async () => {
      assert.ok(!quoted.includes(form.sent), "exact match of the value sent cannot find this form");
      const client = clientWith((target) =>
        target === TOKEN
          ? tokenAnswer()
          : failure(
              400,
              `invalid configuration: ${quoted} is revoked`,
              {
                errors: [
                  { field: "secretConfig.password", message: `"${quoted}" is not a live key` },
                  { field: `secretConfig.${quoted}`, message: "unknown field" },
                ],
              },
              { requestId: "0123456789abcdef0400" },
            ),
      );
      const error = await failed(client.configure(ACCOUNT, CONNECTOR, body));
      const all = shown(error);
      assert.ok(!all.includes(telltale), `the ${form.name} Password (${telltale}) appears in the error: ${all}`);
      assert.ok(!all.includes("is revoked") && !all.includes("is not a live key"), `service text kept: ${all}`);
      assert.ok(error instanceof ValidationError, all);
      assert.equal(error.status, 400);
      assert.equal(error.requestId, "0123456789abcdef0400");
      assert.match(error.message, /400 Bad Request: fields secretConfig\.password, \(unnamed field\)/);
      assert.match(error.message, /the service's text is left out \(the request carried secret values\)/);
      assert.match(error.message, /\(request id 0123456789abcdef0400\)$/);
      assert.deepEqual(
        error.fieldErrors.map((e) => e.field),
        ["secretConfig.password", "(unnamed field)"],
      );
    });

    it(`Configure failing with 503 quoting the Password ${form.name}, after every retry: retryable, no service text`, async () => {
      const client = clientWith((target) =>
        target === TOKEN ? tokenAnswer() : failure(503, `could not store ${quoted}`),
      );
      const error = await failed(client.configure(ACCOUNT, CONNECTOR, body));
      const all = shown(error);
      assert.ok(!all.includes(telltale), `the ${form.name} Password appears in the error: ${all}`);
      assert.ok(error instanceof ServerError && error.retryable, all);
      assert.match(error.message, /503 Service Unavailable: the service's text is left out/);
    });
  }

  it("the token request quoting the client secret upper-cased and URL-encoded: a 401 with neither", async () => {
    const secret = `${CLIENT_SECRET_CORE} ${core("client")}`;
    const client = clientWith(
      (target) =>
        target === TOKEN
          ? failure(401, `unknown client secret ${secret.toUpperCase()} (${encodeURIComponent(secret)})`)
          : failure(500, "unexpected"),
      secret,
    );
    const error = await failed(client.getConfiguration(ACCOUNT, CONNECTOR));
    const all = shown(error);
    assert.ok(!all.toLowerCase().includes(core("client")), `the client secret appears: ${all}`);
    assert.ok(error instanceof AuthenticationError || error instanceof EmbeddedApiError, all);
    assert.match(all, /401 Unauthorized/);
  });

  it("a request without secret values (Get Connector Configuration) keeps the service's scrubbed text", async () => {
    const client = clientWith((target) =>
      target === TOKEN ? tokenAnswer() : failure(404, "connector 0123456789abcdef is not added"),
    );
    const error = await failed(client.getConfiguration(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof EmbeddedApiError);
    assert.match(error.message, /404 connector 0123456789abcdef is not added/);
  });
});
