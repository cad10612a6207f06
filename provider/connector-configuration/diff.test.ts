// ConnectorConfiguration's diff of the inputs that are neither secrets nor values: a program
// that renames the configuration (name, secretName) or points at another configurationId must
// see an update, and the same inputs must see none.
import assert from "node:assert/strict";
import * as impl from "./steps";
import {
  CONNECTORS,
  SEGMENT_CONFIG,
  startFixture,
  useConfig,
  type ProviderFixture,
} from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;

describe("ConnectorConfiguration diff: name, secretName and configurationId", () => {
  let fx: ProviderFixture;
  let id: string;
  let outs: Props;
  const inputs = (extra: Props = {}): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig: SEGMENT_CONFIG,
    __provider: "p",
    ...extra,
  });

  before(async () => {
    fx = await startFixture();
    await fx.service.reset();
    useConfig(fx);
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const created = await impl.create(inputs({ name: "Segment (prod)", secretName: "segment-prod" }));
    id = created.id;
    outs = created.outs as Props;
  });
  after(async () => fx.service.stop());

  it("sees no change when the program gives the applied name, secretName and configurationId", async () => {
    const same = inputs({ name: outs.name, secretName: outs.secretName, configurationId: outs.configurationId });
    assert.deepEqual(await impl.diff(id, outs, same), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {},
    });
  });

  for (const [key, value] of [
    ["name", "Segment (staging)"],
    ["secretName", "segment-staging"],
    ["configurationId", "0000000000000000"],
  ] as const) {
    it(`updates in place (no replace) when only ${key} changes in the program`, async () => {
      assert.notEqual(outs[key], value, "the fixture must start from another value");
      const result = await impl.diff(id, outs, inputs({ name: outs.name, secretName: outs.secretName, [key]: value }));
      assert.deepEqual([result.changes, result.replaces], [true, []], `a changed ${key} must be applied`);
    });
  }
});
