// A list is read whole only when proven complete, any
// other ends in a refusal naming the route and `doctor` (never a "not found"); a value that would
// climb out of its path segment is refused before anything is sent; a profile naming a
// placeholder its operation cannot fill is refused when it is loaded.
import assert from "node:assert/strict";
import { ProfileError, resolveProfile, type ServiceProfile } from "../../contract/profile";
import {
  collect,
  EmbeddedClient,
  InvalidArgumentError,
  NotFoundError,
  ResponseFormatError,
  type IncomingResponse,
  type OutgoingRequest,
} from "./";
import { statusOf } from "./service-failures";
import {
  ACCOUNT,
  answer,
  CONNECTOR,
  ok,
  refusal,
  ScriptedTransport,
  tokenAnswer,
  viewA,
} from "../../test/support/client-fakes";

const id = (n: number) => `c${n.toString(36).padStart(15, "0")}`;

function clientOf(
  handler: (request: OutgoingRequest) => IncomingResponse,
  profile: ServiceProfile = {},
  extra: { pageSize?: number; maxListBytes?: number } = {},
) {
  const transport = new ScriptedTransport((request) =>
    request.target.includes("/oauth/") || request.target.includes("/auth/token") ? tokenAnswer() : handler(request),
  );
  const client = EmbeddedClient.create(
    {
      baseUrl: "http://127.0.0.1:1",
      clientId: "c",
      clientSecret: "s",
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      profile: resolveProfile(profile, "test"),
      ...extra,
    },
    { transport, sleep: async () => undefined },
  );
  const calls = () => transport.requests.filter((r) => !r.target.includes("oauth") && !r.target.includes("auth/"));
  return { client, calls };
}

const query = (request: OutgoingRequest) => new URLSearchParams(request.target.split("?")[1] ?? "");

describe("client: a list is proven complete, or refused", () => {
  it("a service that caps its pages but echoes the size asked: every item read, counted against the total", async () => {
    const items = Array.from({ length: 7 }, (_, i) => viewA(id(i)));
    const { client, calls } = clientOf((request) => {
      const asked = Number(query(request).get("pageSize"));
      const page = Number(query(request).get("page"));
      const size = Math.min(asked, 3);
      const slice = items.slice((page - 1) * size, page * size);
      return ok({ items: slice, page, pageSize: asked, total: items.length });
    });
    const read = await collect(client.listAddedConnectors(ACCOUNT));
    assert.deepEqual(
      read.map((v) => v.connectorId),
      items.map((v) => v.connectorId),
    );
    assert.equal(calls().length, 3);
  });

  for (const [form, notFound] of [
    ["as an HTTP status", () => answer(404, { statusCode: 404, statusMessage: "Not Found", response: null })],
    ["inside a 200", () => answer(200, { statusCode: 404, statusMessage: "Not Found", response: null })],
  ] as const) {
    it(`a list route that answers 404 ${form} is refused with the route and doctor, never a "not found"`, async () => {
      const { client } = clientOf(() => notFound());
      const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
      assert.ok(error instanceof ResponseFormatError, String(error));
      assert.equal(statusOf(error), undefined, "no status a caller could read as gone");
      assert.match(error.message, /^GET \/es\/v2\/connectors\/added: .*the list route answered 404/);
      assert.match(error.message, /pulumi-embedded-connectors doctor/);
    });
  }

  it("a 404 of List Supported Connectors stays about its connector (a direct answer)", async () => {
    const { client } = clientOf(() => answer(404, { statusCode: 404, statusMessage: "Not Found", response: null }));
    const error = await refusal(collect(client.listSupportedConnectors(ACCOUNT, CONNECTOR)));
    assert.ok(error instanceof NotFoundError);
  });

  it("large pages that never end are refused at the list's byte budget, with the route and doctor", async () => {
    let n = 0;
    const { client, calls } = clientOf(
      () => ok({ items: [viewA(id(n++), { name: "x".repeat(400) })], total: 1_000_000 }),
      {},
      { pageSize: 1, maxListBytes: 4_000 },
    );
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assert.ok(error instanceof ResponseFormatError);
    assert.match(error.message, /GET \/es\/v2\/connectors\/added: .*passed its budget of 4000 bytes/);
    assert.match(error.message, /doctor/);
    assert.ok(calls().length < 10, `stopped early: ${calls().length} pages`);
  });
});

describe("client: path values that cannot climb", () => {
  const inPath: ServiceProfile = {
    operations: {
      listAddedConnectors: { path: "/api/accounts/{accountId}/connectors" },
      getConfiguration: { path: "/api/accounts/{accountId}/connectors/{connectorId}/config" },
    },
  };

  for (const value of [".", "..", "a/b", "a\\b", "a?b", "a#b", "%2e%2E", "x%2Ey"]) {
    it(`refuses accountId ${JSON.stringify(value)} in the path before sending anything`, async () => {
      const { client, calls } = clientOf(() => ok({ items: [] }), inPath);
      const error = await refusal(collect(client.listAddedConnectors(value)));
      assert.ok(error instanceof InvalidArgumentError, String(error));
      assert.equal(error.argument, "accountId");
      assert.match(error.message, /accountId goes into the request path and must not be "\." or "\.\."/);
      assert.equal(calls().length, 0);
    });
  }

  it("the same values in the query go out (encoded), and a plain id in the path passes", async () => {
    const query = clientOf(() => ok({ items: [] }));
    await collect(query.client.listAddedConnectors(".."));
    assert.match(query.calls()[0]?.target ?? "", /accountId=\.\./);
    const path = clientOf(() => ok({ items: [] }), inPath);
    await collect(path.client.listAddedConnectors("acct-1"));
    assert.match(path.calls()[0]?.target ?? "", /^\/api\/accounts\/acct-1\/connectors\?/);
  });
});

describe("profile: a placeholder its operation cannot fill is refused at load, naming the key", () => {
  const cases: [string, ServiceProfile, RegExp][] = [
    [
      "{accountId} in the token's path",
      { operations: { getToken: { path: "/auth/{accountId}/token" } } },
      /operations\.getToken\.path: Get Access Token carries no accountId, so \{accountId\} cannot be filled; expected no placeholder/,
    ],
    [
      "{connectorId} in Add's path",
      { operations: { addConnectors: { path: "/accounts/{accountId}/connectors/{connectorId}" } } },
      /operations\.addConnectors\.path: Add Connector carries no connectorId, so \{connectorId\} cannot be filled; expected \{accountId\}/,
    ],
    [
      "{connectorId} in List Added Connectors' path",
      { operations: { listAddedConnectors: { path: "/connectors/{connectorId}/added" } } },
      /operations\.listAddedConnectors\.path: List Added Connectors carries no connectorId/,
    ],
    [
      "{connectorId} in the catalogue list's path",
      { operations: { listConnectors: { path: "/x/{connectorId}" } } },
      /operations\.listConnectors\.path: List Connectors carries no connectorId/,
    ],
  ];
  for (const [what, profile, expected] of cases) {
    it(what, () => {
      assert.throws(
        () => resolveProfile(profile, "p.yaml"),
        (error: Error) =>
          error instanceof ProfileError && expected.test(error.message) && /p\.yaml/.test(error.message),
      );
    });
  }

  it("every placeholder an operation carries is accepted", () => {
    const profile = resolveProfile(
      {
        operations: {
          listSupportedConnectors: { path: "/a/{accountId}/c/{connectorId}/supported" },
          removeConnector: { path: "/a/{accountId}/c/{connectorId}" },
        },
      },
      "ok",
    );
    assert.equal(profile.operations.removeConnector.path, "/a/{accountId}/c/{connectorId}");
  });
});
