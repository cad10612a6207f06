// A changed secret value is an update (a Password keeps its mark in `fieldDigests`,
// the plaintext never shows); a changed connectorId is a replace.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { assertNoSecret, ENGINE_TIMEOUT_MS, resourceName } from "./harness";
import { PASSWORD_MARK } from "../../provider/connector-configuration/field-digests";
import { apiKeyFields, connectorsStack, e2eSuite, MIXPANEL, SEGMENT } from "./fixtures";

type Props = Record<string, unknown>;

describe("e2e: update vs replace", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const firstKey = `replace-first-${randomBytes(6).toString("hex")}`;
  const secondKey = `replace-second-${randomBytes(6).toString("hex")}`;

  function program(connectorId: string, ref: string): Record<string, object> {
    return {
      connectors: [{ key: "main", connectorId }],
      configurations: [
        { key: "mainConfig", connectorId, after: "main", secretConfig: apiKeyFields(), secretRefs: { apiKey: ref } },
      ],
    };
  }

  async function configurationOutputs(): Promise<Props> {
    const outputs = await e2e.stack.outputValues();
    const configurations = outputs.configurations as Record<string, Props>;
    return configurations.mainConfig;
  }

  const e2e = e2eSuite({
    stack: (svc) =>
      connectorsStack(svc, "replace", program(SEGMENT, "first"), {
        secretValues: { first: firstKey, second: secondKey },
      }),
    setUp: async ({ stack }) => {
      await stack.up();
    },
  });

  it("a changed secret value (a Password) updates in place; no digest of it is kept; the plaintext never shows", async () => {
    const before = await configurationOutputs();
    const liveBefore = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    const urnsBefore = (await e2e.stack.resources()).map((r) => r.urn).sort();

    await e2e.stack.setConfig(program(SEGMENT, "second"));
    const preview = await e2e.stack.preview({ diff: true });
    assert.equal(preview.changeSummary.update, 1, JSON.stringify(preview.changeSummary));
    assert.equal(preview.changeSummary.replace ?? 0, 0);
    const up = await e2e.stack.up({ diff: true });
    assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));

    const after = await configurationOutputs();
    const [digestsBefore, digestsAfter] = [
      before.fieldDigests as Record<string, string>,
      after.fieldDigests as Record<string, string>,
    ];
    const moved = Object.keys(digestsAfter).filter((field) => digestsAfter[field] !== digestsBefore[field]);
    // A Password is never digested: the update and lastUpdated show the write.
    assert.deepEqual(moved, [], `no field's digest changed: ${moved.join(", ")}`);
    assert.equal(digestsAfter.apiKey, PASSWORD_MARK, "the Password keeps its mark, not a digest");
    const liveAfter = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, SEGMENT);
    assert.ok(liveAfter.lastUpdated > liveBefore.lastUpdated, "the service saw a new write");
    assert.equal(after.lastUpdated, liveAfter.lastUpdated);
    assert.deepEqual((await e2e.stack.resources()).map((r) => r.urn).sort(), urnsBefore, "same resources");

    for (const value of [firstKey, secondKey]) {
      assertNoSecret(await e2e.stack.exportText(), value, "pulumi stack export");
      assertNoSecret(e2e.stack.engineOutput(), value, "the engine's output");
      assertNoSecret(JSON.stringify(after.fieldDigests), value, "the field digests");
    }
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("a changed connectorId replaces both resources", async () => {
    await e2e.stack.setConfig(program(MIXPANEL, "second"));
    const preview = await e2e.stack.preview();
    assert.equal(preview.changeSummary.replace, 2, JSON.stringify(preview.changeSummary));
    const up = await e2e.stack.up();
    assert.equal(up.summary.resourceChanges?.replace, 2, JSON.stringify(up.summary.resourceChanges));

    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [MIXPANEL]);
    const main = (await e2e.stack.resources()).find((r) => resourceName(r) === "main");
    assert.equal(main?.id, `${e2e.svc.accountId}/${MIXPANEL}`);
    const live = await e2e.svc.outOfBand.getConfiguration(e2e.svc.accountId, MIXPANEL);
    assert.equal(live.configured, true);
    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
  });
});
