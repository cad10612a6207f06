// Issue 4, item 7: a changed secret value is an update (the `fieldDigests` output
// changes, the plaintext never shows); a changed connectorId is a replace.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, resourceName } from "./harness";
import { apiKeyFields, connectorsStack, MIXPANEL, SEGMENT, startService, type E2EService } from "./fixtures";

type Props = Record<string, unknown>;

describe("e2e: update vs replace", function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const firstKey = `replace-first-${randomBytes(6).toString("hex")}`;
    const secondKey = `replace-second-${randomBytes(6).toString("hex")}`;
    let svc: E2EService;
    let stack: E2EStack;

    function program(connectorId: string, ref: string): Record<string, object> {
        return {
            connectors: [{ key: "main", connectorId }],
            configurations: [{ key: "mainConfig", connectorId, after: "main", secretConfig: apiKeyFields(), secretRefs: { apiKey: ref } }],
        };
    }

    async function configurationOutputs(): Promise<Props> {
        const outputs = await stack.outputValues();
        const configurations = outputs.configurations as Record<string, Props>;
        return configurations.mainConfig;
    }

    before(async function () {
        this.timeout(30 * 60_000);
        await ensureEngine();
        svc = await startService();
        stack = await connectorsStack(svc, "replace", program(SEGMENT, "first"), {
            secretValues: { first: firstKey, second: secondKey },
        });
        await stack.up();
    });

    after(async function () {
        await stack?.dispose();
        await svc?.service.stop();
    });

    it("a changed secret value updates in place; its field's digest changes; the plaintext never shows", async () => {
        const before = await configurationOutputs();
        const liveBefore = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        const urnsBefore = (await stack.resources()).map((r) => r.urn).sort();

        await stack.setConfig(program(SEGMENT, "second"));
        const preview = await stack.preview({ diff: true });
        assert.equal(preview.changeSummary.update, 1, JSON.stringify(preview.changeSummary));
        assert.equal(preview.changeSummary.replace ?? 0, 0);
        const up = await stack.up({ diff: true });
        assert.equal(up.summary.resourceChanges?.update, 1, JSON.stringify(up.summary.resourceChanges));

        const after = await configurationOutputs();
        const [digestsBefore, digestsAfter] = [before.fieldDigests as Record<string, string>, after.fieldDigests as Record<string, string>];
        const moved = Object.keys(digestsAfter).filter((field) => digestsAfter[field] !== digestsBefore[field]);
        assert.equal(moved.length, 1, `one field's digest changed: ${moved.join(", ")}`);
        const liveAfter = await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT);
        assert.ok(liveAfter.lastUpdated > liveBefore.lastUpdated, "the service saw a new write");
        assert.equal(after.lastUpdated, liveAfter.lastUpdated);
        assert.deepEqual((await stack.resources()).map((r) => r.urn).sort(), urnsBefore, "same resources");

        for (const value of [firstKey, secondKey]) {
            assertNoSecret(await stack.exportText(), value, "pulumi stack export");
            assertNoSecret(stack.engineOutput(), value, "the engine's output");
            assertNoSecret(JSON.stringify(after.fieldDigests), value, "the field digests");
        }
        await stack.preview({ refresh: true, expectNoChanges: true });
    });

    it("a changed connectorId replaces both resources", async () => {
        await stack.setConfig(program(MIXPANEL, "second"));
        const preview = await stack.preview();
        assert.equal(preview.changeSummary.replace, 2, JSON.stringify(preview.changeSummary));
        const up = await stack.up();
        assert.equal(up.summary.resourceChanges?.replace, 2, JSON.stringify(up.summary.resourceChanges));

        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [MIXPANEL]);
        const main = (await stack.resources()).find((r) => resourceName(r) === "main");
        assert.equal(main?.id, `${svc.accountId}/${MIXPANEL}`);
        const live = await svc.outOfBand.getConfiguration(svc.accountId, MIXPANEL);
        assert.equal(live.configured, true);
        await stack.preview({ refresh: true, expectNoChanges: true });
    });
});
