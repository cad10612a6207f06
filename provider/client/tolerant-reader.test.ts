// The tolerant reader (docs/service-contract.md, "Assumption register"; docs/service-profile.md):
// every unambiguous shape read, every ambiguous one refused with the route and the shape seen
// (types, never values), and the wire laid out by a profile.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveProfile, type ServiceProfile } from "../../contract/profile";
import {
  collect,
  ConflictError,
  EmbeddedClient,
  NotFoundError,
  ResponseFormatError,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import {
  ACCOUNT,
  answer,
  configurationPayload,
  CONNECTOR,
  ok,
  refusal,
  ScriptedTransport,
  tokenAnswer,
  viewA,
  viewG,
} from "../../test/support/client-fakes";

const DOCS = join(__dirname, "../../../test/support/fixtures/client/public-docs");
const CANARY = "canary-value-7f3a";

function clientOf(
  handler: (request: OutgoingRequest) => IncomingResponse,
  profile: ServiceProfile = {},
  pageSize = 200,
) {
  const transport = new ScriptedTransport((request) =>
    request.target.includes("/oauth/client-token") ? tokenAnswer() : handler(request),
  );
  const client = EmbeddedClient.create(
    {
      baseUrl: "http://127.0.0.1:1",
      clientId: "c",
      clientSecret: "s",
      pageSize,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      profile: resolveProfile(profile, "test"),
    },
    { transport, sleep: async () => undefined },
  );
  const calls = () => transport.requests.filter((r) => !r.target.includes("/oauth/"));
  return { client, calls };
}

describe("client: the public documentation's example answers", () => {
  it("parses the token and Get Connector answers (documented values in place of the placeholders)", async () => {
    const token = readFileSync(join(DOCS, "token.json"), "utf8");
    const connector = readFileSync(join(DOCS, "get-connector.json"), "utf8");
    const transport = new ScriptedTransport((request) =>
      answer(200, request.target.includes("/oauth/client-token") ? token : connector),
    );
    const client = EmbeddedClient.create(
      { baseUrl: "http://127.0.0.1:1", clientId: "c", clientSecret: "s" },
      { transport },
    );
    const view = await client.getConnector(ACCOUNT, "825c0cb809444dba");
    assert.equal(view.name, "Amazon S3");
    assert.equal(view.supportedType, "Source");
    assert.equal(transport.requests[1]?.headers.authorization, "Bearer c076dc2e-d0c2-4d4d-ab13-e4e3dd555fc0");
    assert.equal(transport.requests[1]?.target, `/es/v2/connectors/825c0cb809444dba?accountId=${ACCOUNT}`);
  });
});

describe("client: tolerant reader", () => {
  it("reads an answer with or without the envelope; `present` refuses a bare one, naming its shape only", async () => {
    assert.equal(
      (await clientOf(() => answer(200, viewG(CONNECTOR))).client.getConnector(ACCOUNT, CONNECTOR)).name,
      `Connector ${CONNECTOR}`,
    );
    const strict = clientOf(() => answer(200, viewG(CONNECTOR, { name: CANARY })), {
      defaults: { envelope: { mode: "present" } },
    });
    const error = await refusal(strict.client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof ResponseFormatError);
    assert.match(
      error.message,
      /^GET \/es\/v2\/connectors\/\{connectorId\}: 200 .*expected an envelope \{statusCode, response\}, got object\{connectorId: string, /,
    );
    assert.ok(!error.message.includes(CANARY));
  });

  it("an error status inside a 2xx is that error: statusCode 404, code 409 with message (the older API)", async () => {
    const notFound = clientOf(
      () => ok(null, {}) && answer(200, { statusCode: 404, statusMessage: "no such connector", response: null }),
    );
    const missing = await refusal(notFound.client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(missing instanceof NotFoundError, String(missing));
    assert.equal(missing.status, 404);
    const older = clientOf(() =>
      answer(200, { code: 409, message: "in use", response: { srcConnections: 2, destConnections: 0 } }),
    );
    const conflict = await refusal(older.client.removeConnector(ACCOUNT, CONNECTOR));
    assert.ok(conflict instanceof ConflictError, String(conflict));
    assert.equal(conflict.srcConnections, 2);
    const odd = clientOf(() => answer(200, { statusCode: 302, response: viewG(CONNECTOR) }));
    assert.match(
      (await refusal(odd.client.getConnector(ACCOUNT, CONNECTOR))).message,
      /status 302 is neither 0, a 2xx nor an error status/,
    );
  });

  it("a 5xx inside a 2xx is retried like any 5xx", async () => {
    let n = 0;
    const flaky = clientOf(() => (n++ === 0 ? answer(200, { statusCode: 503, response: null }) : ok(viewG(CONNECTOR))));
    assert.equal((await flaky.client.getConnector(ACCOUNT, CONNECTOR)).connectorId, CONNECTOR);
    assert.equal(flaky.calls().length, 2);
  });

  it("reads a list as a bare array or `{items}` without a total; refuses another shape by its types", async () => {
    for (const payload of [[viewA(CONNECTOR)], { items: [viewA(CONNECTOR)] }]) {
      const { client, calls } = clientOf((r) =>
        ok(new URLSearchParams(r.target.split("?")[1]).get("page") === "1" ? payload : []),
      );
      assert.deepEqual(
        (await collect(client.listAddedConnectors(ACCOUNT))).map((v) => v.connectorId),
        [CONNECTOR],
      );
      assert.equal(calls().length, 2, "a short page without a total ends nothing: the next one is asked for");
    }
    const other = clientOf(() => ok({ connectors: [viewA(CONNECTOR, { name: CANARY })] }));
    const error = await refusal(collect(other.client.listAddedConnectors(ACCOUNT)));
    assert.match(
      error.message,
      /GET \/es\/v2\/connectors\/added: 200 .*expected a list: an array, or an object with an array at "items"; got object\{connectors: array\(1\)/,
    );
    assert.ok(!error.message.includes(CANARY));
  });

  it("a service that ignores the paging: the repeated page is refused, naming doctor, never taken as the end", async () => {
    const { client, calls } = clientOf(() => ok([viewA(CONNECTOR), viewA("fedcba9876543210")]), {}, 50);
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assert.ok(error instanceof ResponseFormatError);
    assert.match(
      error.message,
      /page 2 repeats items already read \(2 items\): the service seems to ignore the paging parameters \(page, pageSize\)/,
    );
    assert.match(error.message, /pulumi-embedded-connectors doctor/);
    assert.equal(calls().length, 2);
  });

  it("follows a next link of the service's origin, and refuses one of another", async () => {
    const profile = {
      operations: { listConnectors: { paging: { style: "offset" as const }, list: { next: "next" } } },
    };
    const pages = clientOf(
      (r) =>
        r.target.includes("cursor=2")
          ? ok({ items: [viewA("fedcba9876543210")], next: null })
          : ok({ items: [viewA(CONNECTOR)], next: "/es/v2/connectors?cursor=2" }),
      profile,
    );
    assert.equal((await collect(pages.client.listConnectors(ACCOUNT))).length, 2);
    assert.equal(pages.calls()[1]?.target, "/es/v2/connectors?cursor=2");
    const away = clientOf(() => ok({ items: [viewA(CONNECTOR)], next: "https://elsewhere.test/x" }), profile);
    assert.match((await refusal(collect(away.client.listConnectors(ACCOUNT)))).message, /another origin/);
  });

  it("Add, Configure and Remove need no success body: Configure is confirmed by reading", async () => {
    const { client, calls } = clientOf((r) => {
      if (r.method === "GET") return ok(configurationPayload({ configured: true }));
      return answer(204, "");
    });
    const result = await client.addConnectors(ACCOUNT, [CONNECTOR]);
    assert.equal(result.alreadyAdded, undefined, "the caller tells them from a listing");
    const view = await client.configure(ACCOUNT, CONNECTOR, {
      configurationId: "c0c0c0c0c0c0c0c0",
      secretConfig: { apiKey: "k" },
    });
    assert.equal(view.configured, true);
    await client.removeConnector(ACCOUNT, CONNECTOR);
    assert.deepEqual(
      calls().map((r) => r.method),
      ["POST", "PUT", "GET", "DELETE"],
    );
  });
});

describe("client: the wire laid out by a profile", () => {
  it("puts the sub-account in the path, renames parameters, paging and body fields, and uses the method", async () => {
    const profile: ServiceProfile = {
      defaults: {
        query: { accountId: "account_id" },
        paging: { style: "offset", offset: "start", size: "limit" },
        list: { items: "" },
      },
      operations: {
        listAddedConnectors: { path: "/v3/accounts/{accountId}/connectors" },
        configure: {
          method: "POST",
          path: "/v1/partner/connector/{connectorId}/config",
          fields: { secretConfig: "sourceConfig" },
        },
      },
    };
    const { client, calls } = clientOf((r) => (r.method === "GET" ? ok([]) : ok(configurationPayload())), profile, 20);
    await collect(client.listAddedConnectors(ACCOUNT, { dataType: "reporting" }));
    await client.configure(ACCOUNT, CONNECTOR, { configurationId: "c0c0c0c0c0c0c0c0", secretConfig: { apiKey: "k" } });
    const [list, configure] = calls();
    assert.equal(list?.target, `/v3/accounts/${ACCOUNT}/connectors?dataType=reporting&start=0&limit=20`);
    assert.equal(configure?.method, "POST");
    assert.equal(configure?.target, `/v1/partner/connector/${CONNECTOR}/config?account_id=${ACCOUNT}`);
    assert.deepEqual(JSON.parse(configure?.body ?? "{}"), {
      configurationId: "c0c0c0c0c0c0c0c0",
      sourceConfig: { apiKey: "k" },
    });
  });
});
