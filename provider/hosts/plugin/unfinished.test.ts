// A Create whose Add has an unknown outcome (answer lost, listing failing): the plugin fails it
// as the engine's partial failure (ErrorResourceInitFailed in grpc-status-details-bin), so the
// engine records the resource with its id, and the next `pulumi up` (an Update) finishes it.
import assert from "node:assert/strict";
import type * as grpc from "@grpc/grpc-js";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { stableId } from "../../../service/domain/ids";
import {
  grpcError,
  type Props,
  secret,
  secretDepth,
  urnOf,
  usePluginFixture,
} from "../../../test/support/plugin-harness";
import { routeKey } from "../../../contract/routes";

const ADD = routeKey("addConnectors");
const LIST_ADDED = routeKey("listAddedConnectors");
const S3 = stableId("connector", "Amazon S3");
const SEGMENT = stableId("connector", "Segment");

/** What the engine reads from a failed Create: the partial failure's id, properties and reasons. */
function initFailure(error: grpc.ServiceError): { id: string; properties: Props; reasons: string[] } | undefined {
  const [bin] = error.metadata.get("grpc-status-details-bin");
  if (!bin) return undefined;
  const status = Status.deserializeBinary(new Uint8Array(bin as Buffer));
  const any = status
    .getDetailsList()
    .find((d) => d.getTypeUrl() === "type.googleapis.com/pulumirpc.ErrorResourceInitFailed");
  if (!any) return undefined;
  const detail = proto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return {
    id: detail.getId(),
    properties: (detail.getProperties()?.toJavaScript() ?? {}) as Props,
    reasons: detail.getReasonsList(),
  };
}

describe("plugin: AddedConnector whose Add has an unknown outcome", () => {
  // No retries and no Add window: the provider's own settings, as a user would set them.
  const fx = usePluginFixture({ maxRetries: 0, addWindowMs: 0 });
  beforeEach(async () => {
    const urn = urnOf("AddedConnector", "s3"); // lists the sub-account before the faults start
    await fx.plugin.create(urn, (await fx.plugin.check(urn, { connectorId: S3 })).inputs);
  });
  afterEach(async () => {
    await fx.service.setFaults({ rules: [] });
  });

  async function unfinishedCreate(news: Props): Promise<{ urn: string; inputs: Props; error: grpc.ServiceError }> {
    const urn = urnOf("AddedConnector", "segment");
    const { inputs } = await fx.plugin.check(urn, news);
    await fx.service.setFaults({
      rules: [
        { route: ADD, mode: "commitThenDrop" },
        { route: LIST_ADDED, mode: "error", status: 500 },
      ],
    });
    const error = await grpcError(fx.plugin.create(urn, inputs));
    await fx.service.setFaults({ rules: [] });
    return { urn, inputs, error };
  }

  it("fails as a partial failure carrying the id and the unfinished properties; the next Update finishes it", async () => {
    const { urn, inputs, error } = await unfinishedCreate({ connectorId: SEGMENT });
    assert.match(error.details, /outcome of adding connector .* is unknown/);
    assert.match(error.details, /next `pulumi up`/);
    const partial = initFailure(error);
    assert.ok(partial, "no ErrorResourceInitFailed in the status details: the engine would record nothing");
    assert.equal(partial.id, `${fx.accountId}/${SEGMENT}`);
    assert.equal(partial.properties.addUnfinished, true);
    assert.equal(partial.properties.connectorId, SEGMENT);
    assert.deepEqual(partial.reasons, [error.details]);

    const finished = await fx.plugin.update(urn, partial.id, partial.properties, inputs);
    assert.equal(finished.name, "Segment");
    assert.equal(finished.addUnfinished, undefined, "finished");
    const { result } = await fx.plugin.invoke("embedded:index:listAddedConnectors", {});
    assert.deepEqual((result?.connectors as Props[]).map((c) => c.connectorId).sort(), [S3, SEGMENT].sort());
  });

  it("a secret input stays secret in the partial failure's properties (they go to the state)", async () => {
    const { error } = await unfinishedCreate({ connectorId: SEGMENT, accountId: secret(fx.accountId) });
    const partial = initFailure(error);
    assert.ok(partial);
    assert.equal(
      secretDepth(partial.properties.accountId),
      1,
      `accountId in the state: ${JSON.stringify(partial.properties.accountId)}`,
    );
  });
});
