// The pending-Add records a provider process killed mid-Add leaves.
// A record never makes a connector the stack's own: when the connector was already there
// before our Add, the service cannot say whether the killed run added it or another stack did
// since, so the create is refused, naming the record and `adoptExisting`. Records go as soon as
// a create hands the engine its outputs, and expire after PENDING_ADD_MAX_AGE_MS (an injected
// clock here, no sleeps).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CATALOGUE } from "../../service/seed/catalogue";
import { EmbeddedClient } from "../client";
import { AddJournal, PENDING_ADD_MAX_AGE_MS } from "./pending-writes";
import * as impl from "../added-connector/steps";
import { runtime, useOwner } from "./runtime";
import { rejection, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";

const ids = (n: number, from = 20) => CATALOGUE.slice(from, from + n).map((c) => c.connectorId);
const STACK_A = "proj/stack-a";

describe("AddedConnector provider: pending-Add records of a killed run", () => {
  const fx = useProviderFixture();
  let client: EmbeddedClient;
  let journalDir: string;

  beforeEach(async () => {
    client = fx.client;
    useConfig(fx, {}, client);
    journalDir = mkdtempSync(path.join(tmpdir(), "pending-adds-"));
  });
  afterEach(() => {
    useConfig(fx); // forgets the owner and the journal
    rmSync(journalDir, { recursive: true, force: true });
  });

  const create = (connectorId: string, extra: Record<string, unknown> = {}) =>
    impl.create({ connectorId, accountId: fx.accountId, ...extra });
  /** What a process of stack A killed mid-Add left, written at `at` (ms since the epoch). */
  const killedRunLeft = (connectorId: string, at = Date.now()) => {
    new AddJournal(journalDir, STACK_A, undefined, () => at).begin(client.baseUrl, fx.accountId, connectorId);
    return readdirSync(journalDir).map((name) => path.join(journalDir, name));
  };
  /** This stack's next run: a fresh process whose journal reads the clock `now`. */
  const nextRunOfA = (now: () => number = Date.now) => {
    useOwner(STACK_A, journalDir);
    runtime().journal = new AddJournal(journalDir, STACK_A, undefined, now);
  };

  it("a record holds ids only: not the service's URL, which an explicit provider may have as a secret", () => {
    const [connectorId] = ids(1);
    const [record] = killedRunLeft(connectorId);
    const text = readFileSync(record, "utf8");
    assert.ok(text.includes(connectorId), text);
    assert.ok(!text.includes(new URL(client.baseUrl).host), `the service's address is in the record: ${text}`);
  });

  it("a connector already there is not taken over: refused, naming the record, adoptExisting and the other stack", async () => {
    const [contested] = ids(1);
    const [record] = killedRunLeft(contested, Date.parse("2031-05-06T07:08:09.000Z"));
    await fx.client.addConnectors(fx.accountId, [contested]); // stack B added it since
    nextRunOfA(() => Date.parse("2031-05-06T09:00:00.000Z"));

    const refused = await rejection(create(contested));
    assert.match(
      refused.message,
      new RegExp(`\\(${contested}\\) is already added to sub-account ${fx.accountId}, outside this resource`),
    );
    for (const part of [
      `pending-Add record of stack ${STACK_A}`,
      "written 2031-05-06T07:08:09.000Z",
      record,
      "`adoptExisting: true`",
      "remove it from there",
    ]) {
      assert.ok(refused.message.includes(part), `the refusal names ${part}: ${refused.message}`);
    }
    assert.deepEqual(readdirSync(journalDir), [path.basename(record)], "kept: the next run is told the same");
    assert.deepEqual(
      (await fx.client.addConnectors(fx.accountId, [contested])).alreadyAdded,
      [contested],
      "the other stack's connector is still there",
    );

    // What the message says to do when the killed run did add it: adopt; the record then goes.
    const adopted = await create(contested, { adoptExisting: true });
    assert.equal(adopted.outs.connectorId, contested);
    assert.deepEqual(readdirSync(journalDir), [], "settled once the engine has the resource");
  });

  it("a connector not there yet is added as usual, and the record goes as soon as create returns", async () => {
    const [lost] = ids(1, 22);
    killedRunLeft(lost); // the killed run's Add never landed
    nextRunOfA();
    useOwner("", journalDir); // a resource of an old state, serialized without an owner
    assert.equal(runtime().owner, STACK_A, "an owner-less provider string does not switch the journal off");
    const created = await create(lost);
    assert.equal(typeof created.outs.name, "string");
    assert.deepEqual(readdirSync(journalDir), [], "no record outlives the create that handed the engine its outputs");
  });

  it("another stack's record says nothing about this stack", async () => {
    const [contested] = ids(1, 24);
    killedRunLeft(contested);
    await fx.client.addConnectors(fx.accountId, [contested]);
    useOwner("proj/stack-b", journalDir);
    const refused = await rejection(create(contested));
    assert.match(refused.message, /already added .* outside this resource/);
    assert.doesNotMatch(refused.message, /pending-Add record/);
  });

  it(`a record older than ${PENDING_ADD_MAX_AGE_MS / 3_600_000} h is ignored and removed`, async () => {
    const [contested] = ids(1, 26);
    const written = Date.parse("2031-01-01T00:00:00.000Z");
    const [record] = killedRunLeft(contested, written);
    await fx.client.addConnectors(fx.accountId, [contested]);

    // Just within the age limit: still named.
    nextRunOfA(() => written + PENDING_ADD_MAX_AGE_MS);
    assert.match((await rejection(create(contested))).message, /pending-Add record/);

    // Past it: the plain refusal, and the file is gone.
    useConfig(fx, {}, client);
    nextRunOfA(() => written + PENDING_ADD_MAX_AGE_MS + 1);
    const refused = await rejection(create(contested));
    assert.match(refused.message, /already added .* outside this resource/);
    assert.doesNotMatch(refused.message, /pending-Add record/);
    assert.equal(existsSync(record), false, "an expired record is removed");
  });

  it("the journal removes expired records of any connector when it first lists its directory", () => {
    const [old, recent] = ids(2, 28);
    const written = Date.now();
    const records = killedRunLeft(old, written);
    const other = new AddJournal(journalDir, "proj/stack-b", undefined, () => written);
    other.begin(client.baseUrl, fx.accountId, recent);
    // A later process, past the age limit: its first look at the directory sweeps both.
    const later = new AddJournal(journalDir, STACK_A, undefined, () => written + PENDING_ADD_MAX_AGE_MS + 60_000);
    assert.equal(later.pending(client.baseUrl, fx.accountId, recent), undefined);
    assert.deepEqual(readdirSync(journalDir), [], `swept: ${records.join(", ")}`);
  });
});
