// The acknowledged file: what it accepts, and errors that name the file, the entry, the field
// and what to do. And the verdict (verdict.ts): an acknowledged field beside an open one, an
// expired entry, an unused one, an acknowledged unmanaged connector; nothing written.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isExpired, parseAcknowledged, readAcknowledged } from "./acknowledged";
import { judgeStacks } from "./verdict";
import { exitCodeOf, type StackReport } from "../report";

const STACKS = ["acme-eu", "globex-main"];
const CONFIG = "urn:pulumi:acme-eu::embedded-fleet::embedded:index:ConnectorConfiguration::s3";
const ADDED = "urn:pulumi:acme-eu::embedded-fleet::embedded:index:AddedConnector::s3";
const repair = (s: string) => `pulumi-embedded-connectors fleet up --stacks ${s}`;
const NOW = new Date("2026-12-02T13:00:00Z");

const file = (entries: string) => parseAcknowledged(entries, "acknowledged.yaml", STACKS);
const entry = (field: string, expires = "2026-12-31") =>
  `- stack: acme-eu\n  type: ConnectorConfiguration\n  resource: s3\n  field: ${field}\n  reason: OPS-214 migration\n  expires: ${expires}\n`;

function drifted(properties: string[], extra: Partial<StackReport> = {}): StackReport {
  return {
    stack: "acme-eu",
    status: "drifted",
    durationMs: 1,
    resources: [
      { urn: CONFIG, type: "embedded:index:ConnectorConfiguration", name: "s3", operation: "update", properties },
    ],
    repair: repair("acme-eu"),
    ...extra,
  };
}

describe("fleet drift: the acknowledged file", () => {
  it("reads a file an editor saved with a byte-order mark", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-ack-"));
    await fs.writeFile(path.join(dir, "acknowledged.yaml"), `\uFEFF${entry("fieldDigests.bucket")}`);
    const read = await readAcknowledged(dir, undefined, STACKS);
    assert.equal(read?.entries.length, 1);
    await fs.rm(dir, { recursive: true });
  });

  it("reads entries of fields and of unmanaged connectors", () => {
    const parsed = file(
      `${entry("fieldDigests.bucket")}- stack: globex-main\n  unmanaged: 9f3e2d1c0b4a5968\n  reason: trial\n  expires: 2027-01-31\n`,
    );
    assert.equal(parsed.entries.length, 2);
    assert.deepEqual(
      parsed.entries.map((e) => e.kind),
      ["field", "unmanaged"],
    );
    assert.deepEqual(file("").entries, []);
  });

  const refusals: [string, string, RegExp][] = [
    ["not a list", "stack: acme-eu\n", /acknowledged\.yaml: expected a list of entries/],
    [
      "an unknown stack",
      entry("x").replace("acme-eu", "acme-us"),
      /entry 1 \(stack acme-us\): no stack file Pulumi\.acme-us\.yaml/,
    ],
    [
      "no reason",
      entry("x").replace(/ {2}reason:.*\n/, ""),
      /entry 1 \(stack acme-eu\): "reason" is missing or not text; give why/,
    ],
    ["a date that is no date", entry("x", "next week"), /"expires" must be a date YYYY-MM-DD .*got "next week"/],
    ["a day that does not exist", entry("x", "2026-02-30"), /"expires" must be a date/],
    ["a typo in a key", entry("x").replace("expires:", "expiry:"), /unknown key\(s\) "expiry"/],
    [
      "another type",
      entry("x").replace("ConnectorConfiguration", "Connector"),
      /"type" must be AddedConnector or ConnectorConfiguration/,
    ],
    [
      "no field",
      entry("x").replace(/ {2}field:.*\n/, ""),
      /"field" is missing or not text; give the property as the report names it/,
    ],
    [
      "the same drift twice",
      `${entry("x")}${entry("x")}`,
      /entry 2 \(stack acme-eu\): the same drift as entry 1; keep one of them/,
    ],
    ["a file that is no YAML", "- [unclosed\n", /acknowledged\.yaml does not parse as YAML/],
    [
      "an output that moves with any write",
      entry("lastUpdated"),
      /entry 1 \(stack acme-eu\): "field: lastUpdated" cannot be acknowledged on its own: .*acknowledge those/,
    ],
    [
      "a connector id that reads as a number",
      "- stack: acme-eu\n  unmanaged: 1234567890123456\n  reason: r\n  expires: 2026-12-31\n",
      /entry 1 \(stack acme-eu\): "unmanaged" reads as a number; write it in quotes/,
    ],
    ["the drift text", entry("drift"), /"field: drift" cannot be acknowledged on its own: .*Password written by hand/],
  ];
  for (const [what, text, message] of refusals)
    it(`refuses ${what}, naming the file, the entry and what to do`, () => {
      assert.throws(() => file(text), message);
    });

  it("an entry holds through its last day (UTC) and has expired the day after", () => {
    assert.equal(isExpired({ expires: "2026-12-02" }, NOW), false);
    assert.equal(isExpired({ expires: "2026-12-01" }, NOW), true);
    assert.equal(isExpired({ expires: "2026-12-02" }, new Date("2026-12-03T00:00:00Z")), true);
  });
});

describe("fleet drift: the verdict with acknowledged drift", () => {
  it("every field acknowledged: the stack is acknowledged and the run exits 0", () => {
    const { stacks, unused } = judgeStacks(
      [drifted(["fieldDigests.bucket"])],
      file(entry("fieldDigests.bucket")),
      NOW,
      repair,
    );
    assert.equal(stacks[0].status, "acknowledged");
    assert.deepEqual(stacks[0].resources[0].acknowledged, [
      { field: "fieldDigests.bucket", reason: "OPS-214 migration", expires: "2026-12-31" },
    ]);
    assert.equal(stacks[0].repair, repair("acme-eu"), "the repair still puts it back, when the team wants");
    assert.deepEqual(unused, []);
    assert.equal(exitCodeOf("drift", stacks), 0);
  });

  it("another field of the same resource still exits 2", () => {
    const { stacks } = judgeStacks(
      [drifted(["fieldDigests.bucket", "fieldDigests.region"])],
      file(entry("fieldDigests.bucket")),
      NOW,
      repair,
    );
    assert.equal(stacks[0].status, "drifted");
    assert.deepEqual(
      stacks[0].resources[0].acknowledged?.map((a) => a.field),
      ["fieldDigests.bucket"],
    );
    assert.equal(exitCodeOf("drift", stacks), 2);
  });

  it("`drift` and `lastUpdated` follow the fields that moved them, until the first entry expires", () => {
    const entries = file(entry("fieldDigests.bucket", "2027-01-15") + entry("fieldDigests.region"));
    const moved = ["drift", "fieldDigests.bucket", "fieldDigests.region", "lastUpdated"];
    const { stacks } = judgeStacks([drifted(moved)], entries, NOW, repair);
    assert.equal(stacks[0].status, "acknowledged");
    assert.deepEqual(
      stacks[0].resources[0].acknowledged?.map((a) => [a.field, a.expires]),
      [
        ["fieldDigests.bucket", "2027-01-15"],
        ["fieldDigests.region", "2026-12-31"],
        ["drift", "2026-12-31"],
        ["lastUpdated", "2026-12-31"],
      ],
    );
    assert.equal(exitCodeOf("drift", stacks), 0);
    const one = judgeStacks([drifted(moved)], file(entry("fieldDigests.bucket")), NOW, repair).stacks;
    assert.equal(one[0].status, "drifted", "a field not acknowledged keeps what follows it open");
    assert.deepEqual(
      one[0].resources[0].acknowledged?.map((a) => a.field),
      ["fieldDigests.bucket"],
    );
  });

  it("a Password written by hand (only `drift` and `lastUpdated` moved) is drift, whatever is acknowledged", () => {
    const entries = file(entry("fieldDigests.bucket") + entry("fieldDigests.region"));
    const { stacks } = judgeStacks([drifted(["drift", "lastUpdated"])], entries, NOW, repair);
    assert.equal(stacks[0].status, "drifted");
    assert.equal(stacks[0].resources[0].acknowledged, undefined);
    assert.equal(exitCodeOf("drift", stacks), 2);
  });

  it("an expired entry exits 2 and is named", () => {
    const { stacks } = judgeStacks(
      [drifted(["fieldDigests.bucket"])],
      file(entry("fieldDigests.bucket", "2026-11-30")),
      NOW,
      repair,
    );
    assert.equal(stacks[0].status, "drifted");
    assert.deepEqual(stacks[0].resources[0].expired, [
      { field: "fieldDigests.bucket", reason: "OPS-214 migration", expires: "2026-11-30" },
    ]);
    assert.equal(exitCodeOf("drift", stacks), 2);
  });

  it("an entry of another type or resource does not match (a connector's two resources share a name)", () => {
    const added: StackReport = {
      ...drifted([]),
      resources: [
        {
          urn: ADDED,
          type: "embedded:index:AddedConnector",
          name: "s3",
          operation: "update",
          properties: ["fieldDigests.bucket"],
        },
      ],
    };
    const { stacks, unused } = judgeStacks([added], file(entry("fieldDigests.bucket")), NOW, repair);
    assert.equal(stacks[0].status, "drifted");
    assert.equal(unused.length, 1);
  });

  it("a resource gone out of band is never acknowledged", () => {
    const gone: StackReport = { ...drifted([]), resources: [{ ...drifted([]).resources[0], operation: "delete" }] };
    assert.equal(judgeStacks([gone], file(entry("fieldDigests.bucket")), NOW, repair).stacks[0].status, "drifted");
  });

  it("an entry that matches no drift is listed unused (unless its stack failed)", () => {
    const clean: StackReport = { stack: "acme-eu", status: "clean", durationMs: 1, resources: [] };
    const ack = file(entry("fieldDigests.bucket", "2026-11-30"));
    assert.deepEqual(judgeStacks([clean], ack, NOW, repair).unused, [
      { stack: "acme-eu", what: "ConnectorConfiguration s3 fieldDigests.bucket", expires: "2026-11-30", expired: true },
    ]);
    assert.equal(judgeStacks([clean], ack, NOW, repair).stacks[0].status, "clean");
    const failed: StackReport = { ...clean, status: "failed", error: "boom" };
    assert.deepEqual(judgeStacks([failed], ack, NOW, repair).unused, []);
  });

  it("an unmanaged connector exits 2 unless acknowledged", () => {
    const unmanaged = { accountId: "239a5bbdbe543163", connectorId: "9f3e2d1c0b4a5968", name: "Segment" };
    const clean: StackReport = {
      stack: "acme-eu",
      status: "clean",
      durationMs: 1,
      resources: [],
      unmanaged: [unmanaged],
    };
    const open = judgeStacks([clean], undefined, NOW, repair).stacks;
    assert.equal(open[0].status, "unmanaged");
    assert.equal(open[0].repair, undefined, "fleet up does not remove what no stack manages");
    assert.equal(exitCodeOf("drift", open), 2);
    const ack = file("- stack: acme-eu\n  unmanaged: 9f3e2d1c0b4a5968\n  reason: trial\n  expires: 2026-12-31\n");
    const acked = judgeStacks([clean], ack, NOW, repair).stacks;
    assert.equal(acked[0].status, "acknowledged");
    assert.equal(exitCodeOf("drift", acked), 0);
  });
});
