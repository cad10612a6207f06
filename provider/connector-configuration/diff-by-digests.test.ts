// The fleet's drift check diffs a refreshed ConnectorConfiguration against the digests its
// last apply recorded (diffByDigests), because the stored secretConfig stays encrypted. It must
// say what diff says with the plaintext inputs, the engine's refresh call: random out-of-band
// writes (seeded: FLEET_DIGEST_SEED replays them), each compared both ways.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as impl from "./steps";
import { CONNECTORS, SEGMENT_CONFIG, useProviderFixture } from "../../test/support/provider-fixtures";
import { seededRandom } from "../../test/support/seed";

type Props = Record<string, unknown>;
const SEED = process.env.FLEET_DIGEST_SEED ?? randomBytes(4).toString("hex");

/** Out-of-band writes: the whole configuration, as Configure takes it (undefined: none). */
const WRITES: [string, Record<string, string | number | string[]> | undefined][] = [
  ["nothing", undefined],
  ["a Text changed", { ...SEGMENT_CONFIG, workspace: "someone-else" }],
  ["a Number changed", { ...SEGMENT_CONFIG, batchSize: 250 }],
  ["a Select changed", { ...SEGMENT_CONFIG, dataCenter: "APAC" }],
  ["a Multi-Select changed", { ...SEGMENT_CONFIG, eventTypes: ["identify"] }],
  ["a field cleared", { ...SEGMENT_CONFIG, eventTypes: [] }],
  ["a field added", { ...SEGMENT_CONFIG, backfillFrom: "2024-02-29" }],
  ["the Password alone", { ...SEGMENT_CONFIG, apiKey: "typed-by-hand" }],
  ["the same values again, other forms", { ...SEGMENT_CONFIG, batchSize: "100.0", eventTypes: "page, track" }],
];

describe(`ConnectorConfiguration diffByDigests agrees with diff (seed ${SEED}; replay with FLEET_DIGEST_SEED=${SEED})`, () => {
  const fx = useProviderFixture();
  const inputs = (): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig: SEGMENT_CONFIG,
    __provider: "p",
  });

  const next = seededRandom(SEED);
  const picks = Array.from({ length: 6 }, () => WRITES[Math.floor(next() * WRITES.length)]);
  for (const [what, write] of [...WRITES, ...picks.map(([w, c]) => [`${w} (random)`, c] as (typeof WRITES)[number])]) {
    it(`${what}: the same verdict and the same fields`, async () => {
      await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
      const { id, outs } = await impl.create(inputs());
      const applied = outs as Props;
      if (write)
        await fx.client.configure(fx.accountId, CONNECTORS.segment, {
          configurationId: String(applied.configurationId),
          secretConfig: write,
        });
      const read = (await impl.read(id, applied)).props as Props;
      const { secretConfig: _plain, ...withoutSecretConfig } = inputs();
      const byValues = await impl.diff(id, read, inputs());
      const byDigests = await impl.diffByDigests(
        id,
        read,
        withoutSecretConfig,
        applied.fieldDigests as Record<string, string>,
      );
      assert.deepEqual(
        [byDigests.changes, byDigests.detailedDiff],
        [byValues.changes, byValues.detailedDiff],
        `${what}: diffByDigests against diff`,
      );
      assert.equal(byValues.changes, write !== undefined, "a write out of band is drift, none is not");
    });
  }
});
