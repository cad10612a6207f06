// The provider's own settings over gRPC: CheckConfig (what `pulumi preview` refuses before
// anything runs), DiffConfig (a changed secret never replaces the provider), Configure (args
// of current engines, variables of older ones), and Invoke of the lookup functions with them.
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { SETTINGS } from "../../settings/resolve";
import { stableId } from "../../../service/domain/ids";
import { startLocalService, type LocalService } from "../../../harness/local-service";
import {
  grpcError,
  isolateEnvironment,
  Plugin,
  resetRuntime,
  secret,
  SECRET_SIG,
  SIG_KEY,
  UNKNOWN,
  type Failure,
} from "../../../test/support/plugin-harness";

const { DIFF_NONE, DIFF_SOME } = proto.DiffResponse.DiffChanges;
const FIND = "embedded:index:findConnector";
const S3 = stableId("connector", "Amazon S3");

/**
 * The reason of the failure about an argument: CheckConfig names it first in the reason and
 * leaves `property` empty (the engine prints a property's value, and an explicit
 * provider's arguments may be secrets it does not mark), as an Invoke's failures keep theirs.
 */
const reasonFor = (failures: Failure[], name: string): string | undefined =>
  failures.find((f) => f.property === name || (f.property === "" && new RegExp(`^${name}\\b`).test(f.reason)))?.reason;
/** The arguments CheckConfig's failures name (none has a property). */
const named = (failures: Failure[]): string[] =>
  failures.map((f) => {
    assert.equal(f.property, "", `a failure with a property: ${JSON.stringify(f)}`);
    return /^(\w+)/.exec(f.reason)?.[1] ?? "";
  });

describe("plugin: CheckConfig and DiffConfig", () => {
  let plugin: Plugin;
  let restore: () => void;
  const valid = { baseUrl: "https://connectors.example.com/api", clientId: "demo-client", clientSecret: "demo-secret" };
  before(async () => {
    restore = isolateEnvironment(); // EMBEDDED_* unset: only what CheckConfig receives counts
    await resetRuntime();
    plugin = await Plugin.start();
  });
  after(async () => {
    plugin.close();
    await resetRuntime();
    restore();
  });

  it("accepts stack-config strings, turning integer settings into numbers; clientSecret leaves as a secret", async () => {
    const { inputs, failures } = await plugin.checkConfig({
      ...valid,
      timeoutMs: "1000",
      maxRetries: "0",
      addWindowMs: "250",
      accountId: "239a5bbdbe543163",
    });
    assert.deepEqual(failures, []);
    assert.equal(inputs.timeoutMs, 1000);
    assert.equal(inputs.maxRetries, 0);
    assert.equal(inputs.addWindowMs, 250);
    assert.equal(inputs.accountId, "239a5bbdbe543163");
    assert.deepEqual(inputs.clientSecret, { [SIG_KEY]: SECRET_SIG, value: "demo-secret" });
    assert.equal(inputs.baseUrl, valid.baseUrl, "nothing else is wrapped");
  });

  it("a secret-wrapped clientSecret stays one secret (not wrapped twice)", async () => {
    const { inputs, failures } = await plugin.checkConfig({ ...valid, clientSecret: secret("demo-secret") });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs.clientSecret, { [SIG_KEY]: SECRET_SIG, value: "demo-secret" });
  });

  it("refuses a typo of a setting, naming the valid keys", async () => {
    const { failures } = await plugin.checkConfig({ ...valid, baseurl: "https://x.example.com" });
    const reason = reasonFor(failures, "baseurl");
    assert.ok(reason, JSON.stringify(failures));
    assert.match(reason, /unknown setting "baseurl"/);
    for (const name of Object.keys(SETTINGS)) assert.ok(reason.includes(name), `${name} not named: ${reason}`);
  });

  for (const name of ["baseUrl", "clientId", "clientSecret"] as const) {
    it(`refuses a missing ${name}, naming ${SETTINGS[name].env}`, async () => {
      const news: Record<string, string> = { ...valid };
      delete news[name];
      const { failures } = await plugin.checkConfig(news);
      assert.deepEqual(named(failures), [name]);
      assert.ok(failures[0].reason.includes(SETTINGS[name].env), failures[0].reason);
      assert.ok(failures[0].reason.includes(SETTINGS[name].key), failures[0].reason);
    });
  }

  it("lists every problem at once", async () => {
    const { failures } = await plugin.checkConfig({ timeoutMs: "soon", concurrency: "0" });
    assert.deepEqual(named(failures).sort(), ["baseUrl", "clientId", "clientSecret", "concurrency", "timeoutMs"]);
    assert.match(
      reasonFor(failures, "timeoutMs") ?? "",
      /expected an integer >= 1, got a value that is not an integer/,
    );
    assert.match(reasonFor(failures, "concurrency") ?? "", /expected an integer >= 1, got an integer below 1/);
    assert.ok(!JSON.stringify(failures).includes("soon"), "a value is quoted");
  });

  it("refuses plain http to a non-loopback host; allows it to loopback", async () => {
    const refused = await plugin.checkConfig({ ...valid, baseUrl: "http://connectors.example.com/api" });
    assert.match(
      reasonFor(refused.failures, "baseUrl") ?? "",
      /refusing plain http:\/\/ to a host that is not loopback.*Use https/,
    );
    assert.ok(!JSON.stringify(refused.failures).includes("connectors.example"), "the host is quoted");
    for (const baseUrl of ["http://127.0.0.1:8080", "http://localhost:8080/api", "http://[::1]:8080"]) {
      assert.deepEqual((await plugin.checkConfig({ ...valid, baseUrl })).failures, [], baseUrl);
    }
    const lookalike = await plugin.checkConfig({ ...valid, baseUrl: "http://127.attacker.example/api" });
    assert.equal(lookalike.failures.length, 1);
  });

  it("refuses a baseUrl the client would refuse at first use (credentials, query)", async () => {
    for (const baseUrl of ["https://user:pass@connectors.example.com/api", "https://connectors.example.com/api?x=1"]) {
      const { failures } = await plugin.checkConfig({ ...valid, baseUrl });
      assert.equal(failures.length, 1, `${baseUrl} passed CheckConfig: ${JSON.stringify(failures)}`);
      assert.deepEqual(named(failures), ["baseUrl"]);
    }
  });

  it("passes the engine's own keys (version, pluginDownloadURL) through", async () => {
    const { inputs, failures } = await plugin.checkConfig({
      ...valid,
      version: "0.1.0",
      pluginDownloadURL: "https://example.com/p",
    });
    assert.deepEqual(failures, []);
    assert.equal(inputs.version, "0.1.0");
    assert.equal(inputs.pluginDownloadURL, "https://example.com/p");
  });

  it("does not refuse unknown values (preview), and keeps them unknown", async () => {
    const { inputs, failures } = await plugin.checkConfig({
      ...valid,
      baseUrl: UNKNOWN,
      clientSecret: UNKNOWN,
      timeoutMs: UNKNOWN,
    });
    assert.deepEqual(failures, []);
    assert.equal(inputs.baseUrl, UNKNOWN);
    assert.equal(inputs.timeoutMs, UNKNOWN);
  });

  it("refuses a non-text value for a text setting", async () => {
    const { failures } = await plugin.checkConfig({ ...valid, clientId: 42 });
    assert.match(reasonFor(failures, "clientId") ?? "", /clientId must be a string/);
  });

  it("DiffConfig: nothing changed → DIFF_NONE (numbers as text, engine keys and secrets aside)", async () => {
    const olds = { ...valid, clientSecret: secret("demo-secret"), timeoutMs: 1000, version: "0.1.0" };
    const news = { ...valid, clientSecret: secret("demo-secret"), timeoutMs: "1000", version: "0.2.0" };
    const diff = await plugin.diffConfig(olds, news);
    assert.equal(diff.getChanges(), DIFF_NONE);
    assert.deepEqual(diff.getDiffsList(), []);
    assert.deepEqual(diff.getReplacesList(), []);
  });

  it("DiffConfig: a changed clientSecret → DIFF_SOME, naming it, and never a replace", async () => {
    const diff = await plugin.diffConfig(
      { ...valid, clientSecret: secret("old") },
      { ...valid, clientSecret: secret("new") },
    );
    assert.equal(diff.getChanges(), DIFF_SOME);
    assert.deepEqual(diff.getDiffsList(), ["clientSecret"]);
    assert.deepEqual(diff.getReplacesList(), []);
    assert.equal(diff.getDeletebeforereplace(), false);
    const everything = await plugin.diffConfig(valid, {
      baseUrl: "https://other.example.com",
      clientId: "x",
      clientSecret: "y",
      accountId: UNKNOWN,
    });
    assert.equal(everything.getChanges(), DIFF_SOME);
    assert.deepEqual(everything.getDiffsList().sort(), ["accountId", "baseUrl", "clientId", "clientSecret"]);
    assert.deepEqual(everything.getReplacesList(), []);
  });
});

describe("plugin: Configure and Invoke", () => {
  let service: LocalService;
  let plugin: Plugin;
  let restore: () => void;
  let settings: Record<string, unknown>;
  before(async () => {
    restore = isolateEnvironment();
    service = await startLocalService();
    const customer = service.customers[0];
    settings = {
      baseUrl: service.baseUrl,
      clientId: customer.clientId,
      clientSecret: secret(customer.clientSecret),
      accountId: customer.subAccountIds[0],
    };
  });
  beforeEach(async () => {
    await resetRuntime();
    plugin = await Plugin.start();
  });
  afterEach(() => plugin.close());
  after(async () => {
    await resetRuntime();
    await service.stop();
    restore();
  });

  it("Configure accepts secrets and supports preview (preview Create and Update answer without the service)", async () => {
    const response = await plugin.configure(settings);
    assert.equal(response.getAcceptsecrets(), true);
    assert.equal(response.getSupportspreview(), true);
  });

  it("findConnector with the configured settings (secret-wrapped clientSecret) returns the connector", async () => {
    await plugin.configure(settings);
    const { result, failures } = await plugin.invoke(FIND, { name: "Amazon S3", supportedType: "Source" });
    assert.deepEqual(failures, []);
    assert.equal(result?.connectorId, S3);
    assert.equal(result?.name, "Amazon S3");
    assert.equal(result?.supportedType, "Source");
  });

  it("Configure of an older engine: embedded:config:<name> variables", async () => {
    const customer = service.customers[0];
    await plugin.configureVariables({
      "embedded:config:baseUrl": service.baseUrl,
      "embedded:config:clientId": customer.clientId,
      "embedded:config:clientSecret": customer.clientSecret,
      "embedded:config:accountId": customer.subAccountIds[0],
    });
    const { result } = await plugin.invoke(FIND, { name: "Amazon S3", supportedType: "Source" });
    assert.equal(result?.connectorId, S3);
  });

  it("a missing required argument, a wrong type and an unknown argument are failures, not errors", async () => {
    await plugin.configure(settings);
    const missing = await plugin.invoke(FIND, { name: "Amazon S3" });
    assert.equal(missing.result, undefined);
    assert.deepEqual(missing.failures, [
      { property: "supportedType", reason: "findConnector: supportedType is required" },
    ]);
    const wrongType = await plugin.invoke(FIND, { name: "Amazon S3", supportedType: "Both" });
    assert.match(reasonFor(wrongType.failures, "supportedType") ?? "", /must be one of Source, Destination/);
    const unknown = await plugin.invoke(FIND, { name: "Amazon S3", supportedType: "Source", nmae: "x" });
    assert.equal(unknown.failures.length, 1);
    assert.match(
      unknown.failures[0].reason,
      /findConnector has no argument "nmae"; its arguments are: name, supportedType, accountId/,
    );
  });

  it("an unknown function is a gRPC error naming the known ones", async () => {
    await plugin.configure(settings);
    const error = await grpcError(plugin.invoke("embedded:index:findConnectors", {}));
    assert.equal(error.code, grpc.status.UNKNOWN);
    assert.match(error.details, /no function "embedded:index:findConnectors"/);
    for (const name of [
      "findConnector",
      "getConnector",
      "listConnectors",
      "listAddedConnectors",
      "listSupportedConnectors",
      "getConnectorConfiguration",
    ]) {
      assert.ok(error.details.includes(`embedded:index:${name}`), `${name} not named: ${error.details}`);
    }
  });

  it("a lookup that finds nothing is a gRPC error with the near matches (the TypeScript SDK's call)", async () => {
    await plugin.configure(settings);
    // The SDK's hidden argument: no argument is secret (lookups/secret-arguments.ts).
    const args = { name: "Amazon S4", supportedType: "Source", __secretArguments: [] };
    const error = await grpcError(plugin.invoke(FIND, args));
    assert.match(error.details, /no connector named "Amazon S4" with supportedType Source/);
    assert.match(error.details, /near matches: "Amazon S3"/);
  });

  it("without Configure (and no environment), Invoke fails naming the missing setting", async () => {
    const error = await grpcError(plugin.invoke(FIND, { name: "Amazon S3", supportedType: "Source" }));
    assert.match(error.details, /missing embedded:baseUrl \(or EMBEDDED_BASE_URL\)/);
  });

  it("the configured accountId is the default sub-account of lookups", async () => {
    await plugin.configure(settings);
    const { result } = await plugin.invoke("embedded:index:listAddedConnectors", {});
    assert.equal(result?.accountId, service.customers[0].subAccountIds[0]);
    assert.deepEqual(result?.connectors, []);
  });
});
