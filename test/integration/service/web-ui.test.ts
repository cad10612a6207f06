// The local service's web page in a real browser: it shows the customers,
// their sub-accounts and the connectors added; its form changes a Text and a Password and
// sends only those two fields (the service merges them: the rest is kept, lastUpdated moves);
// no Password is rendered, put in a URL or logged; the connections it makes hold Remove back
// with the service's 409 until they are deleted.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Writable } from "node:stream";
import Database from "better-sqlite3";
import { closeClients, collect, getClient, type EmbeddedClient } from "../../../provider/client";
import { startLocalService, type LocalService } from "../../../harness/local-service";
import { sha256 } from "../../../service/domain/auth";
import { printSeedOnFailure, seedFrom, seededRandom } from "../../support/seed";
import { byName } from "../../support/service";
import { configurationForm, noBrowser, openUi, saveFields, statusAfter, type UiBrowser } from "../../support/browser";

/** Replay a failure with WEB_UI_SEED=<seed>. */
const SEED = seedFrom("WEB_UI_SEED");
const S3 = byName("Amazon S3").connectorId;
const FACEBOOK = byName("Facebook Custom Audiences").connectorId;

describe("service: the web page in Chromium (--ui)", function () {
  this.timeout(120_000);
  printSeedOnFailure("WEB_UI_SEED", SEED);
  const next = seededRandom(SEED.toString(16).padStart(8, "0"));
  const word = (prefix: string) => `${prefix}-${Math.floor(next() * 2 ** 32).toString(36)}`;
  const program = {
    bucket: word("bucket"),
    accessKeyId: word("AKIA"),
    secretAccessKey: word("first-secret"),
    region: "eu-west-1",
    fileFormats: ["csv", "parquet"],
    maxFileSizeMb: 250,
  };
  const typed = { bucket: word("bucket-by-hand"), secretAccessKey: word("second-secret") };

  const logs: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), "web-ui-"));
  let svc: LocalService;
  let client: EmbeddedClient;
  let account: string;
  let ui: UiBrowser;

  before(async function () {
    const why = noBrowser();
    if (why) {
      process.stderr.write(`skipping the web page's browser test: ${why}\n`);
      this.skip();
    }
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => (logs.push(chunk.toString()), done()),
    });
    svc = await startLocalService({
      ui: true,
      dbPath: path.join(dir, "service.db"),
      logger: { level: "trace", stream },
    });
    account = svc.customers[0].subAccountIds[0];
    client = getClient({
      baseUrl: svc.baseUrl,
      clientId: svc.customers[0].clientId,
      clientSecret: svc.customers[0].clientSecret,
    });
    await client.addConnectors(account, [S3, FACEBOOK]);
    const configurationId = byName("Amazon S3").secretConfiguration.configurationId;
    await client.configure(account, S3, { configurationId, secretConfig: program });
    ui = await openUi(`${svc.baseUrl}/ui#key=${svc.adminKey}`);
    await configurationForm(ui.page, account, S3).waitFor();
  });

  after(async () => {
    await ui?.close();
    await closeClients();
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows the customers, their sub-accounts and the connectors added, and drops the key from the address bar", async () => {
    const text = (await ui.page.locator("main").textContent()) ?? "";
    for (const customer of svc.customers) {
      assert.ok(text.includes(`Customer ${customer.clientId}`), customer.clientId);
      for (const sub of customer.subAccountIds) assert.ok(text.includes(`Sub-account ${sub}`), sub);
    }
    const rows = ui.page.locator(`section[data-account="${account}"] tr[data-connector]`);
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-connector"))), [
      S3,
      FACEBOOK,
    ]);
    assert.equal(ui.page.url(), `${svc.baseUrl}/ui`, "the admin key is no longer in the URL");
  });

  it("shows a Password as set, never its value", async () => {
    const form = configurationForm(ui.page, account, S3);
    assert.equal(await form.locator('[data-note="secretAccessKey"]').textContent(), "set");
    assert.equal(await form.locator('[name="secretAccessKey"]').inputValue(), "");
    assert.equal(await form.locator('[name="bucket"]').inputValue(), program.bucket);
    assert.ok(!(await ui.page.content()).includes(program.secretAccessKey), "no Password in the page");
  });

  it("the form changes a Text and a Password, sending only them; the service keeps the rest and lastUpdated moves", async () => {
    const before = await client.getConfiguration(account, S3);
    const valuesOf = (view: typeof before) => Object.fromEntries(view.configuration.map((f) => [f.id, f.value]));
    const status = await saveFields(ui.page, account, S3, typed);
    assert.match(status, /Amazon S3: saved bucket, secretAccessKey/);

    const patches = ui.requests.filter((r) => r.method() === "PATCH");
    assert.equal(patches.length, 1);
    assert.deepEqual(patches[0].postDataJSON(), { secretConfig: typed }, "only the changed fields were sent");
    for (const request of ui.requests)
      for (const secret of [typed.secretAccessKey, program.secretAccessKey])
        assert.ok(!request.url().includes(secret), `no Password in ${request.url()}`);

    const after = await client.getConfiguration(account, S3);
    assert.ok((after.lastUpdated ?? 0) > (before.lastUpdated ?? 0), "lastUpdated moved");
    // Shown as a time a reader reads (UTC, to the second), not a Unix number.
    const shown = new Date((after.lastUpdated ?? 0) * 1000).toISOString().slice(0, 19).replace("T", " ");
    assert.match(status, new RegExp(`\\(lastUpdated ${shown} UTC\\)`), status);
    const row = ui.page.locator(`section[data-account="${account}"] tr[data-connector="${S3}"]`);
    assert.ok(((await row.textContent()) ?? "").includes(`${shown} UTC`), "the row shows the readable time");
    assert.deepEqual(
      valuesOf(after),
      { ...valuesOf(before), bucket: typed.bucket },
      "only the Text changed among the values",
    );
    const db = new Database(path.join(dir, "service.db"), { readonly: true });
    try {
      const row = db.prepare("SELECT secret_values FROM added_connectors WHERE account_id = ? AND connector_id = ?");
      const stored = JSON.parse((row.get(account, S3) as { secret_values: string }).secret_values) as Record<
        string,
        string
      >;
      assert.equal(
        stored.secretAccessKey,
        `sha256:${sha256(typed.secretAccessKey)}`,
        "the service holds the new Password",
      );
    } finally {
      db.close();
    }

    const form = configurationForm(ui.page, account, S3);
    assert.equal(await form.locator('[name="secretAccessKey"]').inputValue(), "", "the Password field is emptied");
    assert.equal(
      await form.locator('[name="bucket"]').inputValue(),
      typed.bucket,
      "the page shows the service's value",
    );
    const everything = `${logs.join("")}\n${await ui.page.content()}`;
    for (const secret of [typed.secretAccessKey, program.secretAccessKey])
      assert.ok(!everything.includes(secret), "no Password in the service's log or the page");
  });

  it("an invalid value is refused with the field named, and nothing is saved", async () => {
    const before = await client.getConfiguration(account, S3);
    const status = await saveFields(ui.page, account, S3, { maxFileSizeMb: "99999" });
    assert.match(
      status,
      /400 invalid configuration \(secretConfig\.maxFileSizeMb must be at most 5120\) \[request id \S+\]/,
    );
    assert.equal((await client.getConfiguration(account, S3)).lastUpdated, before.lastUpdated);
  });

  it("a connection made on the page holds Remove back (409) until it is deleted there", async () => {
    const section = ui.page.locator(`section[data-account="${account}"]`);
    const connect = section.locator(`form[data-connect="${account}"]`);
    assert.match(
      await statusAfter(ui.page, () => connect.getByRole("button", { name: "Connect" }).click()),
      /Connect: done/,
    );
    assert.equal(await section.locator("li").count(), 1, "the connection is listed");

    const refused = await statusAfter(ui.page, () => section.locator(`button[data-remove="${S3}"]`).click());
    assert.match(refused, /Remove Amazon S3: DELETE \/_admin\/connectors\/\w+: 409 connector is used in connections/);
    assert.equal(await section.locator(`tr[data-connector="${S3}"]`).count(), 1, "the connector is still there");

    assert.match(await statusAfter(ui.page, () => section.locator("button[data-delete-connection]").click()), /done/);
    assert.match(await statusAfter(ui.page, () => section.locator(`button[data-remove="${S3}"]`).click()), /done/);
    const added = (await collect(client.listAddedConnectors(account))).map((c) => c.connectorId);
    assert.deepEqual(added, [FACEBOOK], "the service removed the connector");
  });
});
