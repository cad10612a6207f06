// An error answer to a Configure that sent large
// values is the typed error of its status, with its request id and none of the values; and a
// transient 503 is retried whatever the size of the values.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { EmbeddedApiError, UndiciTransport, type ConfigureBody, type IncomingResponse, type OutgoingRequest } from "./";
import { isSecretField } from "../schema/secret-fields";
import { secretConfigFor, useLocalService } from "../../test/support/local-client";
import { routeKey } from "../../contract/routes";

const CONFIGURE = routeKey("configure");

function canary(label: string, size = 0): string {
  const head = `canary-${label}-${randomBytes(6).toString("hex")}-`;
  return head + "x".repeat(Math.max(0, size - head.length));
}

/** Everything an error shows: message, stack, own fields and the cause chain. */
function shown(error: unknown): string {
  const parts = [inspect(error, { depth: 20 })];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? "");
  return parts.join("\n");
}

describe("client against the local service: error answers to large values", function () {
  this.timeout(60_000);
  const ctx = useLocalService();

  /** A client whose answers are recorded, and the body of a Configure with a Text value of `textSize` and a Password canary. */
  async function setUp(textSize: number) {
    const answers: { request: OutgoingRequest; response: IncomingResponse }[] = [];
    const inner = new UndiciTransport(ctx.pool(ctx.svc.baseUrl));
    const transport = {
      async send(request: OutgoingRequest) {
        const response = await inner.send(request);
        answers.push({ request, response });
        return response;
      },
    };
    const client = ctx.direct({}, { transport });
    await client.addConnectors(ctx.account, [ctx.source.connectorId]);
    const conf = await client.getConfiguration(ctx.account, ctx.source.connectorId);
    const fields = conf.secretConfig[0].configuration;
    const text = fields.find((f) => f.type === "Text" && !f.readonly) ?? assert.fail("no Text field");
    const secret = fields.find((f) => isSecretField(f, undefined)) ?? assert.fail("no Password field");
    const canaries = { text: canary("text", textSize), password: canary("password") };
    const body: ConfigureBody = {
      configurationId: conf.secretConfig[0].configurationId,
      secretConfig: { ...secretConfigFor(conf), [text.id]: canaries.text, [secret.id]: canaries.password },
    };
    return { client, body, canaries, answers };
  }

  it("a 1.1 MB Text value refused with 413: the typed 413 error, its request id, and no canary in message, stack or causes", async () => {
    const { client, body, canaries, answers } = await setUp(1_100_000);
    const error = await client.configure(ctx.account, ctx.source.connectorId, body).then(
      () => assert.fail("expected the 413"),
      (e: unknown) => e,
    );
    const all = shown(error);
    assert.ok(!all.includes(canaries.password), "the Password canary appears in the error");
    assert.ok(!all.includes(canaries.text.slice(0, 40)), "the Text canary appears in the error");
    assert.ok(error instanceof EmbeddedApiError, `expected the typed error, got ${all.slice(0, 200)}`);
    assert.equal(error.status, 413);
    const refused = answers.find((a) => a.response.status === 413) ?? assert.fail("no 413 answer");
    assert.equal(error.requestId, refused.response.requestId);
    assert.ok(error.message.includes(`(request id ${refused.request.requestId})`), error.message);
    assert.deepEqual(await ctx.routeStats(CONFIGURE), { "413": 1 });
  });

  it("a 40 KB Text value and one injected 503: retried, then configured", async () => {
    const { client, body } = await setUp(40_000);
    await ctx.svc.setFaults({ rules: [{ route: CONFIGURE, mode: "error", status: 503, count: 1 }] });
    const result = await client.configureWithOutcome(ctx.account, ctx.source.connectorId, body);
    assert.equal(result.view.configured, true);
    assert.equal(result.retried, true);
    assert.deepEqual(await ctx.routeStats(CONFIGURE), { "503": 1, "200": 1 });
  });
});
