// Property: for every secretConfig that check accepts — every field type,
// string forms included ("100.0", "page, track") — create against the local service, then
// diff shows no change; so do a refresh followed by diff, and the next `up`'s check and diff
// of the same program. A perpetual diff would keep `preview --refresh --expect-no-changes`
// red. Seeds are random: a failure prints the seed; PROPERTY_SEED=<seed> replays it.
import assert from "node:assert/strict";
import fc from "fast-check";
import * as impl from "./steps";
import { CATALOGUE, type CatalogueConnector } from "../../service/seed/catalogue";
import { startFixture, useConfig, type ProviderFixture } from "../../test/support/provider-fixtures";
import { secretConfigFor } from "../../test/support/arbitraries";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

type Props = Record<string, unknown>;

/** One connector of each kind of secret configuration (API key, storage, OAuth): every field type. */
const KINDS: CatalogueConnector[] = ["Mixpanel", "Google Cloud Storage", "LinkedIn Matched Audiences"].map((name) => {
  const found = CATALOGUE.find((c) => c.name === name);
  if (!found) throw new Error(`no seeded connector ${name}`);
  return found;
});

describe("property: ConnectorConfiguration create, then diff", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  let fx: ProviderFixture;
  before(async () => {
    fx = await startFixture();
    await fx.client.addConnectors(
      fx.accountId,
      KINDS.map((c) => c.connectorId),
    );
  });
  after(() => fx.service.stop());

  it("shows no change after create, after a refresh, and in the next up, for whatever check accepts", async () => {
    const types = new Set(KINDS.flatMap((c) => c.secretConfiguration.fields.map((f) => f.type)));
    assert.deepEqual(
      [...types].sort(),
      ["Date", "Multi-Select", "Number", "Password", "Select", "Text"],
      "every field type is generated",
    );
    let accepted = 0;
    // By name, so that a counterexample prints short.
    const cases = fc
      .constantFrom(...KINDS)
      .chain((c) => fc.tuple(fc.constant(c.name), secretConfigFor(c.secretConfiguration.fields)));
    await fc.assert(
      fc.asyncProperty(cases, async ([name, secretConfig]) => {
        const connector = KINDS.find((c) => c.name === name) as CatalogueConnector;
        useConfig(fx); // a fresh engine process per case: nothing cached between cases
        // Earlier cases configured the same connectors: each case is a stack taking it over.
        const news: Props = { connectorId: connector.connectorId, secretConfig, adoptExisting: true };
        const checked = await impl.check({}, news);
        if ((checked.failures ?? []).length > 0) return;
        accepted++;
        const inputs = checked.inputs as Props;
        const { id, outs } = await impl.create(inputs);
        const afterCreate = await impl.diff(id, outs as Props, inputs);
        assert.equal(afterCreate.changes, false, "diff right after create");

        const refreshed = await impl.read(id, outs as Props);
        assert.equal(refreshed.id, id);
        assert.equal((await impl.diff(id, refreshed.props as Props, inputs)).changes, false, "diff after a refresh");

        // The next `up` of the same program: check(old inputs, the program's inputs), then diff.
        const again = await impl.check(inputs, news);
        assert.deepEqual(again.failures, []);
        assert.deepEqual(again.inputs?.secretConfig, inputs.secretConfig, "the same normalised secretConfig");
        assert.equal(
          (await impl.diff(id, refreshed.props as Props, again.inputs as Props)).changes,
          false,
          "diff of the next up",
        );
      }),
      propertyRuns(200),
    );
    assert.ok(accepted >= 40, `enough accepted inputs to say something (${accepted} of 200)`);
  });
});
