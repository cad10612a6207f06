// `fleet adopt` refuses a sub-account that any stack already manages: one of the fleet's stack
// files names it, or a stack of the backend (of this project or another, its file deleted or
// elsewhere) holds connectors of it. Adopting it under a new stack name, as the refusal used to
// suggest, let removing a connector from either file DELETE a connector the other stack manages.
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Workspace } from "@pulumi/pulumi/automation";
import { adoptRefusal, managedSubAccounts } from "./adopt-managed";
import { readProject } from "./project";

const FILED = "c000000000000001";
const BACKEND_ONLY = "c000000000000002";
const OTHER_PROJECT = "c000000000000003";
const CLOUD = "c000000000000004";
const FREE = "c000000000000009";

function checkpoint(accountId: string): string {
  const resource = (type: string) => ({
    urn: `urn:x::${type}::k`,
    type,
    inputs: { accountId },
    outputs: { accountId },
  });
  return JSON.stringify({
    version: 3,
    checkpoint: {
      latest: {
        resources: [
          { urn: "urn:x::pulumi:pulumi:Stack::s", type: "pulumi:pulumi:Stack" },
          resource("embedded:index:AddedConnector"),
          resource("embedded:index:ConnectorConfiguration"),
        ],
      },
    },
  });
}

describe("fleet adopt: which stacks already manage a sub-account", () => {
  let root: string;
  let dir: string;
  const saved = process.env.PULUMI_BACKEND_URL;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "adopt-managed-"));
    dir = path.join(root, "program");
    const state = path.join(root, "state");
    mkdirSync(dir);
    mkdirSync(path.join(state, ".pulumi", "stacks", "embedded-fleet"), { recursive: true });
    mkdirSync(path.join(state, ".pulumi", "stacks", "billing"), { recursive: true });
    writeFileSync(path.join(state, ".pulumi", "meta.yaml"), "version: 1\n");
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: embedded-fleet\nruntime: nodejs\n");
    writeFileSync(
      path.join(dir, "Pulumi.acme-eu.yaml"),
      `config:\n  embedded-fleet:accountId: ${FILED}\n  embedded-fleet:connectors: {}\n`,
    );
    const stacks = path.join(state, ".pulumi", "stacks");
    writeFileSync(path.join(stacks, "embedded-fleet", "acme-eu.json"), checkpoint(FILED));
    writeFileSync(path.join(stacks, "embedded-fleet", "old-name.json"), checkpoint(BACKEND_ONLY)); // its file deleted
    writeFileSync(path.join(stacks, "billing", "prod.json"), checkpoint(OTHER_PROJECT));
    process.env.PULUMI_BACKEND_URL = `file://${state}`;
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    if (saved === undefined) delete process.env.PULUMI_BACKEND_URL;
    else process.env.PULUMI_BACKEND_URL = saved;
  });

  /** The engine's listing of every project's stacks; `cloud` a stack whose checkpoint only the engine exports. */
  const workspace = {
    listStacks: async (opts?: { all?: boolean }) => {
      assert.equal(opts?.all, true, "every project's stacks are listed");
      return [
        "organization/embedded-fleet/acme-eu",
        "organization/embedded-fleet/old-name",
        "organization/billing/prod",
        "organization/billing/cloud",
      ].map((name) => ({ name, current: false, resourceCount: 3 }));
    },
    exportStack: async (name: string) => {
      assert.equal(name, "organization/billing/cloud", "only what the store does not hold is exported");
      return { version: 3, deployment: JSON.parse(checkpoint(CLOUD)).checkpoint.latest };
    },
  } as unknown as Workspace;

  it("finds the managers in the stack files and in every project's checkpoints", async () => {
    const project = await readProject(dir);
    const managers = await managedSubAccounts(project, workspace);
    const shown = Object.fromEntries(
      [...managers].map(([id, ms]) => [id, ms.map((m) => `${m.project}/${m.stack} ${m.where}`).sort()]),
    );
    assert.deepEqual(shown, {
      [FILED]: ["embedded-fleet/acme-eu backend", "embedded-fleet/acme-eu stack file"],
      [BACKEND_ONLY]: ["embedded-fleet/old-name backend"],
      [OTHER_PROJECT]: ["billing/prod backend"],
      [CLOUD]: ["billing/cloud backend"],
    });
  });

  it("refuses to adopt when a stack of the backend cannot be read, or its stacks cannot be listed", async () => {
    const project = await readProject(dir);
    const denied = {
      ...workspace,
      exportStack: async () => {
        throw new Error("error: [403] Forbidden\n    at a stack trace");
      },
    } as unknown as Workspace;
    await assert.rejects(
      managedSubAccounts(project, denied),
      (e: Error) =>
        /could not read the checkpoint of stack organization\/billing\/cloud \(error: \[403\] Forbidden\)/.test(
          e.message,
        ) &&
        /nothing was adopted/.test(e.message) &&
        !e.message.includes("stack trace"),
    );
    const unlisted = {
      ...workspace,
      listStacks: async () => {
        throw new Error("error: could not reach the backend");
      },
    } as unknown as Workspace;
    await assert.rejects(managedSubAccounts(project, unlisted), /could not list the backend's stacks of every project/);
  });

  it("refuses a managed sub-account under a new stack name, naming the stack and what to do", async () => {
    const project = await readProject(dir);
    const managers = await managedSubAccounts(project, workspace);
    const none = { file: false, backend: false };
    const filed = adoptRefusal(project, { accountId: FILED, stack: "acme-eu-2" }, managers, none, false);
    assert.match(
      filed ?? "",
      /^sub-account c000000000000001 is managed already by stack acme-eu \(Pulumi\.acme-eu\.yaml\)/,
    );
    assert.match(filed ?? "", /Manage its connectors in Pulumi\.acme-eu\.yaml/);
    assert.doesNotMatch(filed ?? "", /give the sub-account another stack name/);
    for (const resume of [false, true]) {
      const gone = adoptRefusal(project, { accountId: BACKEND_ONLY, stack: "new" }, managers, none, resume);
      assert.match(gone ?? "", /managed already by stack old-name \(its checkpoint in the backend\)/);
    }
    const other = adoptRefusal(project, { accountId: OTHER_PROJECT, stack: "x" }, managers, none, false);
    assert.match(other ?? "", /managed already by stack billing\/prod/);
    assert.match(
      adoptRefusal(project, { accountId: CLOUD, stack: "y" }, managers, none, false) ?? "",
      /billing\/cloud/,
    );
    // A free sub-account under a name another sub-account's stack holds: another name, not --resume.
    const taken = adoptRefusal(
      project,
      { accountId: FREE, stack: "acme-eu" },
      managers,
      { file: true, backend: true },
      true,
    );
    assert.match(taken ?? "", /the stack name acme-eu is taken: stack acme-eu manages sub-account c000000000000001/);
    // Its own stack, rerun: --resume finishes it; with --resume nothing is refused.
    const own = { file: true, backend: true };
    assert.match(
      adoptRefusal(project, { accountId: FILED, stack: "acme-eu" }, managers, own, false) ?? "",
      /exists already \(Pulumi\.acme-eu\.yaml\): pass --resume to finish an adoption this command started$/,
    );
    assert.equal(adoptRefusal(project, { accountId: FILED, stack: "acme-eu" }, managers, own, true), undefined);
    assert.equal(adoptRefusal(project, { accountId: FREE, stack: "fresh" }, managers, none, false), undefined);
  });
});
