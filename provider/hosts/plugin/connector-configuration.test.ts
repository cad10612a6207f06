// embedded:index:ConnectorConfiguration over gRPC against the local service: what is secret
// on the wire (secretConfig; the digests are plain), Check against the live fields, Create,
// Diff, Update, refresh, import, and the Delete warning that reaches the engine's log.
import assert from "node:assert/strict";
import { LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { stableId } from "../../../service/domain/ids";
import { assertNoCanary } from "../../../test/e2e/canaries";
import { startLocalService, type LocalService } from "../../../harness/local-service";
import {
  grpcError,
  isolateEnvironment,
  isSecret,
  Plugin,
  resetRuntime,
  secret,
  secretDepth,
  secretValue,
  startFakeEngine,
  UNKNOWN,
  urnOf,
  type Props,
} from "../../../test/support/plugin-harness";

const { DIFF_NONE, DIFF_SOME } = proto.DiffResponse.DiffChanges;
const SEGMENT = stableId("connector", "Segment");
const URN = urnOf("ConnectorConfiguration", "segment");
const API_KEY = "s3cr3t-api-key-value";
const CONFIG = { apiKey: API_KEY, workspace: "acme", dataCenter: "EU", eventTypes: ["page", "track"], batchSize: 100 };

const unwrapped = secretValue;
/** The outputs that leave plain although they come from secretConfig (an input only): they hold no value. */
const PLAIN = ["fieldDigests", "digestKeyId", "drift"];

describe("plugin: ConnectorConfiguration", () => {
  let service: LocalService;
  let engine: Awaited<ReturnType<typeof startFakeEngine>>;
  let plugin: Plugin;
  let restore: () => void;
  let accountId: string;
  let settings: Props;
  before(async () => {
    restore = isolateEnvironment();
    service = await startLocalService();
    engine = await startFakeEngine();
    accountId = service.customers[0].subAccountIds[0];
    const customer = service.customers[0];
    settings = {
      baseUrl: service.baseUrl,
      clientId: customer.clientId,
      clientSecret: secret(customer.clientSecret),
      accountId,
    };
  });
  beforeEach(async () => {
    await service.reset();
    await resetRuntime();
    engine.logs.length = 0;
    plugin = await Plugin.start(engine.address);
    await plugin.configure(settings);
    const added = urnOf("AddedConnector", "segment");
    await plugin.create(added, (await plugin.check(added, { connectorId: SEGMENT })).inputs);
  });
  afterEach(() => plugin.close());
  after(async () => {
    await resetRuntime();
    engine.stop();
    await service.stop();
    restore();
  });

  async function created(
    secretConfig: Props = CONFIG,
    extra: Props = {},
  ): Promise<{ id: string; properties: Props; inputs: Props }> {
    const { inputs, failures } = await plugin.check(URN, { connectorId: SEGMENT, secretConfig, ...extra });
    assert.deepEqual(failures, []);
    const { id, properties } = await plugin.create(URN, inputs);
    return { id, properties, inputs };
  }

  it("Check: secretConfig leaves as a secret, normalised; accountId and configurationId filled in", async () => {
    const { inputs, failures } = await plugin.check(URN, {
      connectorId: SEGMENT,
      secretConfig: { ...CONFIG, batchSize: "100.0", eventTypes: "page, track" },
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(unwrapped(inputs.secretConfig, "secretConfig"), CONFIG);
    assert.equal(inputs.accountId, accountId);
    assert.equal(typeof inputs.configurationId, "string");
    assert.equal(inputs.connectorId, SEGMENT);
  });

  it("Check: one failure per bad field, against the live descriptors, never quoting a value", async () => {
    const { failures } = await plugin.check(URN, {
      connectorId: SEGMENT,
      secretConfig: { apiKey: API_KEY, dataCenter: "my-private-dc", batchSize: 0, nope: "x" },
    });
    assert.deepEqual(failures.map((f) => f.property).sort(), [
      "secretConfig.batchSize",
      "secretConfig.dataCenter",
      "secretConfig.nope",
      "secretConfig.workspace",
    ]);
    for (const failure of failures) {
      assert.ok(!failure.reason.includes("my-private-dc") && !failure.reason.includes(API_KEY), failure.reason);
    }
    assert.deepEqual((await plugin.check(URN, { connectorId: SEGMENT, secretConfig: UNKNOWN })).failures, []);
  });

  it("Check during a preview whose provider settings are still unknown does not fail (nothing to validate against)", async () => {
    for (const unknown of ["baseUrl", "clientSecret", "accountId"]) {
      await plugin.configure({ ...settings, [unknown]: UNKNOWN });
      const { inputs, failures } = await plugin.check(URN, { connectorId: SEGMENT, secretConfig: CONFIG });
      assert.deepEqual(failures, [], `with ${unknown} unknown`);
      assert.deepEqual(unwrapped(inputs.secretConfig), CONFIG);
    }
  });

  it("Create: properties echo the inputs but secretConfig; the field digests come back plain, holding no value", async () => {
    const { id, properties, inputs } = await created();
    assert.equal(id, `${accountId}/${SEGMENT}`);
    const plainOf = (value: unknown) => (isSecret(value) ? unwrapped(value) : value);
    for (const [key, value] of Object.entries(inputs))
      if (key !== "secretConfig" && !key.startsWith("__"))
        assert.deepEqual(plainOf(properties[key]), plainOf(value), key);
    assert.ok(!("__digestSalt" in properties) && !("digestSalt" in properties), "no salt is an output");
    assert.ok(!("secretConfig" in properties), "secretConfig (its Password values) is not an output");
    assert.ok(!JSON.stringify(properties).includes(API_KEY), "no output holds the Password value, secret or not");
    for (const name of PLAIN) assert.ok(!isSecret(properties[name]), `${name} is plain`);
    assert.deepEqual(Object.keys(properties.fieldDigests as Props).sort(), Object.keys(CONFIG).sort());
    assert.ok(!("values" in properties) && !("fingerprint" in properties));
    assert.ok(!/acme|page,track/.test(JSON.stringify(properties.fieldDigests)), "no value in the digests");
    assert.equal(properties.configured, true);
    assert.equal(properties.appliedLastUpdated, properties.lastUpdated);
    const plaintext = JSON.stringify(Object.fromEntries(Object.entries(properties).filter(([, v]) => !isSecret(v))));
    assert.ok(!plaintext.includes(API_KEY), `the API key is outside a secret: ${plaintext}`);
  });

  it("a secret-wrapped input comes back secret", async () => {
    const { properties } = await created(CONFIG, { name: secret("prod-config") });
    assert.equal(unwrapped(properties.name, "name"), "prod-config");
    assert.ok(!isSecret(properties.connectorId));
  });

  it("Diff: the same inputs → none; a changed secret → update, not replace; another connector → replace", async () => {
    const { id, properties, inputs } = await created();
    assert.deepEqual(await plugin.diff(URN, id, properties, inputs), { changes: DIFF_NONE, replaces: [] });
    const changed = { ...inputs, secretConfig: secret({ ...CONFIG, workspace: "another" }) };
    assert.deepEqual(await plugin.diff(URN, id, properties, changed), { changes: DIFF_SOME, replaces: [] });
    // The detailed diff names the field the update writes (what `pulumi preview --diff` shows).
    assert.deepEqual(await plugin.detailedDiff(URN, id, properties, changed), { "secretConfig.workspace": "UPDATE" });
    // A Password has no digest: its Check, against the stored inputs, tells the Diff that follows it.
    const rotated = (await plugin.check(URN, { ...inputs, secretConfig: { ...CONFIG, apiKey: "rotated" } }, inputs))
      .inputs;
    assert.deepEqual(await plugin.detailedDiff(URN, id, properties, rotated), { "secretConfig.apiKey": "UPDATE" });
    const other = { ...inputs, connectorId: stableId("connector", "Amplitude") };
    assert.deepEqual((await plugin.diff(URN, id, properties, other)).replaces, ["connectorId"]);
    assert.deepEqual(await plugin.detailedDiff(URN, id, properties, other), { connectorId: "UPDATE_REPLACE" });
  });

  it("Update writes the new values; the changed field's digest changes", async () => {
    const { id, properties, inputs } = await created();
    const news = (await plugin.check(URN, { ...inputs, secretConfig: { ...CONFIG, batchSize: 200 } }, inputs)).inputs;
    const updated = await plugin.update(URN, id, properties, news);
    const [before, after] = [properties.fieldDigests as Props, updated.fieldDigests as Props];
    assert.deepEqual(
      Object.keys(after).filter((field) => after[field] !== before[field]),
      ["batchSize"],
    );
    assert.ok(!("secretConfig" in updated), "secretConfig is not an output");
  });

  it("Read with properties (refresh): the same digests, no drift, no change", async () => {
    const { id, properties, inputs } = await created();
    const read = await plugin.read(URN, id, properties, inputs);
    assert.equal(read.id, id);
    assert.deepEqual(read.properties.fieldDigests, properties.fieldDigests);
    assert.equal(read.properties.drift, "");
    assert.deepEqual(unwrapped(read.inputs.secretConfig, "inputs.secretConfig"), CONFIG, "the engine keeps the inputs");
    assert.deepEqual(await plugin.diff(URN, id, read.properties, inputs), { changes: DIFF_NONE, replaces: [] });
  });

  it("a refresh's Diff (right after its Read) has no detailed diff; an update's (after its Check) names the field", async () => {
    // The engine shows a refresh's detailed diff against the refreshed outputs, which hold no
    // secretConfig (`- secretConfig: [secret]`); without one it shows the outputs that changed.
    const { id, properties, inputs } = await created();
    const changed = { ...inputs, secretConfig: secret({ ...CONFIG, apiKey: "rotated" }) };
    const read = await plugin.read(URN, id, properties, inputs);
    assert.deepEqual(await plugin.detailedDiff(URN, id, read.properties, changed), {}, "the refresh's Diff");
    const news = (await plugin.check(URN, changed, inputs)).inputs;
    assert.deepEqual(
      await plugin.detailedDiff(URN, id, read.properties, news),
      { "secretConfig.apiKey": "UPDATE" },
      "the update's Diff",
    );
    assert.deepEqual(
      await plugin.detailedDiff(URN, id, read.properties, news),
      { "secretConfig.apiKey": "UPDATE" },
      "a Diff without a Read before it",
    );
  });

  it("Read with properties after the connector was removed returns an empty id", async () => {
    const { id, properties, inputs } = await created();
    const added = urnOf("AddedConnector", "segment");
    await plugin.delete(added, id, { connectorId: SEGMENT, accountId });
    assert.equal((await plugin.read(URN, id, properties, inputs)).id, "");
  });

  /** `pulumi import` of the saved configuration, in a fresh plugin process. */
  async function imported(): Promise<{ id: string; properties: Props; inputs: Props }> {
    const { id } = await created();
    await resetRuntime();
    await plugin.configure(settings);
    return plugin.read(urnOf("ConnectorConfiguration", "imported"), id);
  }

  it("import: no value in the inputs the engine prints its code from; the fields to declare named, also under the resource", async () => {
    engine.logs.length = 0;
    const found = await imported();
    assert.equal(found.id, `${accountId}/${SEGMENT}`);
    assert.deepEqual(unwrapped(found.inputs.secretConfig, "inputs.secretConfig"), {}, "no value imported");
    const { apiKey: _password, ...visible } = CONFIG;
    assert.deepEqual(found.inputs.__importedFields, { fields: Object.keys(visible).sort(), passwords: ["apiKey"] });
    assert.equal(found.inputs.connectorId, SEGMENT);
    assert.equal(found.inputs.accountId, accountId);
    for (const name of PLAIN) assert.ok(!isSecret(found.properties[name]), `properties.${name} is plain`);
    const text = JSON.stringify(found);
    for (const value of [API_KEY, "acme", "track"]) assertNoCanary(text, value, "the import's answer");
    // The notice: under the resource, naming the fields and never a value.
    const deadline = Date.now() + 5000;
    while (engine.logs.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const notice = engine.logs.find((log) => /imported without its values/.test(log.message));
    assert.ok(notice, JSON.stringify(engine.logs));
    assert.equal(notice.urn, urnOf("ConnectorConfiguration", "imported"));
    assert.match(notice.message, /batchSize, dataCenter, eventTypes, workspace; and its Password fields \(apiKey\)/);
    // A Password the customer holds: adopted as it is, left to the service.
    assert.match(
      notice.message,
      /each from a secret too, or, where the customer holds it .*`heldByService: \["apiKey"\]`/,
    );
    assertNoCanary(notice.message, "acme", "the notice");
  });

  it("an imported configuration: Check refuses a program that leaves a field out (nothing is written); one that declares them all passes", async () => {
    const found = await imported();
    // The import's own Check (the engine runs it on the imported inputs): no failure.
    assert.deepEqual((await plugin.check(URN, found.inputs, found.inputs)).failures, []);
    // The generated code as it is: secretConfig {}.
    const { __importedFields: _hidden, ...generated } = found.inputs;
    for (const secretConfig of [{}, { workspace: "acme", apiKey: "new-key" }]) {
      const { failures } = await plugin.check(URN, { ...generated, secretConfig }, found.inputs);
      assert.equal(failures.length, 1, JSON.stringify(failures));
      assert.equal(failures[0].property, "", "secretConfig is secret: the engine would print it");
      assert.match(failures[0].reason, /^secretConfig does not declare batchSize, dataCenter, eventTypes/);
      assert.match(failures[0].reason, /imported without its values/);
      assert.match(failures[0].reason, /`heldByService: \["apiKey"\]` instead/);
    }
    // Every field declared (what the user copies from the service, with the Password): accepted.
    const edited = { ...generated, secretConfig: { ...CONFIG, apiKey: "new-key", batchSize: 200 } };
    assert.deepEqual((await plugin.check(URN, edited, found.inputs)).failures, []);
  });

  it("every secret leaves wrapped exactly once: Check, Create, Read, Update and import", async () => {
    const depths: Record<string, number> = {};
    const { id, properties, inputs } = await created();
    depths["Check inputs.secretConfig"] = secretDepth(inputs.secretConfig);
    const read = await plugin.read(URN, id, properties, inputs);
    depths["Read inputs.secretConfig"] = secretDepth(read.inputs.secretConfig);
    const updated = await plugin.update(URN, id, properties, {
      ...inputs,
      secretConfig: secret({ ...CONFIG, batchSize: 300 }),
    });
    assert.ok(!("secretConfig" in updated));
    await resetRuntime();
    await plugin.configure(settings);
    const found = await plugin.read(urnOf("ConnectorConfiguration", "imported"), id);
    depths["import inputs.secretConfig"] = secretDepth(found.inputs.secretConfig);
    const wrong = Object.entries(depths).filter(([, depth]) => depth !== 1);
    assert.deepEqual(wrong, [], `secrets not wrapped exactly once (name, depth): ${JSON.stringify(wrong)}`);
  });

  it("import of a connector without a saved configuration, or of a malformed id, fails naming it", async () => {
    const unconfigured = await grpcError(plugin.read(URN, `${accountId}/${SEGMENT}`));
    assert.ok(unconfigured.details.includes(SEGMENT) && unconfigured.details.includes(accountId), unconfigured.details);
    assert.match(unconfigured.details, /no saved configuration to import/);
    const malformed = await grpcError(plugin.read(URN, "nope"));
    assert.match(malformed.details, /cannot import ConnectorConfiguration "nope"/);
  });

  it("Delete while the program keeps the connector: the saved configuration stays, and a warning about the resource says so", async () => {
    const { id, properties } = await created();
    await plugin.delete(URN, id, properties);
    const deadline = Date.now() + 5000;
    while (engine.logs.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(engine.logs.length, 1, JSON.stringify(engine.logs));
    assert.equal(engine.logs[0].severity, LogSeverity.WARNING);
    assert.equal(engine.logs[0].urn, URN, "attached to the configuration, not the stack");
    assert.ok(engine.logs[0].message.includes(id), engine.logs[0].message);
    assert.match(engine.logs[0].message, /cannot unconfigure/);
    const { result } = await plugin.invoke("embedded:index:getConnectorConfiguration", { connectorId: SEGMENT });
    assert.equal(result?.configured, true);
  });

  it("Delete in a run that does not keep the connector (a destroy): no warning, since removing the connector drops the configuration", async () => {
    const { id, properties } = await created();
    // A destroy runs no program: no AddedConnector is checked before the deletes.
    await resetRuntime();
    await plugin.configure(settings);
    engine.logs.length = 0;
    await plugin.delete(URN, id, properties);
    // A barrier, not a wait: a Delete that does warn (its run keeps the connector), on another
    // resource. Its warning travels the same channel after any the Delete above sent.
    const barrier = urnOf("ConnectorConfiguration", "barrier");
    const added = urnOf("AddedConnector", "segment");
    await plugin.check(added, { connectorId: SEGMENT });
    // A second resource over the saved configuration: a take-over.
    const { inputs } = await plugin.check(barrier, { connectorId: SEGMENT, secretConfig: CONFIG, adoptExisting: true });
    const kept = await plugin.create(barrier, inputs);
    await plugin.delete(barrier, kept.id, kept.properties);
    const deadline = Date.now() + 5000;
    while (!engine.logs.some((log) => log.urn === barrier) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(
      engine.logs.some((log) => log.urn === barrier),
      "the barrier's warning arrived",
    );
    assert.deepEqual(
      engine.logs.filter((log) => log.urn !== barrier),
      [],
    );
  });
});
