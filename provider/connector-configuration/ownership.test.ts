// A ConnectorConfiguration create never overwrites a configuration this stack
// did not write. Another stack's (or a person's) saved configuration is refused, naming the
// connector, the sub-account and the ways on (`adoptExisting`, `pulumi import`), and nothing is
// written; `adoptExisting: true` takes it over. A connector added in the same run creates
// without a flag, and an earlier process of this stack killed mid-write does not lock it out.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { withSaltInput } from "./digest-salt";
import * as impl from "./steps";
import { AddJournal } from "../runtime/pending-writes";
import { stackIdentity } from "../project/stack-identity";
import { runtime, useOwner } from "../runtime/runtime";
import { configurationKey } from "./ownership";
import { routeKey } from "../../contract/routes";
import {
  callsTo,
  CONNECTORS,
  rejection,
  SEGMENT_CONFIG,
  useConfig,
  useProviderFixture,
} from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;
const STACK_A = "proj/stack-a";
const CONFIGURE = routeKey("configure");
const OTHERS = { ...SEGMENT_CONFIG, apiKey: "stack-b-password-value", workspace: "stack-b" };

/** A pending-Configure record as the provider wrote it before records carried the stack's identity. */
function writeLegacyRecord(
  dir: string,
  owner: string,
  baseUrl: string,
  accountId: string,
  connectorId: string,
): string {
  const key = configurationKey(connectorId);
  const name = `${createHash("sha256").update(`${owner}\n${baseUrl}\n${accountId}\n${key}`).digest("hex").slice(0, 32)}.json`;
  const record = { owner, session: "an earlier version", baseUrl, accountId, connectorId: key, pid: 1 };
  writeFileSync(path.join(dir, name), JSON.stringify({ ...record, startedAt: new Date().toISOString() }));
  return name;
}

describe("ConnectorConfiguration provider: whose configuration is it", () => {
  const fx = useProviderFixture();
  let journalDir: string;

  beforeEach(() => {
    journalDir = mkdtempSync(path.join(tmpdir(), "pending-configures-"));
  });
  afterEach(() => {
    runtime().host = "dynamic"; // the tests below that play the plugin set it
    useConfig(fx); // forgets the owner and the journal
    rmSync(journalDir, { recursive: true, force: true });
  });

  const inputs = (extra: Props = {}): Props => ({
    connectorId: CONNECTORS.segment,
    accountId: fx.accountId,
    secretConfig: SEGMENT_CONFIG,
    ...extra,
  });
  /** Another stack (or a person) adds the connector and saves its own configuration. */
  async function configuredByAnotherStack(): Promise<number> {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const { configurationId } = (await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).secretConfig[0];
    const saved = await fx.client.configure(fx.accountId, CONNECTORS.segment, {
      configurationId,
      secretConfig: OTHERS,
    });
    return saved.lastUpdated ?? 0;
  }
  /** This stack's process, with its journal. */
  const runOfA = () => {
    useOwner(STACK_A, journalDir);
    runtime().journal = new AddJournal(journalDir, STACK_A);
  };
  const workspaceNow = async () =>
    (await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).secretConfig[0].configuration.find(
      (f) => f.id === "workspace",
    )?.value;

  it("refuses a create over another stack's saved configuration, naming connector, sub-account and what to do; writes nothing", async () => {
    const lastUpdated = await configuredByAnotherStack();
    const before = callsTo(await fx.service.stats(), CONFIGURE);
    const refused = await rejection(impl.create(inputs()));
    assert.match(
      refused.message,
      new RegExp(`^connector ${CONNECTORS.segment} of sub-account ${fx.accountId} already has a saved configuration`),
    );
    assert.match(refused.message, /that this stack did not write/);
    assert.match(refused.message, /set `adoptExisting: true` on this ConnectorConfiguration/);
    assert.ok(!refused.message.includes(OTHERS.apiKey) && !refused.message.includes(SEGMENT_CONFIG.apiKey));
    assert.equal(callsTo(await fx.service.stats(), CONFIGURE), before, "no Configure sent");
    const live = await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment);
    assert.equal(live.lastUpdated, lastUpdated, "the other stack's configuration is untouched");
    assert.equal(await workspaceNow(), "stack-b");
  });

  it("the plugin's refusal also offers `pulumi import` with the resource's id", async () => {
    await configuredByAnotherStack();
    runtime().host = "plugin";
    const refused = await rejection(impl.create(inputs()));
    assert.ok(
      refused.message.includes(
        `\`pulumi import embedded:index:ConnectorConfiguration <name> ${fx.accountId}/${CONNECTORS.segment}\``,
      ),
      refused.message,
    );
  });

  it("adoptExisting: true takes the configuration over (writes this stack's values)", async () => {
    await configuredByAnotherStack();
    const { id, outs } = await impl.create(inputs({ adoptExisting: true }));
    assert.equal(id, `${fx.accountId}/${CONNECTORS.segment}`);
    assert.equal((outs as Props).configured, true);
    assert.equal(await workspaceNow(), SEGMENT_CONFIG.workspace);
  });

  it("a connector added in the same run is configured without a flag", async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const { outs } = await impl.create(inputs());
    assert.equal((outs as Props).configured, true);
  });

  it("an earlier process of this stack killed mid-write (its record left) takes its configuration back", async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    runOfA();
    // The killed process: it recorded the write, and the write landed, but no state was saved.
    new AddJournal(journalDir, STACK_A).begin(fx.client.baseUrl, fx.accountId, configurationKey(CONNECTORS.segment));
    const { configurationId } = (await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).secretConfig[0];
    await fx.client.configure(fx.accountId, CONNECTORS.segment, { configurationId, secretConfig: SEGMENT_CONFIG });
    const { id, outs } = await impl.create(inputs());
    assert.equal((outs as Props).configured, true);
    // The engine now holds the resource: its next diff settles the record.
    await impl.diff(id, outs as Props, inputs());
    assert.deepEqual(readdirSync(journalDir), []);
  });

  it("another stack's record does not take over: only this stack's own", async () => {
    await configuredByAnotherStack();
    new AddJournal(journalDir, "proj/stack-b").begin(
      fx.client.baseUrl,
      fx.accountId,
      configurationKey(CONNECTORS.segment),
    );
    runOfA();
    await rejection(impl.create(inputs()));
  });

  it("a same-named stack in another backend does not take over the killed run's configuration", async () => {
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
    const inBackend = (url: string) =>
      stackIdentity(STACK_A, { env: { PULUMI_BACKEND_URL: url }, cwd: journalDir, host: "runner" });
    // Stack A of backend one was killed writing its configuration: its record stays, its write landed.
    new AddJournal(journalDir, inBackend("file:///backends/one")).begin(
      fx.client.baseUrl,
      fx.accountId,
      configurationKey(CONNECTORS.segment),
    );
    const { configurationId } = (await fx.client.getConfiguration(fx.accountId, CONNECTORS.segment)).secretConfig[0];
    await fx.client.configure(fx.accountId, CONNECTORS.segment, { configurationId, secretConfig: OTHERS });
    const [record] = readdirSync(journalDir);

    // Stack A of backend two (same project, same stack name, same machine): refused, nothing written.
    useOwner(STACK_A, journalDir);
    runtime().journal = new AddJournal(journalDir, inBackend("file:///backends/two"));
    const refused = await rejection(impl.create(inputs()));
    assert.match(refused.message, /already has a saved configuration .*that this stack did not write/s);
    assert.equal(await workspaceNow(), "stack-b", "the other backend's stack's configuration is untouched");
    assert.deepEqual(readdirSync(journalDir), [record], "its record is not this stack's to settle");

    // The stack that wrote it, in backend one, takes it back.
    runtime().journal = new AddJournal(journalDir, inBackend("file:///backends/one"));
    await impl.create(inputs());
    assert.equal(await workspaceNow(), SEGMENT_CONFIG.workspace);
  });

  it("a record written before identities is claimed by no one, and settles", async () => {
    await configuredByAnotherStack();
    runOfA();
    const legacy = writeLegacyRecord(journalDir, STACK_A, fx.client.baseUrl, fx.accountId, CONNECTORS.segment);
    await rejection(impl.create(inputs())); // `project/stack` alone proves nothing
    assert.deepEqual(readdirSync(journalDir), [legacy]);
    // Once the engine shows this stack holds the resource (its diff), the record goes.
    const { id, outs } = await impl.create(inputs({ adoptExisting: true }));
    await impl.diff(id, outs as Props, inputs());
    assert.deepEqual(readdirSync(journalDir), []);
  });

  it("a create refused by the service (4xx) leaves no record behind", async () => {
    runOfA();
    await rejection(impl.create(inputs())); // not added: 404
    assert.deepEqual(readdirSync(journalDir), []);
  });

  it("adoptExisting alone changes nothing: no diff; import then the program without it: no diff", async () => {
    await configuredByAnotherStack();
    const { id, outs } = await impl.create(inputs({ adoptExisting: true }));
    const checked = (await impl.check(inputs({ adoptExisting: true }), inputs())).inputs as Props;
    assert.equal((await impl.diff(id, { ...(outs as Props), adoptExisting: true }, checked)).changes, false);
    const imported = await impl.importExisting(id);
    // The program declares the values it imported, as the service shows them (no Password):
    // the import itself holds no value (docs/import.md).
    const { apiKey: _password, ...shown } = SEGMENT_CONFIG;
    const declared = inputs({ configurationId: imported.inputs.configurationId, secretConfig: shown });
    // Only the plugin imports: its check carries the digests' salt input from the imported inputs.
    const program = withSaltInput(imported.inputs, (await impl.check(imported.inputs, declared)).inputs as Props);
    assert.equal((await impl.diff(id, imported.props, program)).changes, false);
  });
});
