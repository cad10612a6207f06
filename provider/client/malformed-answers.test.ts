// Malformed answers from a service that breaks the contract: a tiny
// node:http server answers the token route correctly and the mutating routes with wrong
// types, missing fields, HTML pages, truncated JSON, huge bodies, without x-request-id. The
// provider's create/update must reject with the route and a request id, never resolve with
// half an output.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as added from "../added-connector/steps";
import * as configuration from "../connector-configuration/steps";
import { configureRuntime } from "../runtime/runtime";
import { configSourceFromGetter, SETTINGS } from "../settings/resolve";
import { configurationPayload, viewA } from "../../test/support/client-fakes";
import { rejection } from "../../test/support/provider-fixtures";

const ACCOUNT = "a1b2c3d4e5f60718";
const CONNECTOR = "0123456789abcdef";
const CONFIGURATION_ID = "c0c0c0c0c0c0c0c0";
const UUID = /request id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type Answer = (res: ServerResponse) => void;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
const envelope = (response: unknown) => ({ statusCode: 200, statusMessage: "OK", response });

/** Each case: what the mutating route answers, and what the error must say besides route and request id. */
const CASES: { name: string; answer: Answer; expect: RegExp }[] = [
  {
    name: "wrong types",
    answer: json(200, envelope({ added: [{ ...viewA(CONNECTOR), name: 42 }], alreadyAdded: "none" })),
    expect: /breaks the contract/,
  },
  { name: "missing fields", answer: json(200, envelope({})), expect: /breaks the contract/ },
  { name: "no envelope", answer: json(200, [1, 2, 3]), expect: /breaks the contract/ },
  {
    name: "an HTML error page with a 200",
    answer: (res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Service Unavailable - maintenance</body></html>");
    },
    // Configure carried secrets: its error leaves the service's content type out.
    expect: /expected a JSON body, got (text\/html|an unexpected content type)/,
  },
  {
    name: "an HTML error page with a 502",
    answer: (res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>bad gateway</html>");
    },
    expect: /502 Bad Gateway/,
  },
  {
    name: "truncated JSON",
    answer: json(200, '{"statusCode":200,"statusMessage":"OK","response":{"added":[{"connec'),
    expect: /not valid JSON/,
  },
  {
    name: "a huge body (11 MiB)",
    answer: (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(1024 * 1024);
      for (let i = 0; i < 11; i++) res.write(chunk);
      res.end();
    },
    expect: /larger than 10485760 bytes/,
  },
];

interface Fake {
  server: Server;
  baseUrl: string;
  mutating: number;
  answer: Answer;
}

async function startFake(): Promise<Fake> {
  const fake: Fake = { server: createServer(), baseUrl: "", mutating: 0, answer: json(200, {}) };
  fake.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (path === "/es/v2/oauth/client-token")
        return json(200, { accessToken: "tok-malformed-test", tokenType: "Bearer", expiry: 3600 })(res);
      if (req.method === "GET" && path.endsWith("/configuration"))
        return json(200, envelope(configurationPayload()))(res);
      if (req.method === "GET" && path === "/es/v2/connectors/added")
        return json(200, envelope({ items: [], total: 0, page: 1, pageSize: 200 }))(res);
      fake.mutating++;
      fake.answer(res);
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
  fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

describe("malformed answers: the provider reports route and request id, and no half output", () => {
  let fake: Fake;
  before(async () => {
    for (const setting of Object.values(SETTINGS)) delete process.env[setting.env];
    fake = await startFake();
    const config: Record<string, string> = {
      "embedded:baseUrl": fake.baseUrl,
      "embedded:clientId": "malformed-client",
      "embedded:clientSecret": "malformed-secret-canary",
      "embedded:accountId": ACCOUNT,
      "embedded:maxRetries": "0",
    };
    configureRuntime(configSourceFromGetter({ get: (key) => config[key] }));
  });
  after(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  for (const c of CASES) {
    it(`AddedConnector create: ${c.name}`, async () => {
      fake.answer = c.answer;
      const error = await rejection(added.create({ connectorId: CONNECTOR, accountId: ACCOUNT, adoptExisting: false }));
      assert.match(error.message, /POST \/es\/v2\/connectors/);
      assert.match(error.message, UUID, "the client's own request id, since the fake sends none");
      assert.match(error.message, c.expect);
      assert.doesNotMatch(error.message, /maintenance|malformed-secret-canary|tok-malformed-test/);
    });

    it(`ConnectorConfiguration update: ${c.name}`, async () => {
      fake.answer = c.answer;
      const news = {
        connectorId: CONNECTOR,
        accountId: ACCOUNT,
        configurationId: CONFIGURATION_ID,
        secretConfig: { apiKey: "canary-key-value" },
      };
      const error = await rejection(configuration.update(`${ACCOUNT}/${CONNECTOR}`, { fingerprintSalt: "salt" }, news));
      assert.match(error.message, /PUT \/es\/v2\/connectors\/\{connectorId\}\/configuration/);
      assert.match(error.message, UUID);
      assert.match(error.message, c.expect);
      assert.doesNotMatch(error.message, /canary-key-value|malformed-secret-canary/);
    });
  }

  it("quotes the service's x-request-id when it sends one", async () => {
    fake.answer = json(200, envelope({}), { "x-request-id": "srv-req-77" });
    const error = await rejection(added.create({ connectorId: CONNECTOR, accountId: ACCOUNT, adoptExisting: false }));
    assert.match(error.message, /request id srv-req-77/);
  });

  it("each malformed answer cost exactly one mutating request (no blind retry of a broken answer)", () => {
    // 2 per case (the 502 is retryable, but maxRetries is 0 here), plus the x-request-id case.
    assert.equal(fake.mutating, CASES.length * 2 + 1);
  });
});
