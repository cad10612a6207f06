// Issue 4, item 9: a connector added out of band is refused by default, with
// the hint to adopt it, and taken over with `adoptExisting: true`. The
// engine's own import does not work for dynamic resources (see also
// smoke.test.ts, which shows it without a service).
import { strict as assert } from "node:assert";
import { ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { connectorsStack, e2eSuite, SEGMENT } from "./fixtures";

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
});
