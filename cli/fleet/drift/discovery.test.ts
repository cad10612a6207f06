// Discovery: connectors listed in a sub-account that no stack's state holds (two stacks of one
// sub-account counted together), a sub-account not judged when one of its stacks was not
// checked from its checkpoint, a failed listing said, and the accounts and customers files'
// entries that have no stack.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { discover, readStackFiles } from "./discovery";
import { readProject } from "../project";
import type { StackReport } from "../report";

const A = "239a5bbdbe543163";
const B = "4b1f0c2e9d8a7f60";
const C = "7c2e4a9b0f1d3e58";

async function fleetDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "discovery-"));
  await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: embedded-fleet\nruntime: nodejs\n");
  const stack = (name: string, account: string, customer: string) =>
    fs.writeFile(
      path.join(dir, `Pulumi.${name}.yaml`),
      `config:\n  embedded-fleet:accountId: "${account}"\n  embedded-fleet:customer: ${customer}\n`,
    );
  await stack("acme-eu", A, "acme");
  await stack("acme-eu-2", A, "acme");
  await stack("globex-main", B, "globex");
  await fs.writeFile(path.join(dir, "customers.json"), JSON.stringify({ acme: {}, globex: {}, initech: {} }));
  await fs.writeFile(
    path.join(dir, "accounts.csv"),
    `accountId,customer,stack\n${A},acme,acme-eu\n${C},globex,globex-new\n`,
  );
  return dir;
}

const clean = (stack: string, extra: Partial<StackReport> = {}): StackReport => ({
  stack,
  status: "clean",
  durationMs: 1,
  resources: [],
  checkedBy: "checkpoint",
  ...extra,
});
const listed = (...ids: string[]) => ids.map((connectorId) => ({ connectorId, name: `name-${connectorId}` }));

describe("fleet drift: discovery", () => {
  let dir: string;
  before(async () => {
    dir = await fleetDir();
  });
  after(async () => fs.rm(dir, { recursive: true, force: true }));

  it("a connector no stack holds is unmanaged; the other stack of the sub-account counts", async () => {
    const project = await readProject(dir);
    const { stacks, section } = await discover([clean("acme-eu"), clean("acme-eu-2"), clean("globex-main")], {
      project,
      stackFiles: await readStackFiles(project),
      accountsFile: path.join(dir, "accounts.csv"),
      listings: new Map([
        ["acme-eu", [{ accountId: A, listed: listed("c1", "c2", "c3"), managed: ["c1"] }]],
        ["acme-eu-2", [{ accountId: A, listed: listed("c1", "c2", "c3"), managed: ["c2"] }]],
        ["globex-main", [{ accountId: B, error: "the list's total changed between pages", managed: ["c9"] }]],
      ]),
    });
    assert.deepEqual(stacks[0].unmanaged, [{ accountId: A, connectorId: "c3", name: "name-c3" }]);
    assert.equal(stacks[0].customer, "acme");
    assert.deepEqual(stacks[2].unmanaged, []);
    assert.match(
      stacks[2].discoveryNotRun ?? "",
      /sub-account 4b1f0c2e9d8a7f60: its listing failed: the list's total changed/,
    );
    assert.deepEqual(section, {
      enabled: true,
      subAccountsWithoutStack: [{ accountId: C, customer: "globex", stack: "globex-new" }],
      customersWithoutStack: ["initech"],
    });
  });

  it("a sub-account is not judged while one of its stacks was not checked from its checkpoint", async () => {
    const project = await readProject(dir);
    const { stacks } = await discover([clean("acme-eu"), clean("acme-eu-2", { checkedBy: "engine" })], {
      project,
      stackFiles: await readStackFiles(project),
      listings: new Map([["acme-eu", [{ accountId: A, listed: listed("c1", "c2"), managed: ["c1"] }]]]),
    });
    assert.deepEqual(stacks[0].unmanaged, []);
    assert.match(stacks[0].discoveryNotRun ?? "", /also acme-eu-2's, not checked from its checkpoint/);
    assert.match(stacks[1].discoveryNotRun ?? "", /checked by the engine/);
  });
});
