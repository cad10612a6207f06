// What the request log may never contain: client secrets, tokens, Password values.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { byName, expectEnvelope, harness, oauthBody, q } from "../test/support/service";

describe("service: logging", () => {
  it("logs requests without secrets, tokens or Password values, even at trace level", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const fb = byName("Facebook Custom Audiences");
    const h = await harness({ logger: { level: "trace", stream } });
    try {
      const token = await h.token();
      expectEnvelope(
        await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
        200,
      );
      expectEnvelope(
        await h.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`, {
          payload: oauthBody(fb),
        }),
        200,
      );
      expectEnvelope(
        await h.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(h.account)}`, {
          payload: oauthBody(fb, { dailyUploadLimit: -1 }),
        }),
        400,
      );
      const log = lines.join("");
      assert.match(log, /incoming request/);
      for (const secret of ["demo-secret", token, "s3cr3t-value"])
        assert.ok(!log.includes(secret), "a secret reached the log");
    } finally {
      await h.close();
    }
  });
});
