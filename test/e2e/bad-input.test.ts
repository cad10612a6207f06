// Bad input fails at `preview`, naming the field, before the
// service sees any mutating call. One stack; each case sets its own program
// config and previews. (An unknown field and a Number out of range: on every host, in
// host-matrix.test.ts.)
import { strict as assert } from "node:assert";
import { ENGINE_TIMEOUT_MS } from "./harness";
import { apiKeyFields, connectorsStack, e2eSuite, mutatingCalls, SEGMENT } from "./fixtures";

describe("e2e: bad input fails at preview, naming the field, with no mutating call", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = e2eSuite({ stack: (svc) => connectorsStack(svc, "bad-input") });

  afterEach(async function () {
    // Whatever the case did, the service changed nothing.
    assert.equal(
      mutatingCalls(await e2e.svc.service.stats()),
      0,
      JSON.stringify((await e2e.svc.service.stats()).byRoute),
    );
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
  });

  /** Previews with these connectors and configurations; returns what the failed preview printed. */
  async function failedPreview(connectors: object[], configurations: object[]): Promise<string> {
    await e2e.stack.setConfig({ connectors, configurations });
    const text = await e2e.stack.expectFailure((s) => s.preview());
    return text;
  }

  /** A configuration of Segment, added in the same program, with one field changed or dropped. */
  function segment(fields: Record<string, string | number | string[] | null>): [object[], object[]] {
    const secretConfig: Record<string, unknown> = { ...apiKeyFields(), apiKey: "bad-input-key" };
    for (const [field, value] of Object.entries(fields)) {
      if (value === null) {
        delete secretConfig[field];
      } else {
        secretConfig[field] = value;
      }
    }
    return [
      [{ key: "segment", connectorId: SEGMENT }],
      [{ key: "segmentConfig", connectorId: SEGMENT, after: "segment", secretConfig }],
    ];
  }

  it("an invalid connectorId", async () => {
    const text = await failedPreview([{ key: "broken", connectorId: "not-a-connector-id" }], []);
    assert.match(text, /connectorId/);
    assert.match(text, /not-a-connector-id/);
  });

  it("a missing required field", async () => {
    const text = await failedPreview(...segment({ workspace: null }));
    assert.match(text, /workspace/);
  });

  it("several bad fields at once: each is named (readonly set, value not among options)", async () => {
    const text = await failedPreview(...segment({ apiBaseUrl: "https://elsewhere.example.com", dataCenter: "MARS" }));
    assert.match(text, /apiBaseUrl/);
    assert.match(text, /dataCenter/);
  });
});
