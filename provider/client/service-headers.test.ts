// The service's x-request-id and content-type headers
// are its text, and may quote what it was sent (a secretConfig value, the client secret, the
// bearer token). An error shows the service's id only in a strict form that the call's scrub
// leaves unchanged, and after a request that carried secrets only a UUID- or hex-like one;
// otherwise our own id. A content type is shown as `type/subtype` on the same terms.
import assert from "node:assert/strict";
import { resolveProfile } from "../../contract/profile";
import { collect, EmbeddedClient, type IncomingResponse, type OutgoingRequest } from "./";
import {
  ACCOUNT,
  answer,
  CONNECTOR,
  ok,
  refusal,
  ScriptedTransport,
  tokenAnswer,
} from "../../test/support/client-fakes";

const CLIENT_SECRET = "s3cr3t-client";
const PASSWORD = "hunter2-PASSWORD-value";
const SERVICE_UUID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

function clientOf(handler: (request: OutgoingRequest) => IncomingResponse, token = true) {
  const transport = new ScriptedTransport((request) =>
    token && request.target.includes("/oauth/") ? tokenAnswer() : handler(request),
  );
  const client = EmbeddedClient.create(
    {
      baseUrl: "http://127.0.0.1:1",
      clientId: "c",
      clientSecret: CLIENT_SECRET,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      profile: resolveProfile({}, "test"),
    },
    { transport, sleep: async () => undefined },
  );
  // Our own id of the last request sent: what an error shows when the service's is not safe to.
  const ours = () => transport.requests[transport.requests.length - 1].requestId;
  return { client, ours };
}

const configure = (client: EmbeddedClient) =>
  client.configure(ACCOUNT, CONNECTOR, { configurationId: "c0c0c0c0c0c0c0c0", secretConfig: { password: PASSWORD } });

const refused = (requestId: string) => answer(400, { statusCode: 400, statusMessage: "no" }, { requestId });

describe("client: the service's headers in errors", () => {
  it("Configure refused, its x-request-id quoting a secret upper-cased: our own id instead (F3)", async () => {
    const { client, ours } = clientOf((r) => (r.method === "GET" ? ok({}) : refused(`echo-${PASSWORD.toUpperCase()}`)));
    const error = await refusal(configure(client));
    assert.doesNotMatch(error.message, /hunter2/i);
    assert.ok(error.message.endsWith(`(request id ${ours()})`), error.message);
  });

  it("Configure refused with a UUID request id: the service's id is shown (support can find it)", async () => {
    const { client } = clientOf((r) => (r.method === "GET" ? ok({}) : refused(SERVICE_UUID)));
    const error = await refusal(configure(client));
    assert.ok(error.message.endsWith(`(request id ${SERVICE_UUID})`), error.message);
  });

  it("the token route refused, its x-request-id echoing the client secret: our own id instead (F3)", async () => {
    const { client, ours } = clientOf(
      () => answer(401, { statusCode: 401, statusMessage: "bad" }, { requestId: CLIENT_SECRET.toUpperCase() }),
      false,
    );
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assert.doesNotMatch(error.message, new RegExp(CLIENT_SECRET, "i"));
    assert.ok(error.message.endsWith(`(request id ${ours()})`), error.message);
  });

  it("a request without secrets: a plain service id is shown, one outside the strict form is not", async () => {
    const plain = clientOf(() =>
      answer(409, { statusCode: 409, statusMessage: "in use" }, { requestId: "req.42:a_b-c" }),
    );
    assert.match(
      (await refusal(plain.client.getConnector(ACCOUNT, CONNECTOR))).message,
      /\(request id req\.42:a_b-c\)$/,
    );
    const odd = clientOf(() => answer(409, { statusCode: 409, statusMessage: "in use" }, { requestId: "a b\nc" }));
    const error = await refusal(odd.client.getConnector(ACCOUNT, CONNECTOR));
    assert.ok(error.message.endsWith(`(request id ${odd.ours()})`), error.message);
  });

  it("a list answer echoing the bearer token in content-type and x-request-id: neither is printed (F8)", async () => {
    // tokenAnswer() issues "tok-1".
    const { client, ours } = clientOf(() =>
      answer(200, "<html/>", { contentType: "text/x-tok-1", requestId: "tok-1" }),
    );
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assert.doesNotMatch(error.message, /tok-1/);
    assert.match(error.message, /expected a JSON body, got an unexpected content type/);
    assert.ok(error.message.endsWith(`(request id ${ours()})`), error.message);
  });

  it("a plain content type is shown as its type/subtype, without its parameters", async () => {
    const { client } = clientOf(() => answer(200, "<html/>", { contentType: "text/html; charset=tok-1" }));
    const error = await refusal(collect(client.listAddedConnectors(ACCOUNT)));
    assert.match(error.message, /expected a JSON body, got text\/html/);
    assert.doesNotMatch(error.message, /tok-1/);
  });
});
