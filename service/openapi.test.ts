// The OpenAPI document: served, complete for the public routes, free of the
// admin routes, and the committed service/openapi.json is up to date.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { expectEnvelope, harness } from "../test/support/service";

describe("service: OpenAPI document", () => {
  it("is served at /es/v2/openapi.json without a token, with every public route and no admin route", async () => {
    const h = await harness();
    try {
      const res = await h.app.inject({ method: "GET", url: "/es/v2/openapi.json" });
      assert.equal(res.statusCode, 200);
      const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
      assert.match(doc.openapi, /^3\./);
      const ops = Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
      );
      assert.deepEqual(ops.sort(), [
        "DELETE /es/v2/connectors/{connectorId}",
        "GET /es/v2/connectors",
        "GET /es/v2/connectors/added",
        "GET /es/v2/connectors/supported",
        "GET /es/v2/connectors/{connectorId}",
        "GET /es/v2/connectors/{connectorId}/configuration",
        "POST /es/v2/connectors",
        "POST /es/v2/oauth/client-token",
        "PUT /es/v2/connectors/{connectorId}/configuration",
      ]);
      const committed = JSON.parse(
        fs.readFileSync(path.join(__dirname, "../../service/openapi.json"), "utf8"),
      ) as unknown;
      assert.deepEqual(committed, doc, "service/openapi.json is stale: npm run build && npm run openapi");
      expectEnvelope(await h.app.inject({ method: "GET", url: "/es/v2/openapi.yaml" }), 404);
    } finally {
      await h.close();
    }
  });
});
