// embedded:index:AddedConnector over gRPC against the local service: Check, Create, Diff,
// Read (refresh and import), Update and Delete, as the engine calls them.
import assert from "node:assert/strict";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { stableId } from "../../../service/domain/ids";
import {
  grpcError,
  type Props,
  resetRuntime,
  secret,
  secretDepth,
  secretValue,
  UNKNOWN,
  urnOf,
  usePluginFixture,
} from "../../../test/support/plugin-harness";

const { DIFF_NONE, DIFF_SOME } = proto.DiffResponse.DiffChanges;
const S3 = stableId("connector", "Amazon S3");
const SEGMENT = stableId("connector", "Segment");
const TIKTOK = stableId("connector", "TikTok Events API");
const URN = urnOf("AddedConnector", "s3");

describe("plugin: AddedConnector", () => {
  const fx = usePluginFixture();

  /** Check then Create, as the engine does: the checked inputs are what Create gets. */
  async function created(news: Props, urn = URN): Promise<{ id: string; properties: Props; inputs: Props }> {
    const { inputs, failures } = await fx.plugin.check(urn, news);
    assert.deepEqual(failures, []);
    const { id, properties } = await fx.plugin.create(urn, inputs);
    return { id, properties, inputs };
  }

  it("Check fills in the provider's accountId and adoptExisting: false", async () => {
    const { inputs, failures } = await fx.plugin.check(URN, { connectorId: S3 });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs, { connectorId: S3, accountId: fx.accountId, adoptExisting: false });
  });

  it("Check lists every bad input at once; unknowns pass", async () => {
    const { failures } = await fx.plugin.check(URN, {
      connectorId: "short",
      accountId: "not an id!",
      adoptExisting: "yes",
    });
    assert.deepEqual(failures.map((f) => f.property).sort(), ["accountId", "adoptExisting", "connectorId"]);
    assert.match(
      failures.find((f) => f.property === "connectorId")?.reason ?? "",
      /16-character alphanumeric connector id, got "short"/,
    );
    assert.deepEqual((await fx.plugin.check(URN, { connectorId: UNKNOWN, accountId: UNKNOWN })).failures, []);
  });

  it("Create adds the connector; its properties echo the inputs and the service's view", async () => {
    const { id, properties, inputs } = await created({ connectorId: S3 });
    assert.equal(id, `${fx.accountId}/${S3}`);
    for (const [key, value] of Object.entries(inputs)) assert.deepEqual(properties[key], value, key);
    assert.equal(properties.name, "Amazon S3");
    assert.equal(properties.supportedType, "Source");
    assert.equal(properties.srcConnections, 0);
    assert.equal(properties.configured, false);
    const { result } = await fx.plugin.invoke("embedded:index:listAddedConnectors", {});
    assert.deepEqual(
      (result?.connectors as Props[]).map((c) => c.connectorId),
      [S3],
    );
  });

  // (A secret accountId or connectorId is refused: provider/hosts/plugin/engine-printed.test.ts.)
  it("a secret-wrapped input comes back secret (and only that one)", async () => {
    const { id, properties } = await created({
      connectorId: S3,
      accountId: fx.otherAccountId,
      adoptExisting: secret(false),
    });
    assert.equal(id, `${fx.otherAccountId}/${S3}`);
    assert.equal(secretValue(properties.adoptExisting, "adoptExisting"), false);
    assert.equal(properties.accountId, fx.otherAccountId);
    assert.equal(properties.connectorId, S3);
    assert.equal(properties.name, "Amazon S3");
  });

  it("a secret input is wrapped exactly once, also by a refresh that gets it in both state and inputs", async () => {
    const { id, properties, inputs } = await created({
      connectorId: S3,
      accountId: fx.otherAccountId,
      adoptExisting: secret(false),
    });
    assert.equal(secretDepth(inputs.adoptExisting), 1, `Check: ${JSON.stringify(inputs.adoptExisting)}`);
    assert.equal(secretDepth(properties.adoptExisting), 1, `Create: ${JSON.stringify(properties.adoptExisting)}`);
    const read = await fx.plugin.read(URN, id, properties, inputs);
    assert.equal(
      secretDepth(read.properties.adoptExisting),
      1,
      `Read properties: ${JSON.stringify(read.properties.adoptExisting)}`,
    );
    assert.equal(
      secretDepth(read.inputs.adoptExisting),
      1,
      `Read inputs: ${JSON.stringify(read.inputs.adoptExisting)}`,
    );
  });

  it("Create of a connector another stack added fails naming it; adoptExisting takes it over", async () => {
    const out = await created({ connectorId: SEGMENT }, urnOf("AddedConnector", "first"));
    assert.equal(out.properties.name, "Segment");
    await resetRuntime(); // another stack's plugin process tries the same connector
    const customer = fx.service.customers[0];
    await fx.plugin.configure({
      baseUrl: fx.service.baseUrl,
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
      accountId: fx.accountId,
    });
    const urn = urnOf("AddedConnector", "second", "prod");
    const { inputs } = await fx.plugin.check(urn, { connectorId: SEGMENT });
    const error = await grpcError(fx.plugin.create(urn, inputs));
    assert.ok(error.details.includes(SEGMENT) && error.details.includes(fx.accountId), error.details);
    assert.match(error.details, /adoptExisting/);
    const adopted = await created({ connectorId: SEGMENT, adoptExisting: true }, urn);
    assert.equal(adopted.properties.adoptExisting, true);
    assert.equal(adopted.properties.name, "Segment");
  });

  it("Diff: no change, adoptExisting alone (update), accountId or connectorId (replace)", async () => {
    const { id, properties, inputs } = await created({ connectorId: S3 });
    assert.deepEqual(await fx.plugin.diff(URN, id, properties, inputs), { changes: DIFF_NONE, replaces: [] });
    assert.deepEqual(await fx.plugin.diff(URN, id, properties, { ...inputs, adoptExisting: true }), {
      changes: DIFF_SOME,
      replaces: [],
    });
    assert.deepEqual(await fx.plugin.diff(URN, id, properties, { ...inputs, accountId: fx.otherAccountId }), {
      changes: DIFF_SOME,
      replaces: ["accountId"],
    });
    assert.deepEqual(await fx.plugin.diff(URN, id, properties, { ...inputs, connectorId: SEGMENT }), {
      changes: DIFF_SOME,
      replaces: ["connectorId"],
    });
    assert.deepEqual(await fx.plugin.diff(URN, id, properties, { ...inputs, connectorId: UNKNOWN }), {
      changes: DIFF_SOME,
      replaces: ["connectorId"],
    });
  });

  it("Read with properties (refresh) returns the live view and the inputs", async () => {
    const { id, properties, inputs } = await created({ connectorId: S3 });
    const read = await fx.plugin.read(URN, id, properties, inputs);
    assert.equal(read.id, id);
    assert.deepEqual(read.properties, properties);
    assert.deepEqual(read.inputs, inputs);
  });

  it("Update of adoptExisting returns it with the live view", async () => {
    const { id, properties, inputs } = await created({ connectorId: S3 });
    const updated = await fx.plugin.update(URN, id, properties, { ...inputs, adoptExisting: true });
    assert.equal(updated.adoptExisting, true);
    assert.equal(updated.connectorId, S3);
    assert.equal(updated.accountId, fx.accountId);
    assert.equal(updated.name, "Amazon S3");
  });

  it("Delete removes it; a refresh then returns an empty id (the engine drops it)", async () => {
    const { id, properties, inputs } = await created({ connectorId: S3 });
    await fx.plugin.delete(URN, id, properties);
    const read = await fx.plugin.read(URN, id, properties, inputs);
    assert.equal(read.id, "");
    const { result } = await fx.plugin.invoke("embedded:index:listAddedConnectors", {});
    assert.deepEqual(result?.connectors, []);
    await fx.plugin.delete(URN, id, properties); // already gone: done
  });

  it("Read with empty properties (import) of an added connector returns properties AND inputs", async () => {
    const { id, properties } = await created({ connectorId: S3 });
    await resetRuntime(); // `pulumi import` runs in a fresh plugin process
    const customer = fx.service.customers[0];
    await fx.plugin.configure({
      baseUrl: fx.service.baseUrl,
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
      accountId: fx.accountId,
    });
    const imported = await fx.plugin.read(urnOf("AddedConnector", "imported"), id);
    assert.equal(imported.id, id);
    assert.deepEqual(imported.inputs, { connectorId: S3, accountId: fx.accountId, adoptExisting: false });
    assert.deepEqual(imported.properties, properties);
  });

  it("import of a connector that is not added fails, naming the id and the sub-account", async () => {
    const id = `${fx.accountId}/${SEGMENT}`;
    const error = await grpcError(fx.plugin.read(URN, id));
    assert.ok(error.details.includes(id), error.details);
    assert.match(error.details, /is not added to sub-account/);
  });

  for (const id of ["nope", `/${S3}`, "239a5bbdbe543163/short", "239a5bbdbe543163/"]) {
    it(`import of the malformed id ${JSON.stringify(id)} fails naming it and the expected form`, async () => {
      const error = await grpcError(fx.plugin.read(URN, id));
      assert.ok(error.details.includes(JSON.stringify(id)), error.details);
      assert.match(error.details, /<accountId>\/<connectorId>/);
    });
  }

  it("Delete of a connector used in a connection fails with the delete guard's message, and removes nothing", async () => {
    const { id, properties } = await created({ connectorId: SEGMENT });
    await created({ connectorId: TIKTOK }, urnOf("AddedConnector", "tiktok"));
    const connection = await fx.service.createConnection(fx.accountId, SEGMENT, TIKTOK);
    const error = await grpcError(fx.plugin.delete(URN, id, properties));
    assert.match(error.details, /"Segment"/);
    for (const part of [SEGMENT, fx.accountId, "srcConnections=1", "destConnections=0", "retainOnDelete: true"]) {
      assert.ok(error.details.includes(part), `message lacks ${part}: ${error.details}`);
    }
    assert.equal(error.details.split("\n").length, 1, "one message, no stack");
    assert.equal((await fx.plugin.read(URN, id, properties, {})).id, id, "still added");
    await fx.service.deleteConnection(connection);
    await fx.plugin.delete(URN, id, properties);
    assert.equal((await fx.plugin.read(URN, id, properties, {})).id, "");
  });
});
