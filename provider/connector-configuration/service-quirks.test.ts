// ConnectorConfiguration against a service that misbehaves in ways the local one does not:
// it quotes the values it was sent in a 400, and a PUT whose answer was
// lost lands after its retry. A transport in front of the local service
// plays the part; everything else is the real service.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import type { Pool } from "undici";
import {
  EmbeddedClient,
  NetworkError,
  UndiciTransport,
  createPool,
  type IncomingResponse,
  type OutgoingRequest,
  type Transport,
} from "../client";
import * as impl from "./steps";
import { configSourceFromGetter, resolveSettings, toClientSettings } from "../settings/resolve";
import { failure as answerFailure } from "../../test/support/client-fakes";
import {
  CONNECTORS,
  SEGMENT_CONFIG,
  rejection,
  startFixture,
  useConfig,
  type ProviderFixture,
} from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;
type Intercept = (
  request: OutgoingRequest,
  forward: (r: OutgoingRequest) => Promise<IncomingResponse>,
) => Promise<IncomingResponse>;

const isConfigure = (request: OutgoingRequest) => request.method === "PUT" && request.target.includes("/configuration");

/** Sends to the local service, except what `intercept` answers itself. */
class InterceptingTransport implements Transport {
  intercept: Intercept | undefined;
  constructor(private readonly inner: Transport) {}
  send(request: OutgoingRequest): Promise<IncomingResponse> {
    const forward = (r: OutgoingRequest) => this.inner.send(r);
    return this.intercept ? this.intercept(request, forward) : forward(request);
  }
}

/** A 400 that quotes every value of the secretConfig it was sent, as a careless service would. */
const quotingRefusal: Intercept = async (request, forward) => {
  if (!isConfigure(request)) return forward(request);
  const sent = (JSON.parse(request.body ?? "{}") as { secretConfig: Record<string, unknown> }).secretConfig;
  return answerFailure(
    400,
    `invalid configuration: key ${String(sent.apiKey)} is revoked`,
    {
      errors: [
        { field: "secretConfig.apiKey", message: `"${String(sent.apiKey)}" is not a live key` },
        { field: "secretConfig.workspace", message: `workspace ${String(sent.workspace)} is closed` },
      ],
    },
    // After a request that carried secrets only a UUID- or hex-like service id is shown.
    { requestId: "0badc0ffee0400aa" },
  );
};

/** Every text of an error: message, stack, own fields and the whole cause chain. */
function causeChain(error: unknown): string[] {
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) texts.push(e.message, e.stack ?? "");
  return texts;
}

describe("ConnectorConfiguration provider: service quirks", () => {
  let fx: ProviderFixture;
  let pool: Pool;
  let transport: InterceptingTransport;
  before(async () => {
    fx = await startFixture();
    pool = createPool(fx.service.baseUrl, { connectMs: 2_000, headersMs: 10_000, bodyMs: 10_000 });
    transport = new InterceptingTransport(new UndiciTransport(pool));
  });
  after(async () => {
    await pool.close();
    await fx.service.stop();
  });
  beforeEach(async () => {
    await fx.service.reset();
    transport.intercept = undefined;
    const settings = toClientSettings(resolveSettings(configSourceFromGetter({ get: (key) => fx.config[key] })));
    // random 0: retries wait no backoff.
    useConfig(fx, {}, EmbeddedClient.create(settings, { transport, random: () => 0 }));
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
  });

  const inputs = (secretConfig: Props = SEGMENT_CONFIG): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig,
  });

  function assertNamesFieldsNotValues(error: Error, values: string[]): void {
    const texts = [...causeChain(error), inspect(error, { depth: 10 })];
    for (const value of values) {
      assert.ok(
        texts.every((text) => !text.includes(value)),
        `${value} appears in the error or its causes: ${inspect(error, { depth: 10 })}`,
      );
    }
    assert.match(error.message, /the service refused fields secretConfig\.apiKey, secretConfig\.workspace/);
    assert.equal(error.message.split("0badc0ffee0400aa").length - 1, 1, `the request id once: ${error.message}`);
  }

  it("create: a 400 quoting the sent values names the fields, never the values", async () => {
    transport.intercept = quotingRefusal;
    const error = await rejection(impl.create(inputs()));
    assertNamesFieldsNotValues(error, [SEGMENT_CONFIG.apiKey, SEGMENT_CONFIG.workspace]);
  });

  it("update: a 400 quoting the new values names the fields, never the values", async () => {
    const { id, outs } = await impl.create(inputs());
    transport.intercept = quotingRefusal;
    const rotated = { ...SEGMENT_CONFIG, apiKey: "sk_live_rotated_0a1b2c3d", workspace: "secret-workspace-2" };
    const error = await rejection(impl.update(id, outs as Props, inputs(rotated)));
    assertNamesFieldsNotValues(error, [rotated.apiKey, rotated.workspace]);
  });

  it("a PUT whose lost first attempt lands after its retry records the live lastUpdated: no false drift", async () => {
    let delayed: OutgoingRequest | undefined;
    transport.intercept = async (request, forward) => {
      if (!isConfigure(request)) return forward(request);
      if (!delayed) {
        // The first attempt is held back (its answer will never come) and reaches the service late…
        delayed = request;
        throw new NetworkError({ route: request.route, requestId: request.requestId, code: "UND_ERR_HEADERS_TIMEOUT" });
      }
      const answer = await forward(request);
      await forward(delayed); // …after the retry was saved: its lastUpdated is the newer one.
      return answer;
    };
    const { id, outs } = await impl.create(inputs());
    transport.intercept = undefined;
    const live = await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment);
    assert.equal(
      (outs as Props).appliedLastUpdated,
      live.lastUpdated,
      "the lastUpdated the service holds is the applied one",
    );
    const refreshed = await impl.read(id, outs as Props);
    assert.equal(
      (await impl.diff(id, refreshed.props as Props, inputs())).changes,
      false,
      "no drift right after create",
    );
  });
});
