// `pulumi-embedded-connectors fleet` on examples/fleet under the real engine: many
// sub-accounts of two customers, one stack file each (fleet-fixture.ts, shared with
// fleet-in-200.test.ts). up; a changed stack file selected by --changed-since; out-of-band
// changes in two sub-accounts reported by `fleet drift` (exit 2) and nowhere else; `fleet up`
// repairs them; destroy empties every sub-account; no secret in any output or report (refusals
// inside a 200 quoting the values sent: fleet-in-200.test.ts).
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { writeStackFile } from "../../cli/fleet/new";
import { readProject } from "../../cli/fleet/project";
import { assertNoSecret, repoRoot } from "./harness";
import { S3, SEGMENT } from "./fixtures";
import { connectors, fleetFixture, SEED, STACKS } from "./fleet-fixture";

/** The files below `dir` whose path passes `keep`, with their text. */
async function filesUnder(dir: string, keep: (file: string) => boolean): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(file)) found.push([file, await fs.readFile(file, "utf8")]);
  }
  return found;
}

describe("e2e: fleet (examples/fleet, one stack per sub-account)", function () {
  this.timeout(20 * 60_000);
  const f = fleetFixture.use();
  const fleet = (args: string[]) => f.fleet(args);
  const out = (file: string) => f.out(file);
  const report = (file: string) => f.report(file);
  const git = (...args: string[]) => f.git(...args);

  it(`fleet up applies every stack (${STACKS}) and fleet drift then finds none`, async () => {
    const up = await f.ensureUp();
    assert.equal(up.code, 0, up.output);
    const upReport = await report("up.json");
    assert.equal(upReport.summary.stacks, STACKS);
    assert.equal(upReport.summary.changed, STACKS, up.output);
    for (const [stack, accountId] of f.accountOf) {
      const customer = stack.split("-")[0];
      assert.deepEqual(
        await f.clients.get(customer)!.addedIds(accountId),
        [S3, SEGMENT].sort(),
        `sub-account of ${stack}`,
      );
    }
    const drift = await fleet(["drift", "--json", out("drift-clean.json")]);
    assert.equal(drift.code, 0, drift.output);
    assert.equal((await report("drift-clean.json")).summary.clean, STACKS);
    // The first run created the stacks, which wrote each file's encryptionsalt: commit them,
    // as a user commits the files after creating the stacks.
    await git("commit", "-q", "-am", "encryption salts");
  });

  it("--changed-since selects exactly the stack whose file changed", async () => {
    const file = path.join(f.workDir, "Pulumi.globex-002.yaml");
    await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace("batchSize: 500", "batchSize: 750"));
    await git("commit", "-q", "-am", "globex-002: a bigger batch");
    const preview = await fleet(["preview", "--changed-since", "HEAD~1", "--json", out("preview.json")]);
    assert.equal(preview.code, 0, preview.output);
    const previewReport = await report("preview.json");
    assert.deepEqual(
      previewReport.stacks.map((s) => [s.stack, s.status]),
      [["globex-002", "changed"]],
    );
    assert.deepEqual(
      previewReport.stacks[0].resources.map((r) => [r.type, r.name, r.operation]),
      [["embedded:index:ConnectorConfiguration", "segment", "update"]],
    );
    const up = await fleet(["up", "--changed-since", "HEAD~1", "--json", out("up-changed.json")]);
    assert.equal(up.code, 0, up.output);
    assert.deepEqual(
      (await report("up-changed.json")).stacks.map((s) => s.stack),
      ["globex-002"],
    );
  });

  it("fleet drift exits 2 and names exactly the two sub-accounts changed out of band; fleet up repairs them", async () => {
    // Two different stacks, chosen by the seed.
    const pool = [...f.accountOf.keys()].filter((s) => s !== "globex-002");
    const first = parseInt(SEED.slice(0, 4), 16) % pool.length;
    const changed = pool[first];
    const removed = pool[(first + 1 + (parseInt(SEED.slice(4, 8), 16) % (pool.length - 1))) % pool.length];
    const customerOf = (s: string) => f.clients.get(s.split("-")[0])!;
    await customerOf(changed).configure(f.accountOf.get(changed)!, S3, {
      bucket: "changed-by-hand",
      accessKeyId: "AKIAFLEETEXAMPLE",
      secretAccessKey: "typed-by-hand",
      region: "eu-west-1",
    });
    await customerOf(removed).remove(f.accountOf.get(removed)!, SEGMENT);

    const drift = await fleet([
      "drift",
      "--json",
      out("drift.json"),
      "--markdown",
      out("drift.md"),
      "--junit",
      out("drift.xml"),
    ]);
    assert.equal(drift.code, 2, drift.output);
    const driftReport = await report("drift.json");
    const drifted = driftReport.stacks.filter((s) => s.status !== "clean");
    assert.deepEqual(
      drifted.map((s) => [s.stack, s.status]),
      [changed, removed].sort().map((s) => [s, "drifted"]),
    );
    const byStack = new Map(drifted.map((s) => [s.stack, s]));
    // The changed fields, by name only:
    // the outputs that differ, the bucket typed by hand by its digest.
    const changedResources = byStack.get(changed)!.resources;
    assert.deepEqual(
      changedResources.map((r) => [r.type, r.name, r.operation]),
      [["embedded:index:ConnectorConfiguration", "s3", "update"]],
    );
    for (const p of changedResources[0].properties) assert.match(p, /^(fieldDigests\.[A-Za-z]+|drift|lastUpdated)$/);
    assert.ok(
      changedResources[0].properties.includes("fieldDigests.bucket"),
      changedResources[0].properties.join(", "),
    );
    // The removed connector: gone from the sub-account, so the refresh would drop it from the state.
    assert.deepEqual(
      byStack.get(removed)!.resources.map((r) => [r.type, r.name, r.operation]),
      [
        ["embedded:index:AddedConnector", "segment", "delete"],
        ["embedded:index:ConnectorConfiguration", "segment", "delete"],
      ],
    );
    for (const s of drifted)
      assert.equal(
        s.repair,
        `npx pulumi-embedded-connectors fleet up --dir ${path.relative(repoRoot, f.workDir)} --stacks ${s.stack}`,
      );
    const markdown = await fs.readFile(out("drift.md"), "utf8");
    const junit = await fs.readFile(out("drift.xml"), "utf8");
    f.outputs.push(markdown, junit);
    for (const s of drifted)
      assert.ok(markdown.includes(`| ${s.stack} |`) && junit.includes(`name="${s.stack}"`), s.stack);
    assert.equal((junit.match(/<failure /g) ?? []).length, 2);
    assert.ok(
      !markdown.includes("changed-by-hand") && !JSON.stringify(driftReport).includes("changed-by-hand"),
      "a value in the report",
    );

    const repair = await fleet(["up", "--json", out("repair.json")]);
    assert.equal(repair.code, 0, repair.output);
    assert.deepEqual(
      (await report("repair.json")).stacks.filter((s) => s.status !== "clean").map((s) => s.stack),
      [changed, removed].sort(),
    );
    const again = await fleet(["drift", "--json", out("drift-after.json")]);
    assert.equal(again.code, 0, again.output);
    assert.equal((await report("drift-after.json")).summary.clean, STACKS);
    // The same program run by the Node.js language host (as `pulumi up` and the operator run
    // it) declares the same resources: nothing to change there either.
    const perStack = await fleet([
      "preview",
      "--no-inline",
      "--stacks",
      `${changed},${removed}`,
      "--json",
      out("drift-language-host.json"),
    ]);
    assert.equal(perStack.code, 0, perStack.output);
    assert.match(perStack.output, /program run per stack \(--no-inline\)/);
    assert.equal((await report("drift-language-host.json")).summary.clean, 2);
  });

  it("one failing stack does not stop the others: exit 1, the failure named", async () => {
    const project = await readProject(f.workDir);
    await writeStackFile(project, "zz-broken", {
      accountId: f.accountOf.get("acme-001")!,
      customer: "acme",
      connectors: connectors(false),
    });
    // Edited by hand to a customer customers.json lacks (`fleet new` refuses to write one).
    const brokenFile = path.join(f.workDir, "Pulumi.zz-broken.yaml");
    const text = await fs.readFile(brokenFile, "utf8");
    await fs.writeFile(brokenFile, text.replace("embedded-fleet:customer: acme", "embedded-fleet:customer: initech"));
    const run = await fleet(["preview", "--stacks", "acme-002,zz-broken", "--json", out("broken.json")]);
    await fs.rm(path.join(f.workDir, "Pulumi.zz-broken.yaml"));
    assert.equal(run.code, 1, run.output);
    const failed = await report("broken.json");
    assert.deepEqual(
      failed.stacks.map((s) => [s.stack, s.status]),
      [
        ["acme-002", "clean"],
        ["zz-broken", "failed"],
      ],
    );
    assert.match(failed.stacks[1].error ?? "", /customer "initech" is not in customers\.json/);
  });

  it("a customer's provider renamed: fleet preview reports the stack changed, the provider's steps labelled in every report", async () => {
    const up = await f.ensureUp(); // run by the first test; here too so that --grep can pick this one
    assert.equal(up.code, 0, up.output);
    // `acme` renamed `acme-eu` in customers.json, with the same settings, for stack acme-002.
    const customersFile = path.join(f.workDir, "customers.json");
    const stackFile = path.join(f.workDir, "Pulumi.acme-002.yaml");
    const [customers, stack] = await Promise.all([customersFile, stackFile].map((file) => fs.readFile(file, "utf8")));
    const renamed = JSON.parse(customers) as Record<string, unknown>;
    renamed["acme-eu"] = renamed.acme;
    await fs.writeFile(customersFile, JSON.stringify(renamed, null, 2));
    assert.ok(stack.includes("embedded-fleet:customer: acme\n"), stack);
    await fs.writeFile(
      stackFile,
      stack.replace("embedded-fleet:customer: acme\n", "embedded-fleet:customer: acme-eu\n"),
    );
    try {
      const reports = ["rename.json", "rename.md", "rename.xml"].map(out);
      const flags = ["--json", reports[0], "--markdown", reports[1], "--junit", reports[2]];
      const run = await fleet(["preview", "--stacks", "acme-002", ...flags]);
      assert.equal(run.code, 0, run.output);
      const renameReport = await report("rename.json");
      assert.deepEqual(
        renameReport.stacks.map((s) => [s.stack, s.status]),
        [["acme-002", "changed"]],
        "not clean",
      );
      const [providerSteps, others] = [true, false].map((provider) =>
        renameReport.stacks[0].resources.filter((r) => (r.providerStep === true) === provider),
      );
      assert.deepEqual(others, [], "the connectors and configurations under the provider stay the same");
      assert.deepEqual(
        providerSteps.map((r) => [r.type, r.name, r.operation]),
        [
          ["pulumi:providers:embedded", "acme", "delete"],
          ["pulumi:providers:embedded", "acme-eu", "create"],
        ],
        JSON.stringify(renameReport.stacks[0].resources),
      );
      const [markdown, junit] = await Promise.all(reports.slice(1).map((file) => fs.readFile(file, "utf8")));
      f.outputs.push(markdown, junit);
      for (const [where, text] of [
        ["the terminal", run.output],
        ["the Markdown report", markdown],
      ])
        assert.match(text, /acme-eu \(provider\)/, where);
      assert.match(junit, /<system-out>[^<]*::acme-eu \(provider\)/, junit);
    } finally {
      await Promise.all([fs.writeFile(customersFile, customers), fs.writeFile(stackFile, stack)]);
    }
  });

  it("fleet destroy leaves every sub-account empty; no secret in any output, report, stack file or backend file", async () => {
    const destroy = await fleet(["destroy", "--json", out("destroy.json")]);
    assert.equal(destroy.code, 0, destroy.output);
    f.destroyed = true;
    for (const [stack, accountId] of f.accountOf) {
      assert.deepEqual(await f.clients.get(stack.split("-")[0])!.addedIds(accountId), [], `sub-account of ${stack}`);
    }
    const stackFiles = await Promise.all(
      [...f.accountOf.keys()].map((s) => fs.readFile(path.join(f.workDir, `Pulumi.${s}.yaml`), "utf8")),
    );
    const { name } = await readProject(f.workDir);
    const backendFiles = await filesUnder(f.engine.backendDir, (file) =>
      file.includes(`${path.sep}${name}${path.sep}`),
    );
    assert.ok(backendFiles.length >= STACKS, `the backend holds the fleet's states: ${backendFiles.length} file(s)`);
    assert.equal(f.secrets.length, 5);
    for (const secret of f.secrets) {
      f.outputs.forEach((text, i) => assertNoSecret(text, secret, `fleet output or report #${i}`));
      stackFiles.forEach((text, i) => assertNoSecret(text, secret, `stack file #${i}`));
      backendFiles.forEach(([file, text]) =>
        assertNoSecret(text, secret, `backend file ${path.relative(f.engine.backendDir, file)}`),
      );
    }
  });
});
