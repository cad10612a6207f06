// The estate at a glance (`fleet drift --html`) in a real browser (headless Chromium,
// test/support/browser.ts): one table per customer, a row per stack with its status, what
// differs, how long it has stood and its repair command as printed; the page is self-contained
// (it makes no request but its own file) and a name holding markup is shown as text.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { renderEstateHtml } from "../../../../../cli/fleet/drift/estate";
import { buildReport, type StackReport } from "../../../../../cli/fleet/report";
import { noBrowser, openUi } from "../../../../support/browser";

const URN = (stack: string) => `urn:pulumi:${stack}::embedded-fleet::embedded:index:ConnectorConfiguration::s3`;
const change = (stack: string, extra: object = {}) => ({
  urn: URN(stack),
  type: "embedded:index:ConnectorConfiguration",
  name: "s3",
  operation: "update",
  properties: ["fieldDigests.bucket", "lastUpdated"],
  ...extra,
});
const repair = (stack: string) => `npx pulumi-embedded-connectors fleet up --stacks ${stack}`;

describe("fleet drift --html: the estate in Chromium", function () {
  this.timeout(60_000);
  const dir = mkdtempSync(path.join(tmpdir(), "estate-html-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("one table per customer, a row per stack, standing time and repair as printed; no request but the page", async function () {
    const why = noBrowser();
    if (why) this.skip();
    const stacks: StackReport[] = [
      {
        stack: "acme-eu",
        customer: "acme",
        status: "drifted",
        durationMs: 1,
        resources: [change("acme-eu", { since: "2026-11-29T02:00:00.000Z" })],
        repair: repair("acme-eu"),
      },
      { stack: "acme-us", customer: "acme", status: "clean", durationMs: 1, resources: [] },
      {
        stack: "globex-main",
        customer: "globex",
        status: "acknowledged",
        durationMs: 1,
        resources: [
          change("globex-main", {
            acknowledged: [
              { field: "fieldDigests.bucket", reason: "r", expires: "2026-12-31" },
              { field: "lastUpdated", reason: "r", expires: "2026-12-31" },
            ],
          }),
        ],
        repair: repair("globex-main"),
      },
      {
        stack: "globex-eu",
        customer: "<script>alert(1)</script>",
        status: "unmanaged",
        durationMs: 1,
        resources: [],
        unmanaged: [{ accountId: "a", connectorId: "c", name: "Segment" }],
      },
      {
        stack: "globex-us",
        customer: "globex",
        status: "failed",
        durationMs: 1,
        resources: [],
        error: "reading connector x failed: HTTP 503",
      },
    ];
    const report = buildReport("drift", "embedded-fleet", "every stack", new Date("2026-12-02T02:00:00Z"), stacks, {
      unusedAcknowledgements: [],
      discovery: {
        enabled: true,
        subAccountsWithoutStack: [{ accountId: "0a1b2c3d4e5f6071", customer: "acme", stack: "acme-new" }],
        customersWithoutStack: [],
      },
      history: { kept: true, where: "h.json" },
      events: [],
    });
    const file = path.join(dir, "estate.html");
    writeFileSync(file, renderEstateHtml(report));
    const ui = await openUi(pathToFileURL(file).href);
    try {
      const { page } = ui;
      const customers = await page
        .locator("table[data-customer]")
        .evaluateAll((ts) => ts.map((t) => t.getAttribute("data-customer")));
      assert.deepEqual(customers, ["<script>alert(1)</script>", "acme", "globex"]);
      const rows = await page
        .locator("tr[data-stack]")
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
      assert.deepEqual(
        rows.map((r) => [r[0], r[1]]),
        [
          ["globex-eu", "unmanaged"],
          ["acme-eu", "drifted"],
          ["acme-us", "clean"],
          ["globex-main", "acknowledged"],
          ["globex-us", "failed"],
        ],
      );
      const eu = rows[1];
      assert.equal(eu[2], "1 resource(s) differ");
      assert.equal(eu[3], "3 d 0 h", "how long the drift has stood");
      assert.equal(eu[4], repair("acme-eu"), "the repair command as printed");
      assert.match(rows[3][2], /2 field\(s\) acknowledged/);
      assert.match(rows[0][2], /1 unmanaged connector/);
      assert.match(rows[4][2], /HTTP 503/);
      assert.equal(await page.locator("script").count(), 0, "a name holding markup is text");
      assert.match((await page.locator("#without-stack").textContent()) ?? "", /0a1b2c3d4e5f6071 \(acme\)/);
      assert.match(
        (await page.locator("#summary").textContent()) ?? "",
        /5 stack\(s\): 1 clean, 1 drifted, 1 acknowledged, 1 unmanaged, 1 failed/,
      );
      assert.deepEqual(
        ui.requests.map((r) => r.url()),
        [pathToFileURL(file).href],
        "self-contained: nothing fetched but the page",
      );
    } finally {
      await ui.close();
    }
  });
});
