// A connector added out of band is refused by default, with
// the hint to adopt it, and taken over with `adoptExisting: true`. The
// engine's own import does not work for dynamic resources (see also
// smoke.test.ts, which shows it without a service).
// A configuration whose Password the customer holds
// (`heldByService`) cannot be created on a service whose Configure replaces the whole
// configuration; the refusal comes at preview and nothing is written.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { assertNoSecret, ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { apiKeyFields, connectorsStack, e2eSuite, SEGMENT } from "./fixtures";

describe("e2e: adopting a connector added out of band", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = e2eSuite({
    stack: (svc) => connectorsStack(svc, "adopt", { connectors: [{ key: "segment", connectorId: SEGMENT }] }),
    setUp: ({ svc }) => svc.outOfBand.add(svc.accountId, [SEGMENT]),
  });

  it("up refuses it with the hint to set adoptExisting", async () => {
    const text = await e2e.stack.expectFailure((s) => s.up());
    assert.match(text, /already added/);
    assert.ok(text.includes(SEGMENT), "names the connector id");
    assert.ok(text.includes(e2e.svc.accountId), "names the sub-account");
    assert.match(text, /adoptExisting: true/);
    assert.deepEqual(await e2e.stack.resources(), [], "nothing in the state");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT], "still added, once");
  });

  // At engine v3.248.0 `pulumi import` fails in the dynamic-provider host's
  // Read before any provider code runs: the host needs the serialized
  // `__provider` property and an import passes no properties:
  //   TypeError: Cannot read properties of undefined (reading 'toJavaScript')
  it("`pulumi import` of the AddedConnector fails in the dynamic-provider host", async () => {
    const text = await e2e.stack.expectFailure((s) =>
      s.stack.import({
        resources: [
          {
            type: "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector",
            name: "segment",
            id: `${e2e.svc.accountId}/${SEGMENT}`,
          },
        ],
        protect: false,
        generateCode: false,
      }),
    );
    assert.match(text, /Cannot read properties of undefined \(reading 'toJavaScript'\)/);
    assert.deepEqual(await e2e.stack.resources(), []);
  });

  it("adoptExisting: true takes it over", async () => {
    await e2e.stack.setConfig({ connectors: [{ key: "segment", connectorId: SEGMENT, adoptExisting: true }] });
    const result = await e2e.stack.up();
    // The stack itself was created by the refused run.
    assert.equal(result.summary.resourceChanges?.create, 1, JSON.stringify(result.summary.resourceChanges));
    const resources = await e2e.stack.resources();
    assert.deepEqual(resources.map(resourceName), ["segment"]);
    assert.equal(resources[0].id, `${e2e.svc.accountId}/${SEGMENT}`);
    assert.equal(resources[0].outputs?.name, "Segment");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT]);
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("once adopted, it is managed: destroy removes it", async () => {
    await e2e.stack.destroy();
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), []);
  });

  it("a customer-configured Segment, its apiKey left to the service: up is refused at preview, nothing written, the key never shown", async () => {
    const { svc } = e2e;
    const customerKey = `canary-customer-${randomBytes(6).toString("hex")}`;
    await svc.outOfBand.add(svc.accountId, [SEGMENT]);
    await svc.outOfBand.configure(svc.accountId, SEGMENT, apiKeyFields({ apiKey: customerKey }));
    const { lastUpdated } = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
    const held = {
      key: "segmentConfig",
      connectorId: SEGMENT,
      secretConfig: apiKeyFields(),
      heldByService: ["apiKey"],
    };
    await e2e.stack.setConfig({ connectors: [], configurations: [held] });
    try {
      const text = await e2e.stack.expectFailure((s) => s.up());
      // Refused by check (the engine's "has a problem"), before any step: not by the create itself.
      assert.match(
        text,
        /property heldByService value .* has a problem: creating the configuration of connector \w+ of sub-account \S+ would clear the Password/,
      );
      assert.doesNotMatch(text, /segmentConfig \*\*creating failed\*\*/);
      assert.match(text, /heldByService: apiKey/);
      assert.match(text, /configureWrites: whole/);
      assert.equal((await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT)).lastUpdated, lastUpdated);
      assert.deepEqual(await e2e.stack.resources(), [], "nothing in the state");
      assertNoSecret(text, customerKey, "the refused up's output");
      assertNoSecret(e2e.stack.engineOutput(), customerKey, "the engine's output");
    } finally {
      await e2e.stack.setConfig({ configurations: [] });
    }
  });
});
