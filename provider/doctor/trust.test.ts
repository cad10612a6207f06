// A `doctor` to trust. The first `up` after doctor on an empty sub-account
// (the paging of a list too short to tell is inferred from the other lists, and probed by
// --write-check); pages numbered from 0; exit 1 whenever something is left to change or could not
// be told. Against the local service serving profiles (with faults) and a loopback stub.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadProfile } from "../../contract/profile";
import { closeClients, collect, getClient } from "../client";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { runDoctor, startStub, type Target } from "../../test/support/doctor-stub";

const PROFILES = path.resolve(__dirname, "../../../profiles");

const localTarget = (service: LocalService, sub: number): Target => {
  const c = service.customers[0];
  return {
    baseUrl: service.baseUrl,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    accountId: c.subAccountIds[sub] as string,
  };
};

describe("doctor: the first `up` after doctor, on an empty sub-account (documented conventions)", function () {
  this.timeout(60_000);
  let service: LocalService;
  let dir: string;
  before(async () => {
    service = await startLocalService({ profile: path.join(PROFILES, "documented-conventions.yaml") });
    dir = mkdtempSync(path.join(tmpdir(), "doctor-trust-"));
  });
  after(async () => {
    await closeClients();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("infers the added list's paging from the other lists, writes it under defaults, and the provider reads the list", async () => {
    const scratch = localTarget(service, 1);
    const written = path.join(dir, "p.json");
    const first = await runDoctor(scratch, { writeProfile: written, writeCheck: true });
    assert.equal(first.code, 1, first.text);
    assert.match(first.text, /paging inferred: size\/offset, which listConnectors and listSupportedConnectors honour/);
    const file = JSON.parse(readFileSync(written, "utf8")) as { defaults?: { paging?: unknown }; operations?: object };
    assert.deepEqual(file.defaults?.paging, { style: "offset", offset: "offset", size: "size", maxSize: 200 });
    assert.ok(!JSON.stringify(file.operations ?? {}).includes("paging"), "the agreed paging is written once");
    const again = await runDoctor(scratch, { profile: written });
    assert.equal(again.code, 0, again.text);
    // The step that failed: the provider's client under the written profile sees what it adds.
    const client = getClient({ ...scratch, profile: loadProfile(written) });
    const [one] = (await collect(client.listConnectors(scratch.accountId))).map((c) => c.connectorId);
    assert.ok(one);
    await client.addConnectors(scratch.accountId, [one]);
    assert.deepEqual(
      (await collect(client.listAddedConnectors(scratch.accountId))).map((c) => c.connectorId),
      [one],
    );
    await client.removeConnector(scratch.accountId, one);
  });

  it("--write-check that finds a key to change exits 1 (addReportsAlreadyAdded)", async () => {
    const wrong = path.join(dir, "wrong-semantics.yaml");
    const own = readFileSync(path.join(PROFILES, "documented-conventions.yaml"), "utf8");
    writeFileSync(wrong, own.replace("addReportsAlreadyAdded: false", "addReportsAlreadyAdded: true"));
    const { code, text } = await runDoctor(localTarget(service, 2), { profile: wrong, writeCheck: true });
    assert.match(text, /keys to change: semantics\.addReportsAlreadyAdded/);
    assert.equal(code, 1, text);
  });

  for (const [mode, outcome] of [
    ["commitThenDrop", /outcome unknown \(no answer: .*\); read back: connector \w+ was added; doctor removed it/],
    ["reset", /outcome unknown \(no answer: .*\); read back: connector \w+ is not added; nothing is left/],
  ] as const) {
    it(`an Add whose answer is lost (${mode}): reads back, removes only what it added, says so by id`, async () => {
      const scratch = localTarget(service, 2);
      const profile = path.join(PROFILES, "documented-conventions.yaml");
      await service.setFaults({ rules: [{ route: "POST /es/v2/connectors", mode, count: 1 }] });
      try {
        const { code, text } = await runDoctor(scratch, { profile, writeCheck: true });
        assert.match(text, outcome);
        assert.equal(code, 1, text);
      } finally {
        await service.setFaults({ rules: [] });
      }
      const client = getClient({ ...scratch, profile: loadProfile(profile) });
      assert.deepEqual(await collect(client.listAddedConnectors(scratch.accountId)), [], "nothing left behind");
    });
  }
});

describe("doctor: pages numbered from 0", function () {
  this.timeout(60_000);
  let service: LocalService;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "doctor-zero-"));
    const zero = path.join(dir, "zero.yaml");
    writeFileSync(zero, "name: zero\ndefaults:\n  paging: { style: page, firstPage: 0 }\n");
    service = await startLocalService({ profile: zero });
  });
  after(async () => {
    await closeClients();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are detected: the built-in profile is refused, the written one has firstPage 0 and the provider reads its lists", async () => {
    const t = localTarget(service, 0);
    const written = path.join(dir, "suggested.yaml");
    const first = await runDoctor(t, { writeProfile: written });
    assert.equal(first.code, 1, first.text);
    assert.match(first.text, /paging honoured: page\/pageSize from page 0/);
    assert.match(first.text, /operations\.listConnectors\.paging/);
    const profile = loadProfile(written);
    assert.deepEqual(profile.operations.listAddedConnectors.paging, {
      style: "page",
      page: "page",
      pageSize: "pageSize",
      maxSize: 200,
      firstPage: 0,
    });
    const again = await runDoctor(t, { profile: written });
    assert.equal(again.code, 0, again.text);
    const client = getClient({ ...t, profile });
    const catalogue = await collect(client.listConnectors(t.accountId));
    assert.ok(catalogue.length > 50, `the whole catalogue (${catalogue.length})`);
    await client.addConnectors(t.accountId, [catalogue[0]?.connectorId as string]);
    assert.equal((await collect(client.listAddedConnectors(t.accountId))).length, 1);
  });
});

describe("doctor: could not tell", () => {
  it("a service whose lists are all empty: exit 1, naming the lists and what to run", async () => {
    const stub = await startStub({ catalogue: 0 });
    try {
      const t = { baseUrl: stub.baseUrl, clientId: "id", clientSecret: "stub-secret-value", accountId: "acct" };
      const { code, text } = await runDoctor(t);
      assert.match(text, /could not tell the paging of listConnectors, listAddedConnectors; run doctor --write-check/);
      assert.equal(code, 1, text);
    } finally {
      await stub.close();
    }
  });
});
