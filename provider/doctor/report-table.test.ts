// Doctor's report ends with a table of every route it read (route, operation,
// status, time, verdict, what was seen), aligned for the terminal, right before the result line;
// it names where the answer's parts are and the keys to change, never a value (no id, no secret).
import assert from "node:assert/strict";
import path from "node:path";
import { doctor } from "./command";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { CATALOGUE } from "../../service/seed/catalogue";

const PROFILE = path.resolve(__dirname, "../../../profiles/documented-conventions.yaml");
const HEADER = ["ROUTE", "OPERATION", "STATUS", "TIME", "VERDICT", "SEEN"];

/** The table's lines: from its header to the line before the result. */
function tableOf(text: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^ROUTE +OPERATION +STATUS +TIME +VERDICT +SEEN$/.test(l));
  assert.ok(start > 0, `a table header in:\n${text}`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("result: "));
  assert.equal(end, lines.length - 2, "the result line follows the table and ends the report");
  return lines.slice(start, end);
}

/** Each cell's first column in a line, by the header's columns. */
function cells(header: string, line: string): string[] {
  const starts = HEADER.map((h) => header.indexOf(h));
  return starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim());
}

describe("doctor: the report's table", function () {
  this.timeout(60_000);
  let service: LocalService;
  let secret: string;
  let account: string;
  before(async () => {
    service = await startLocalService({ profile: PROFILE });
    secret = service.customers[0].clientSecret;
    account = service.customers[0].subAccountIds[0];
  });
  after(() => service.stop());

  async function run(profile?: string): Promise<{ code: number; text: string }> {
    let text = "";
    const { clientId } = service.customers[0];
    const flags = { baseUrl: service.baseUrl, clientId, clientSecret: secret, accountId: account };
    const code = await doctor({ ...flags, stack: false, pulumi: "pulumi", profile }, (t) => (text += t));
    return { code, text };
  }

  it("with the right profile: one aligned row per route read, each 'reads', the parts seen", async () => {
    const { code, text } = await run(PROFILE);
    assert.equal(code, 0, text);
    const [header, ...rows] = tableOf(text);
    const operations = ["getToken", "listConnectors", "getConnector", "listAddedConnectors", "listSupportedConnectors"];
    assert.deepEqual(
      rows.map((r) => cells(header, r)[1]),
      operations,
      "the routes in the order doctor read them",
    );
    for (const row of rows) {
      const [route, , status, time, verdict] = cells(header, row);
      assert.match(route, /^(GET|POST) \/es\/v2\/\S+$/, row);
      assert.match(status, /^\d{3}( in \d{3})?$/, row);
      assert.match(time, /^\d+ ms$/, row);
      assert.equal(verdict, "reads", row);
    }
    const list = cells(header, rows[1] as string);
    assert.equal(
      list[5],
      "envelope statusCode/statusMessage/response; items bare array, total none, next none; paging size/offset",
    );
  });

  it("with the built-in profile: the rows it does not read say 'keys to change' and name them; no value", async () => {
    const { code, text } = await run();
    assert.equal(code, 1, text);
    const [header, ...rows] = tableOf(text);
    const list = cells(header, rows.find((r) => cells(header, r)[1] === "listConnectors") as string);
    assert.equal(list[4], "keys to change");
    assert.match(list[5], /change list\.total, paging$/);
    const table = [header, ...rows].join("\n");
    for (const value of [
      secret,
      account,
      ...service.customers[0].subAccountIds,
      ...CATALOGUE.map((c) => c.connectorId),
    ]) {
      assert.ok(!table.includes(value), "a value in the table");
    }
  });
});
