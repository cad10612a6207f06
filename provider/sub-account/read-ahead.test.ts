// provider/sub-account/read-ahead.ts: a refresh's configuration reads are fetched
// ahead, once each, only for connectors the stack read as AddedConnectors and the listing
// shows as configured, and only once a configuration is read (a preview or an up fetches none);
// and a Configure through the provider drops what was fetched ahead of it.
import assert from "node:assert/strict";
import type { ConnectorConfigurationView } from "../client";
import * as added from "../added-connector/steps";
import { ConfigurationReadAhead, type ConfigurationClient } from "./read-ahead";
import * as configuration from "../connector-configuration/steps";
import {
  CONNECTORS,
  SEGMENT_CONFIG,
  startFixture,
  useConfig,
  type ProviderFixture,
} from "../../test/support/provider-fixtures";
import { configurationReadAhead } from "./process";

const ACCOUNT = "acct_read_ahead";

class CountingClient implements ConfigurationClient {
  gets: string[] = [];
  failing = new Set<string>();
  version = 1;
  async getConfiguration(accountId: string, connectorId: string): Promise<ConnectorConfigurationView> {
    this.gets.push(connectorId);
    if (this.failing.has(connectorId)) throw new Error(`Get ${connectorId} failed`);
    return { connectorId, accountId, version: this.version } as unknown as ConnectorConfigurationView;
  }
}

const versionOf = (view: ConnectorConfigurationView) => (view as unknown as { version: number }).version;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("configuration read-ahead", () => {
  it("fetches nothing while only AddedConnectors are read (preview, up, a refresh without configurations)", async () => {
    const client = new CountingClient();
    const ahead = new ConfigurationReadAhead();
    for (const id of ["a", "b", "c"]) ahead.notedAdded(client, ACCOUNT, id, true);
    await settle();
    assert.deepEqual(client.gets, []);
  });

  it("from the first configuration read, fetches the stack's configured connectors once each; the reads take them", async () => {
    const client = new CountingClient();
    const ahead = new ConfigurationReadAhead();
    ahead.notedAdded(client, ACCOUNT, "a", true);
    ahead.notedAdded(client, ACCOUNT, "b", false); // added, not configured: never fetched
    ahead.notedAdded(client, ACCOUNT, "c", true);
    await ahead.read(client, ACCOUNT, "a");
    ahead.notedAdded(client, ACCOUNT, "d", true); // read after the first configuration: fetched at once
    await settle();
    assert.deepEqual([...client.gets].sort(), ["a", "c", "d"]);
    await ahead.read(client, ACCOUNT, "c");
    await ahead.read(client, ACCOUNT, "d");
    assert.equal(client.gets.length, 3, "no read costs a second Get");
    assert.equal(ahead.fetchedAhead, 2);
  });

  it("sends the first read's own Get before the ones it fetches ahead (it does not wait behind them)", async () => {
    const client = new CountingClient();
    const ahead = new ConfigurationReadAhead();
    for (const id of ["a", "b", "c", "d"]) ahead.notedAdded(client, ACCOUNT, id, true);
    await ahead.read(client, ACCOUNT, "c");
    assert.equal(client.gets[0], "c");
    assert.deepEqual([...client.gets].sort(), ["a", "b", "c", "d"]);
  });

  it("does not fetch ahead a connector whose configuration was already read", async () => {
    const client = new CountingClient();
    const ahead = new ConfigurationReadAhead();
    await ahead.read(client, ACCOUNT, "a");
    ahead.notedAdded(client, ACCOUNT, "a", true); // its AddedConnector read came after its configuration's
    await settle();
    assert.deepEqual(client.gets, ["a"]);
  });

  it("keeps sub-accounts and clients apart", async () => {
    const [one, two] = [new CountingClient(), new CountingClient()];
    const ahead = new ConfigurationReadAhead();
    ahead.notedAdded(one, ACCOUNT, "a", true);
    ahead.notedAdded(one, "acct_other", "b", true);
    ahead.notedAdded(two, ACCOUNT, "c", true);
    await ahead.read(one, ACCOUNT, "x");
    await settle();
    assert.deepEqual(one.gets.sort(), ["a", "x"]);
    assert.deepEqual(two.gets, []);
  });

  it("forgets what it fetched ahead of a write: the next read gets the configuration again", async () => {
    const client = new CountingClient();
    const ahead = new ConfigurationReadAhead();
    ahead.notedAdded(client, ACCOUNT, "a", true);
    await ahead.read(client, ACCOUNT, "first");
    ahead.forget(client, ACCOUNT, "a");
    client.version = 2;
    assert.equal(versionOf(await ahead.read(client, ACCOUNT, "a")), 2);
    assert.equal(client.gets.filter((id) => id === "a").length, 2);
  });

  it("hands a failed Get to the read that takes it, and leaves none unhandled", async () => {
    const client = new CountingClient();
    client.failing.add("a").add("never-read");
    const ahead = new ConfigurationReadAhead();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      ahead.notedAdded(client, ACCOUNT, "a", true);
      ahead.notedAdded(client, ACCOUNT, "never-read", true);
      await ahead.read(client, ACCOUNT, "first");
      await assert.rejects(ahead.read(client, ACCOUNT, "a"), /Get a failed/);
      await settle();
      assert.deepEqual(unhandled, []);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("configuration read-ahead through the provider", () => {
  let fx: ProviderFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(async () => fx.service.stop());

  it("a Configure of a connector fetched ahead: the next read returns what was written, not the configuration fetched before", async () => {
    await fx.service.reset();
    useConfig(fx);
    const ids = [CONNECTORS.segment, CONNECTORS.amplitude];
    await fx.client.addConnectors(fx.accountId, ids);
    const inputs = (connectorId: string, workspace: string) => ({
      connectorId,
      accountId: fx.accountId,
      secretConfig: { ...SEGMENT_CONFIG, workspace },
      __provider: "p",
    });
    const outs: Record<string, Record<string, unknown>> = {};
    for (const id of ids) outs[id] = (await configuration.create(inputs(id, "before"))).outs as Record<string, unknown>;

    // A process that refreshes the stack: the AddedConnector reads, then the first configuration
    // read, which fetches segment's configuration ahead (workspace "before"). Every Get is kept,
    // so the test can wait for the one fetched ahead to be answered.
    useConfig(fx);
    const gets: Promise<unknown>[] = [];
    const getConfiguration = fx.client.getConfiguration.bind(fx.client);
    fx.client.getConfiguration = (accountId, connectorId) => {
      const get = getConfiguration(accountId, connectorId);
      gets.push(get);
      return get;
    };
    try {
      for (const id of ids)
        await added.read(`${fx.accountId}/${id}`, { connectorId: id, accountId: fx.accountId, adoptExisting: false });
      await configuration.read(`${fx.accountId}/${CONNECTORS.amplitude}`, outs[CONNECTORS.amplitude]);
      assert.equal(configurationReadAhead().fetchedAhead, 1, "segment's configuration was fetched ahead");
      await Promise.all(gets);
    } finally {
      delete (fx.client as Partial<typeof fx.client>).getConfiguration;
    }

    // The same process then configures segment (an update of the same run), and reads it.
    const id = `${fx.accountId}/${CONNECTORS.segment}`;
    const updated = (await configuration.update(id, outs[CONNECTORS.segment], inputs(CONNECTORS.segment, "after")))
      .outs as Record<string, unknown>;
    const read = await configuration.read(id, updated);
    const digests = read.props?.fieldDigests as Record<string, string> | undefined;
    assert.equal(
      digests?.workspace,
      (updated.fieldDigests as Record<string, string>).workspace,
      "the read returned the configuration fetched ahead of the Configure (stale)",
    );
    assert.equal(read.props?.drift, "");
  });
});
