// The policy pack's rules on their own: a violating resource is named with the rule and what to
// change, a compliant one passes, and no violation ever holds a value (canaries, any letter case).
import { strict as assert } from "node:assert";
import type { ConnectorFacts } from "./config";
import {
  allowedConnectors,
  connectorsPerSubAccount,
  kindOf,
  noSecretId,
  passwordsFromSecrets,
  requiredSecretConfig,
  type ConnectorResource,
  type RuleContext,
} from "./rules";

const CANARY = "Canary-Pw-7f3a9c";
const S3: ConnectorFacts = {
  connectorId: "s3s3s3s3s3s3s3s3",
  name: "Amazon S3",
  platformType: "Cloud Storage Provider",
  supportedType: "Source",
};
const FIELDS = [
  { id: "bucket", type: "Text" },
  { id: "password", type: "password" },
];

function context(plain: readonly string[] = [], stack = "dev"): RuleContext {
  return {
    stack,
    accountId: "acct-1",
    connector: async (id) => {
      if (id !== S3.connectorId) throw new Error(`no connector ${id} (request id req-1)`);
      return S3;
    },
    fields: async () => FIELDS,
    profile: undefined,
    writtenInPlain: (value) => plain.includes(value),
  };
}

const added = (connectorId = S3.connectorId): ConnectorResource => ({
  kind: "AddedConnector",
  name: "s3",
  props: { connectorId },
});
const configuration = (props: Record<string, unknown>): ConnectorResource => ({
  kind: "ConnectorConfiguration",
  name: "s3-config",
  props: { connectorId: S3.connectorId, ...props },
});

function noCanary(violations: readonly string[]): void {
  for (const text of violations) assert.ok(!text.toLowerCase().includes(CANARY.toLowerCase()), text);
}

describe("policy rules", () => {
  it("knows both hosts' type tokens, and nothing else", () => {
    assert.equal(kindOf("embedded:index:AddedConnector"), "AddedConnector");
    assert.equal(kindOf("pulumi-nodejs:dynamic/embedded-connectors:ConnectorConfiguration"), "ConnectorConfiguration");
    assert.equal(kindOf("aws:s3/bucket:Bucket"), undefined);
  });

  it("allows by name, platform type and side; the sub-account's list over the stack's over the team's", async () => {
    const config = {
      connectors: [{ name: "Amazon S3", side: "Source" as const }],
      stacks: { prod: [{ platformType: "Warehouse" }] },
    };
    assert.deepEqual(await allowedConnectors(added(), config, context()), []);
    const [violation] = await allowedConnectors(added(), config, context([], "prod"));
    assert.match(
      violation,
      /AddedConnector "s3" adds connector "Amazon S3".*embedded-allowed-connectors.*stack "prod"/,
    );
    assert.match(violation, /remove the resource, or add a match/);
    const byAccount = { ...config, accounts: { "acct-1": [{ side: "Destination" as const }] } };
    assert.match((await allowedConnectors(added(), byAccount, context()))[0], /sub-account acct-1/);
    assert.deepEqual(await allowedConnectors(added(), {}, context()), [], "no list: no rule");
    assert.match((await allowedConnectors(added("x".repeat(16)), config, context()))[0], /could not be read.*req-1/);
  });

  it("refuses a Password written in plain and heldByService where not allowed, never quoting a value", async () => {
    const plain = configuration({ secretConfig: { bucket: "b", password: CANARY } });
    const found = await passwordsFromSecrets(plain, {}, context([CANARY, "b"]));
    assert.equal(found.length, 1);
    assert.match(found[0], /secretConfig "password" .*Password field written in plain.*--secret/);
    noCanary(found);
    assert.deepEqual(await passwordsFromSecrets(plain, {}, context([])), [], "from a secret: passes");
    const held = configuration({ secretConfig: { bucket: "b" }, heldByService: ["password"] });
    assert.match((await passwordsFromSecrets(held, {}, context()))[0], /heldByService \("password"\).*only for: none/);
    assert.deepEqual(await passwordsFromSecrets(held, { heldByService: [{ name: "Amazon S3" }] }, context()), []);
  });

  it("requires the team's fields by connector name or id; empty counts as missing", async () => {
    const config = { fields: { "Amazon S3": ["bucket", "password"] } };
    const found = await requiredSecretConfig(
      configuration({ secretConfig: { bucket: "", x: CANARY } }),
      config,
      context(),
    );
    assert.match(found[0], /secretConfig lacks "bucket", "password".*embedded-required-secret-config/);
    noCanary(found);
    const full = configuration({ secretConfig: { bucket: "b", password: CANARY } });
    assert.deepEqual(await requiredSecretConfig(full, config, context()), []);
    assert.match(
      (await requiredSecretConfig(configuration({}), { fields: { [S3.connectorId]: ["bucket"] } }, context()))[0],
      /lacks "bucket"/,
    );
  });

  it("refuses an id given as a secret, and says so when it cannot tell", () => {
    assert.match(
      noSecretId(added(), new Set(["configurationId", "secretConfig"]))[0],
      /configurationId is given as a secret/,
    );
    assert.deepEqual(noSecretId(added(), new Set(["secretConfig"])), []);
    assert.match(noSecretId(added(), undefined)[0], /cannot tell/);
  });

  it("counts AddedConnectors per sub-account against max, or the sub-account's own limit", () => {
    const connectors = [
      { name: "a", accountId: "acct-1" },
      { name: "b", accountId: "acct-1" },
      { name: "c", accountId: "acct-2" },
    ];
    const [violation, ...rest] = connectorsPerSubAccount(connectors, { max: 1 });
    assert.match(violation, /sub-account acct-1 gets 2 AddedConnectors \("a", "b"\), more than the 1.*remove 1/);
    assert.deepEqual(rest, []);
    assert.deepEqual(connectorsPerSubAccount(connectors, { max: 1, accounts: { "acct-1": 2 } }), []);
    assert.deepEqual(connectorsPerSubAccount(connectors, {}), []);
  });
});
