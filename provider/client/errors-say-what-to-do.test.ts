// Errors of the first hour say what to do: a 401 of the token route names the
// settings and environment variables to check; a baseUrl ending with the API's own prefix is
// refused before any request, with the baseUrl to use; a 404 shows the path actually requested
// (the base path and ids, never the query).
import assert from "node:assert/strict";
import { AuthenticationError, EmbeddedClient, InvalidArgumentError, NotFoundError, type ClientSettings } from "./";
import { ACCOUNT, CONNECTOR, ScriptedTransport, failure, tokenAnswer } from "../../test/support/client-fakes";

const SECRET = "wrong-secret-value";
const settings: ClientSettings = { baseUrl: "https://svc.test", clientId: "demo-client", clientSecret: SECRET };
const TOKEN_PATH = "/es/v2/oauth/client-token";

async function refusal(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => assert.fail("the call succeeded"),
    (error: Error) => error,
  );
}

describe("client: errors that say what to do", () => {
  it("a 401 of the token route names embedded:clientId/clientSecret, their variables and baseUrl", async () => {
    const transport = new ScriptedTransport(() => failure(401, "Unauthorized"));
    const client = EmbeddedClient.create(settings, { transport, sleep: async () => undefined });
    const error = await refusal(client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof AuthenticationError, String(error));
    for (const name of [
      "embedded:clientId",
      "embedded:clientSecret",
      "EMBEDDED_CLIENT_ID",
      "EMBEDDED_CLIENT_SECRET",
      "embedded:baseUrl",
    ])
      assert.ok(error.message.includes(name), `names ${name}: ${error.message}`);
    assert.match(error.message, new RegExp(`^POST ${TOKEN_PATH}: 401 Unauthorized: `), "the route and status first");
    // The token request carried the client secret: our own id, not the service's "srv-401".
    assert.match(error.message, /\(request id [0-9a-f]{8}-[0-9a-f-]{27}\)$/);
    assert.ok(!error.message.includes(SECRET), "never the secret");
    assert.equal(transport.requests.length, 1, "a refused secret is not retried");
  });

  it("a 401 of a data route (a token rejected twice) does not blame the credentials", async () => {
    const transport = new ScriptedTransport((request) =>
      request.target === TOKEN_PATH ? tokenAnswer() : failure(401, "Unauthorized"),
    );
    const client = EmbeddedClient.create(settings, { transport, sleep: async () => undefined });
    const error = await refusal(client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof AuthenticationError);
    assert.doesNotMatch(error.message, /EMBEDDED_CLIENT_SECRET/);
  });

  for (const [baseUrl, fixed] of [
    ["https://svc.test/es/v2", "https://svc.test"],
    ["https://svc.test/es/v2/", "https://svc.test"],
    ["https://svc.test/proxy/es/v2", "https://svc.test/proxy"],
  ]) {
    it(`a baseUrl repeating the API's prefix (${baseUrl}) is refused before any request, with ${fixed}`, () => {
      const transport = new ScriptedTransport(() => tokenAnswer());
      assert.throws(
        () => EmbeddedClient.create({ ...settings, baseUrl }, { transport }),
        (error: Error) => {
          assert.ok(error instanceof InvalidArgumentError);
          assert.equal(error.argument, "baseUrl");
          assert.match(error.message, /ends with \/es\/v2/);
          assert.ok(error.message.includes(`to ${fixed}`), error.message);
          assert.match(error.message, /embedded:baseUrl \(EMBEDDED_BASE_URL\)/);
          return true;
        },
      );
      assert.equal(transport.requests.length, 0);
    });
  }

  it("a base path that merely looks alike (/xes/v2, /es/v20) is accepted", () => {
    for (const baseUrl of ["https://svc.test/xes/v2", "https://svc.test/es/v20", "https://svc.test/api"])
      EmbeddedClient.create({ ...settings, baseUrl }, { transport: new ScriptedTransport(() => tokenAnswer()) });
  });

  it("a 404 shows the path actually requested, base path and ids included, never the query", async () => {
    const transport = new ScriptedTransport((request) =>
      request.target.endsWith(TOKEN_PATH) ? tokenAnswer() : failure(404, "Not Found"),
    );
    const client = EmbeddedClient.create({ ...settings, baseUrl: "https://svc.test/tenant-7" }, { transport });
    const error = await refusal(client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(error instanceof NotFoundError, String(error));
    assert.ok(
      error.message.includes(`requested /tenant-7/es/v2/connectors/${CONNECTOR}`),
      `the path requested: ${error.message}`,
    );
    assert.match(error.message, /^GET \/es\/v2\/connectors\/\{connectorId\}: 404 /, "the route's template first");
    assert.ok(!error.message.includes("accountId="), "no query in the message");
  });
});
