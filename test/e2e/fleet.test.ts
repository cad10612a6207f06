// Issue 26: `pulumi-embedded-connectors fleet` on examples/fleet under the real engine: many
// sub-accounts of two customers, one stack file each, made by the admin call that creates
// sub-accounts. up; a changed stack file selected by --changed-since; out-of-band changes in
// two sub-accounts reported by `fleet drift` (exit 2) and nowhere else; `fleet up` repairs
// them; refusals inside a 200 quoting the values sent leave no form of a secret in the reports;
// destroy empties every sub-account; no secret in any output or report.
//
// FLEET_E2E_STACKS sets the number of stacks (default 50, split between the two customers: 7 min
// on this 2-CPU machine while other work kept its load average at 5 to 9, about 7 CPU-minutes);
// FLEET_E2E_SEED replays the random secret values and the two stacks changed out of band.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { writeStackFile, type ConnectorSpec } from "../../cli/fleet/new";
import { readProject } from "../../cli/fleet/project";
import type { FleetReport } from "../../cli/fleet/report";
import { assertNoSecret, ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { runCli } from "./fleet-cli";
import { OutOfBandClient, S3, SEGMENT } from "./fixtures";
import { quotedTelltales } from "./canaries";
import { routeKey } from "../../contract/routes";

const execFileAsync = promisify(execFile);
const STACKS = Number(process.env.FLEET_E2E_STACKS ?? 50);
const SEED = process.env.FLEET_E2E_SEED ?? randomBytes(4).toString("hex");

/** A value derived from the seed, unique enough to be searched for in every output. */
const secretOf = (what: string) =>
  `${what}-${SEED}-${Buffer.from(what + SEED)
    .toString("hex")
    .slice(0, 12)}`;

interface Run {
  code: number;
  output: string;
}

function connectors(segmentFromConfig: boolean): Record<string, ConnectorSpec> {
  return {
    s3: {
      name: "Amazon S3",
      supportedType: "Source",
      values: { bucket: "fleet-exports", accessKeyId: "AKIAFLEETEXAMPLE", region: "eu-west-1", fileFormats: ["csv"] },
      secrets: { secretAccessKey: { env: "FLEET_S3_SECRET_ACCESS_KEY" } },
    },
    segment: {
      name: "Segment",
      supportedType: "Source",
      values: { workspace: "fleet", dataCenter: "EU", batchSize: 500 },
      secrets: { apiKey: segmentFromConfig ? { config: "segmentApiKey" } : { env: "FLEET_SEGMENT_API_KEY" } },
    },
  };
}

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
  let engine: Engine;
  let service: LocalService;
  let workDir: string;
  const accountOf = new Map<string, string>();
  const clients = new Map<string, OutOfBandClient>();
  const secrets = [secretOf("acme-client"), secretOf("s3-key"), secretOf("segment-env"), secretOf("segment-config")];
  const outputs: string[] = [];
  let env: NodeJS.ProcessEnv;
  let destroyed = false;

  async function fleet(args: string[]): Promise<Run> {
    const result = await runCli(["fleet", ...args, "--dir", workDir], { env });
    outputs.push(result.output);
    return result;
  }

  /** Reports go beside the program's copy, not in it (a new file there would be a program change). */
  const out = (file: string) => `${workDir}-reports/${file}`;

  async function report(file: string): Promise<FleetReport> {
    const text = await fs.readFile(out(file), "utf8");
    outputs.push(text);
    return JSON.parse(text) as FleetReport;
  }

  async function git(...args: string[]): Promise<void> {
    await execFileAsync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", ...args], { cwd: workDir });
  }

  before(async function () {
    this.timeout(30 * 60_000);
    console.log(`fleet e2e: ${STACKS} stacks, seed ${SEED} (replay with FLEET_E2E_SEED=${SEED})`);
    engine = await ensureEngine();
    service = await startLocalService({ firstCustomer: { clientSecret: secretOf("acme-client") } });
    const customers = { acme: service.customers[0], globex: service.customers[1] };
    secrets.push(customers.globex.clientSecret); // seeded, not random: passed in GLOBEX_CLIENT_SECRET all the same
    const perCustomer = Math.ceil(STACKS / 2);
    workDir = path.join(programsDir, ".work", `fleet-${SEED}-${randomBytes(3).toString("hex")}`);
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    // The stacks take two variables of the run: their customers allow them (customers.json's secretEnv).
    const customersFile = path.join(workDir, "customers.json");
    const allowList = JSON.parse(await fs.readFile(customersFile, "utf8")) as Record<string, { secretEnv?: string[] }>;
    for (const customer of Object.values(allowList)) customer.secretEnv = ["FLEET_*"];
    await fs.writeFile(customersFile, JSON.stringify(allowList, null, 2));
    const project = await readProject(workDir);
    for (const [name, customer] of Object.entries(customers)) {
      // The admin call gives the customer as many sub-accounts as the fleet needs.
      const res = await fetch(`${service.baseUrl}/_admin/sub-accounts`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-admin-key": service.adminKey },
        body: JSON.stringify({ clientId: customer.clientId, count: perCustomer }),
      });
      assert.equal(res.status, 200, "POST /_admin/sub-accounts");
      const ids = ((await res.json()) as { response: { subAccountIds: string[] } }).response.subAccountIds;
      assert.equal(ids.length, Math.max(perCustomer, 3), "the seeded three, or as many as asked");
      clients.set(name, new OutOfBandClient(service.baseUrl, customer.clientId, customer.clientSecret));
      for (let i = 0; i < perCustomer && accountOf.size < STACKS; i++) {
        const stack = `${name}-${String(i + 1).padStart(3, "0")}`;
        accountOf.set(stack, ids[i]);
        await writeStackFile(project, stack, { accountId: ids[i], customer: name, connectors: connectors(i === 0) });
      }
    }
    env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: secretOf("acme-client"),
      GLOBEX_CLIENT_SECRET: customers.globex.clientSecret,
      FLEET_S3_SECRET_ACCESS_KEY: secretOf("s3-key"),
      FLEET_SEGMENT_API_KEY: secretOf("segment-env"),
    };
    // The first stack of each customer takes its Segment key from an encrypted stack secret.
    const workspace = await LocalWorkspace.create({
      workDir,
      pulumiHome: engine.env.PULUMI_HOME,
      pulumiCommand: engine.command,
      envVars: engine.env,
    });
    for (const stack of ["acme-001", "globex-001"]) {
      await workspace.createStack(stack);
      await workspace.setConfig(stack, "segmentApiKey", { value: secretOf("segment-config"), secret: true });
    }
    await fs.mkdir(out(""), { recursive: true });
    await git("init", "-q", "-b", "main");
    await git("add", "-A", ".");
    await git("commit", "-q", "-m", "the fleet");
  });

  after(async function () {
    this.timeout(10 * 60_000);
    if (workDir && process.env.FLEET_E2E_KEEP !== "1") {
      // Best effort: whatever a failed test left behind.
      if (!destroyed) await fleet(["destroy"]).catch(() => undefined);
      await fs.rm(workDir, { recursive: true, force: true });
      await fs.rm(out(""), { recursive: true, force: true });
    }
    await service?.stop();
  });

  it(`fleet up applies every stack (${STACKS}) and fleet drift then finds none`, async () => {
    const up = await fleet(["up", "--json", out("up.json")]);
    assert.equal(up.code, 0, up.output);
    const upReport = await report("up.json");
    assert.equal(upReport.summary.stacks, STACKS);
    assert.equal(upReport.summary.changed, STACKS, up.output);
    for (const [stack, accountId] of accountOf) {
      const customer = stack.split("-")[0];
      assert.deepEqual(
        await clients.get(customer)!.addedIds(accountId),
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
    const file = path.join(workDir, "Pulumi.globex-002.yaml");
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
    const pool = [...accountOf.keys()].filter((s) => s !== "globex-002");
    const first = parseInt(SEED.slice(0, 4), 16) % pool.length;
    const changed = pool[first];
    const removed = pool[(first + 1 + (parseInt(SEED.slice(4, 8), 16) % (pool.length - 1))) % pool.length];
    const customerOf = (s: string) => clients.get(s.split("-")[0])!;
    await customerOf(changed).configure(accountOf.get(changed)!, S3, {
      bucket: "changed-by-hand",
      accessKeyId: "AKIAFLEETEXAMPLE",
      secretAccessKey: "typed-by-hand",
      region: "eu-west-1",
    });
    await customerOf(removed).remove(accountOf.get(removed)!, SEGMENT);

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
    // The changed fields, by name only (issue 34: what `pulumi refresh --preview-only` records):
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
        `pulumi-embedded-connectors fleet up --dir ${path.relative(repoRoot, workDir)} --stacks ${s.stack}`,
      );
    const markdown = await fs.readFile(out("drift.md"), "utf8");
    const junit = await fs.readFile(out("drift.xml"), "utf8");
    outputs.push(markdown, junit);
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
    const project = await readProject(workDir);
    await writeStackFile(project, "zz-broken", {
      accountId: accountOf.get("acme-001")!,
      customer: "acme",
      connectors: connectors(false),
    });
    // Edited by hand to a customer customers.json lacks (`fleet new` refuses to write one).
    const brokenFile = path.join(workDir, "Pulumi.zz-broken.yaml");
    const text = await fs.readFile(brokenFile, "utf8");
    await fs.writeFile(brokenFile, text.replace("embedded-fleet:customer: acme", "embedded-fleet:customer: initech"));
    const run = await fleet(["preview", "--stacks", "acme-002,zz-broken", "--json", out("broken.json")]);
    await fs.rm(path.join(workDir, "Pulumi.zz-broken.yaml"));
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

  it("refusals inside a 200 quoting what was sent (the token request, Configure): both named, no form of a secret in any output or report", async () => {
    // Issue 37, item 2: the hosted service's convention (the status in a 200's body), its text
    // quoting the client secret and the Segment key upper-cased, truncated, base64, … (the local
    // service's quoteBack fault). One stack at a time, so that the first token request of the
    // run (whichever stack's) is the one refused, and the other stack reaches Configure.
    const stacks = ["acme-001", "globex-001"];
    const files = stacks.map((s) => path.join(workDir, `Pulumi.${s}.yaml`));
    const before = await Promise.all(files.map((f) => fs.readFile(f, "utf8")));
    await Promise.all(files.map((f, i) => fs.writeFile(f, before[i].replace("batchSize: 500", "batchSize: 600"))));
    await service.setFaults({
      rules: [
        { route: routeKey("getToken"), mode: "quoteBack", refusalStatus: 401, inBody: true, count: 1 },
        { route: routeKey("configure"), mode: "quoteBack", inBody: true },
      ],
    });
    try {
      const reports = ["refused.json", "refused.md", "refused.xml"].map(out);
      const flags = ["--json", reports[0], "--markdown", reports[1], "--junit", reports[2]];
      const run = await fleet(["up", "--stacks", stacks.join(","), "--concurrency", "1", ...flags]);
      assert.equal(run.code, 1, `exit ${run.code}`);
      const refused = await report("refused.json");
      const [markdown, junit] = await Promise.all(reports.slice(1).map((f) => fs.readFile(f, "utf8")));
      outputs.push(markdown, junit);
      assert.deepEqual(
        refused.stacks.map((s) => [s.stack, s.status]),
        stacks.map((s) => [s, "failed"]),
      );
      const errors = refused.stacks.map((s) => s.error ?? "").join("\n");
      // The routes and statuses only, should it fail: the rest might quote a secret.
      const heads = (errors.match(/[A-Z]+ \/\S+: \d{3}/g) ?? []).join(", ");
      assert.ok(/client-token: 401 Unauthorized: the service's text is left out/.test(errors), heads);
      assert.ok(/configuration: 400 Bad Request: fields [^;]*secretConfig\.apiKey/.test(errors), heads);
      assert.equal((junit.match(/<failure /g) ?? []).length, 2);
      for (const secret of secrets) {
        for (const { form, telltale } of quotedTelltales(secret)) {
          for (const [where, text] of [
            ["the fleet's output", run.output],
            ["the JSON report", JSON.stringify(refused)],
            ["the Markdown report", markdown],
            ["the JUnit report", junit],
          ]) {
            assertNoSecret(text, telltale, `${where} (${form})`);
          }
        }
      }
    } finally {
      await service.setFaults({ rules: [] });
      await Promise.all(files.map((f, i) => fs.writeFile(f, before[i])));
    }
  });

  it("fleet destroy leaves every sub-account empty; no secret in any output, report, stack file or backend file", async () => {
    const destroy = await fleet(["destroy", "--json", out("destroy.json")]);
    assert.equal(destroy.code, 0, destroy.output);
    destroyed = true;
    for (const [stack, accountId] of accountOf) {
      assert.deepEqual(await clients.get(stack.split("-")[0])!.addedIds(accountId), [], `sub-account of ${stack}`);
    }
    const stackFiles = await Promise.all(
      [...accountOf.keys()].map((s) => fs.readFile(path.join(workDir, `Pulumi.${s}.yaml`), "utf8")),
    );
    const { name } = await readProject(workDir);
    const backendFiles = await filesUnder(engine.backendDir, (file) => file.includes(`${path.sep}${name}${path.sep}`));
    assert.ok(backendFiles.length >= STACKS, `the backend holds the fleet's states: ${backendFiles.length} file(s)`);
    assert.equal(secrets.length, 5);
    for (const secret of secrets) {
      outputs.forEach((text, i) => assertNoSecret(text, secret, `fleet output or report #${i}`));
      stackFiles.forEach((text, i) => assertNoSecret(text, secret, `stack file #${i}`));
      backendFiles.forEach(([file, text]) =>
        assertNoSecret(text, secret, `backend file ${path.relative(engine.backendDir, file)}`),
      );
    }
  });
});
