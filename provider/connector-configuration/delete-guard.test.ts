// The configuration's side of the delete guard: in a run that removes the connector too (a
// destroy), the configuration's delete refuses while connections use the connector, so that a
// refused destroy leaves the stack as it was (the engine deletes the configuration first).
import assert from "node:assert/strict";
import * as impl from "./steps";
import * as addedConnector from "../added-connector/steps";
import {
  assertSegmentInUse,
  captureWarnings,
  CONNECTORS,
  mutatingCalls,
  rejection,
  SEGMENT_CONFIG,
  useProviderFixture,
} from "../../test/support/provider-fixtures";
import { addedListing, declaredConnectors } from "../sub-account/process";

describe("ConnectorConfiguration provider: delete while connections use the connector", () => {
  const fx = useProviderFixture();
  let id: string;

  beforeEach(async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment, CONNECTORS.tiktokEvents]);
    ({ id } = await impl.create({
      connectorId: CONNECTORS.segment,
      accountId: fx.accountId,
      secretConfig: SEGMENT_CONFIG,
    }));
    declaredConnectors().clear(); // a destroy: no program declares the connector
    addedListing().clear();
  });

  it("a destroy refuses before anything leaves the stack, naming the connector, its counts and what to do", async () => {
    const connection = await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const before = mutatingCalls(await fx.service.stats());
    const error = await rejection(impl.remove(id, {}));
    assertSegmentInUse(error.message, fx.accountId, [
      "Delete those connections",
      "retainOnDelete: true",
      "nothing was deleted",
    ]);
    assert.ok(
      error.message.includes(`[${CONNECTORS.tiktokEvents}] (srcConnections=0, destConnections=1)`),
      `names the other connector the connection uses, which the engine will not reach: ${error.message}`,
    );
    assert.equal(mutatingCalls(await fx.service.stats()), before, "the service saw no mutating call");

    await fx.service.deleteConnection(connection);
    addedListing().clear(); // the next run's own listing
    await impl.remove(id, {});
  });

  it("an unused connector: the delete goes on, as before", async () => {
    await impl.remove(id, {});
  });

  it("a connector already gone: the delete goes on", async () => {
    await fx.client.removeConnector(fx.accountId, CONNECTORS.segment);
    await impl.remove(id, {});
  });

  it("a run whose program keeps the connector: the usual warning, no refusal", async () => {
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    await addedConnector.check({}, { connectorId: CONNECTORS.segment, accountId: fx.accountId });
    const warnings = captureWarnings();
    await impl.remove(id, {});
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /cannot unconfigure/);
  });
});
