// The engine never marks a provider's
// arguments secret in CheckConfig, so every failure there names its argument in the reason,
// has no `property` (the engine would print `property <name> value <value>`), and quotes no
// value in any form; Configure, whose arguments keep their secretness, refuses a secret
// accountId and warns of a client secret given in plain text (its reading of the stack file:
// settings/plain-secrets.test.ts); a lookup's refusal names an argument that arrived secret,
// never its value.
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { plainSecretMessage } from "../../settings/plain-secrets";
import { assertNoCanary, canary, replayCanariesOnFailure } from "../../../test/e2e/canaries";
import {
  grpcError,
  Plugin,
  resetRuntime,
  secret,
  startFakeEngine,
  usePluginFixture,
  type Failure,
} from "../../../test/support/plugin-harness";

const DEFAULT_PROVIDER = "urn:pulumi:dev::proj::pulumi:providers:embedded::default_0_1_0";
const EXPLICIT_PROVIDER = "urn:pulumi:dev::proj::pulumi:providers:embedded::customer2";
const FIND = "embedded:index:findConnector";
const GET = "embedded:index:getConnector";

/** The argument a CheckConfig failure names (the first word of its reason); fails when it has a property. */
function namedArgument(failure: Failure): string {
  assert.equal(failure.property, "", `a failure with a property: the engine would print its value`);
  return /^(\w+)\b/.exec(failure.reason)?.[1] ?? "";
}

describe("plugin: provider and lookup arguments are never printed", () => {
  replayCanariesOnFailure();
  const fx = usePluginFixture();
  const value = canary("provider-argument");
  const host = `${value}.example.com`;

  it("CheckConfig of plain arguments: no property, the argument named first, no value in any form", async () => {
    const valid = { baseUrl: fx.service.baseUrl, clientId: "demo-client", clientSecret: "demo-secret" };
    // Each bad argument as the engine sends an explicit provider's (plain, whatever the program marked).
    const cases: [string, Record<string, unknown>][] = [
      ["baseUrl", { baseUrl: `ftp://${host}/api` }],
      ["baseUrl", { baseUrl: `http://${host}/api` }],
      ["baseUrl", { baseUrl: `${value} is not a URL` }],
      ["baseUrl", { baseUrl: `https://user:${value}@connectors.example.com` }],
      ["baseUrl", { baseUrl: `https://connectors.example.com/api?token=${value}` }],
      ["timeoutMs", { timeoutMs: value }],
      ["concurrency", { concurrency: value }],
      ["maxRetries", { maxRetries: "-1" }],
      ["serviceProfile", { serviceProfile: `/etc/${value}/profile.yaml` }],
      ["caCertificate", { caCertificate: value }],
      ["clientId", { clientId: 4242 }],
      ["clientSecret", { clientSecret: ["x"] }],
    ];
    for (const [name, given] of cases) {
      const { failures } = await fx.plugin.checkConfig({ ...valid, ...given });
      assert.equal(failures.length, 1, `${name}: ${failures.length} failures`);
      assert.equal(namedArgument(failures[0]), name);
      assertNoCanary(JSON.stringify(failures), value, `the failure about ${name}`);
      assertNoCanary(JSON.stringify(failures), host, `the failure about ${name}`);
    }
    // A typo, and a missing setting: no property either.
    const typo = await fx.plugin.checkConfig({ ...valid, baseurl: value });
    assert.equal(namedArgument(typo.failures[0]), "baseurl");
    assertNoCanary(JSON.stringify(typo.failures), value, "the failure about a typo");
    const { clientSecret: _left, ...missing } = valid;
    const absent = await fx.plugin.checkConfig(missing);
    assert.deepEqual(absent.failures.map(namedArgument), ["clientSecret"]);
  });

  it("Configure refuses a secret accountId, saying what to run, without its value", async () => {
    const customer = fx.service.customers[0];
    const settings = { baseUrl: fx.service.baseUrl, clientId: customer.clientId, clientSecret: secret("x") };
    for (const [urn, advice] of [
      [DEFAULT_PROVIDER, /`pulumi config set embedded:accountId <id>` \(without --secret\)/],
      [EXPLICIT_PROVIDER, /as a plain value/],
    ] as const) {
      await resetRuntime();
      const plugin = await Plugin.start();
      try {
        const error = await grpcError(plugin.configure({ ...settings, accountId: secret(fx.accountId) }, urn));
        assert.equal(error.code, grpc.status.UNKNOWN);
        assert.match(error.details, /^accountId is a secret, but it is the default accountId of every resource/);
        assert.match(error.details, advice);
        assertNoCanary(error.details, fx.accountId, "the refusal");
      } finally {
        plugin.close();
      }
    }
  });

  it("Configure warns of a client secret in plain text with the command that fixes it, never the value", async () => {
    const engine = await startFakeEngine();
    const customer = fx.service.customers[0];
    const plainSecret = canary("plain-client-secret");
    const settings = { baseUrl: fx.service.baseUrl, clientId: customer.clientId, accountId: fx.accountId };
    try {
      await resetRuntime();
      const plugin = await Plugin.start(engine.address);
      try {
        await plugin.configure({ ...settings, clientSecret: secret(plainSecret) }, DEFAULT_PROVIDER);
        await plugin.configure({ ...settings, clientSecret: plainSecret }, DEFAULT_PROVIDER);
        await plugin.configure({ ...settings, clientSecret: plainSecret }, EXPLICIT_PROVIDER);
      } finally {
        plugin.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // the Log calls are one-way
      const warnings = engine.logs.filter((log) => /clientSecret/.test(log.message));
      assert.equal(warnings.length, 2, JSON.stringify(warnings.map((w) => w.message)));
      // The one judgement's words (settings/plain-secrets.ts), as every host and the fleet give them.
      assert.equal(warnings[0].message, plainSecretMessage("clientSecret", { kind: "stack file", stack: "dev" }));
      assert.ok(warnings[0].message.includes("`pulumi config set --secret embedded:clientSecret --stack dev`"));
      assert.equal(warnings[0].urn, "", "not under the default provider, which the engine's display leaves out");
      assert.equal(warnings[1].message, plainSecretMessage("clientSecret", { kind: "provider argument" }));
      for (const warning of warnings) assertNoCanary(warning.message, plainSecret, "the warning");
    } finally {
      engine.stop();
    }
  });

  it("a lookup's refusal names an argument that arrived secret, never its value; plain ones are quoted", async () => {
    const name = `Amazon S3 ${value}`;
    const refused = await grpcError(
      fx.plugin.invoke(FIND, { name: secret(name), supportedType: "Source", __secretArguments: [] }),
    );
    assert.match(refused.details, /no connector named \(the secret argument name\) with supportedType Source/);
    assert.doesNotMatch(refused.details, /near matches/, "near matches would tell what the secret is like");
    assertNoCanary(refused.details, value, "findConnector's refusal");
    // A secret accountId (the client's own text names the sub-account): named, not quoted.
    const account = `acct-${value}`;
    const other = await grpcError(
      fx.plugin.invoke(FIND, {
        name: "Amazon S3",
        supportedType: "Source",
        accountId: secret(account),
        __secretArguments: [],
      }),
    );
    assertNoCanary(other.details, account, "the refusal about a secret accountId");
    const connector = await grpcError(
      fx.plugin.invoke(GET, {
        connectorId: secret("0123456789abcdef"),
        accountId: secret(account),
        __secretArguments: [],
      }),
    );
    assertNoCanary(connector.details, account, "getConnector's refusal");
    assertNoCanary(connector.details, "0123456789abcdef", "getConnector's refusal");
    // The engine passes a function's arguments without their secretness: the plugin's TypeScript
    // SDK names the secret ones in a hidden argument, which the plugin honours.
    const named = await grpcError(
      fx.plugin.invoke(FIND, { name, supportedType: "Source", __secretArguments: ["name"] }),
    );
    assert.match(named.details, /no connector named \(the secret argument name\) with supportedType Source/);
    assert.doesNotMatch(named.details, /near matches/);
    assertNoCanary(named.details, value, "findConnector's refusal (hidden argument)");
    // Given plainly by the TypeScript SDK (its hidden list empty), the name is quoted with its
    // near matches (what a typo needs).
    const plain = await grpcError(
      fx.plugin.invoke(FIND, { name: "Amazon S4", supportedType: "Source", __secretArguments: [] }),
    );
    assert.match(plain.details, /no connector named "Amazon S4" with supportedType Source.*near matches: "Amazon S3"/);
  });

  it("from an SDK that cannot name the secret arguments (Python, Go, YAML), no argument is quoted", async () => {
    // The engine passes a secret argument as a plain one: the plugin cannot tell it from a typo.
    const name = `Amazon S3 ${value}`;
    const refused = await grpcError(fx.plugin.invoke(FIND, { name, supportedType: "Source" }));
    assert.match(refused.details, /no connector named \(the secret argument name\)/);
    assert.doesNotMatch(refused.details, /near matches/, "near matches would tell what the secret is like");
    assertNoCanary(refused.details, value, "findConnector's refusal (no hidden argument)");
    const account = `acct-${value}`;
    const connector = await grpcError(fx.plugin.invoke(GET, { connectorId: "0123456789abcdef", accountId: account }));
    assertNoCanary(connector.details, account, "getConnector's refusal (no hidden argument)");
    assertNoCanary(connector.details, "0123456789abcdef", "getConnector's refusal (no hidden argument)");
  });
});
