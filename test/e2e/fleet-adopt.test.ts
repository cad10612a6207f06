// `fleet adopt` of existing sub-accounts their customers configured (their own
// Passwords typed in through the service's API), on examples/fleet under the real engine. The
// section "Adopting existing sub-accounts" of docs/fleets.md (its accounts file and its command)
// is run as written. Every request the service receives during an adoption is a token request or
// a read, and every configuration's lastUpdated is unchanged; the stacks then show no change and
// no drift; a rerun refuses the stacks that exist, and `--resume` skips what is done. No
// customer's Password appears in any output, stack file or state. The service answers as many
// consoles do (consolePasswords: the Password type spelled `password`, a set one `********`): no
// stack file holds the mask, each Password is counted as left to the service, and a `fleet up` that
// changes only a Text field never sends the mask over the customer's Password.
//
// A sub-account a stack already manages is refused under a new stack name, by its stack file or,
// the file gone, by its checkpoint in the backend (two adopt runs, refused before any engine run
// but the listing of the stacks).
//
// Three sub-accounts of two customers, and a fourth adopted with --secrets: about two minutes on this
// 2-CPU machine under load (engine runs per stack: the import and the preview, the rerun's preview; the fourth: its fleet up and preview).
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { startLocalService, type LocalService, type Stats } from "../../harness/local-service";
import { routeKey } from "../../contract/routes";
import type { AdoptReport } from "../../cli/fleet/adopt";
import { assertNoSecret, ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { runCli, type CliRun } from "./fleet-cli";
import { apiKeyFields, MIXPANEL, OutOfBandClient, S3, SEGMENT, storageFields } from "./fixtures";

interface StateResource {
  type: string;
}

const SEED = process.env.FLEET_E2E_SEED ?? randomBytes(4).toString("hex");
const DOC = path.join(repoRoot, "docs", "fleets.md");
const MASK = "********";

/** The accounts file and the command of the doc's section, as written. */
async function docSection(): Promise<{ csv: string; command: string }> {
  const text = await fs.readFile(DOC, "utf8");
  const start = text.indexOf("\n## Adopting existing sub-accounts\n");
  assert.ok(start >= 0, "docs/fleets.md has the section");
  const body = text.slice(start + 1).split(/\n## /)[0];
  const csv = /```csv\n([\s\S]*?)```/.exec(body)?.[1];
  const command = /```sh\n([\s\S]*?)```/.exec(body)?.[1]?.trim();
  assert.ok(csv && command, "the section shows an accounts file and a command");
  return { csv, command };
}

/** Route → requests received between two snapshots of the service's counts. */
function requestsBetween(before: Stats, after: Stats): Map<string, number> {
  const total = (s: Stats, route: string) => Object.values(s.byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
  const received = new Map<string, number>();
  for (const route of Object.keys(after.byRoute)) {
    const n = total(after, route) - total(before, route);
    if (n > 0) received.set(route, n);
  }
  return received;
}

describe("e2e: fleet adopt (existing sub-accounts configured by their customers)", function () {
  this.timeout(15 * 60_000);
  let engine: Engine;
  let service: LocalService;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  let doc: { csv: string; command: string };
  const accounts: { accountId: string; client: OutOfBandClient }[] = [];
  const passwords: string[] = [];
  const outputs: string[] = [];
  const lastUpdated = new Map<string, number>();
  let stacks: string[] = [];

  /** The doc's command as written, in the program's directory. */
  async function adopt(extra: string[] = []): Promise<CliRun> {
    const args = doc.command.split(/\s+/).slice(2); // "npx pulumi-embedded-connectors"
    const run = await runCli([...args, ...extra], { env, cwd: workDir });
    outputs.push(run.output);
    return run;
  }

  async function report(): Promise<AdoptReport[]> {
    const text = await fs.readFile(path.join(workDir, "adopt.json"), "utf8");
    outputs.push(text);
    return (JSON.parse(text) as { stacks: AdoptReport[] }).stacks;
  }

  /** Every configuration's lastUpdated, by sub-account and connector. */
  async function lastUpdates(): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (const { accountId, client } of accounts) {
      for (const connectorId of [S3, SEGMENT]) {
        found.set(`${accountId}/${connectorId}`, (await client.getConfiguration(accountId, connectorId)).lastUpdated);
      }
    }
    return found;
  }

  /** Runs `fn`; asserts the service received only token requests and reads meanwhile, and no configuration changed. */
  async function readsOnly(fn: () => Promise<CliRun>): Promise<CliRun & { received: Map<string, number> }> {
    const before = await service.stats();
    const result = await fn();
    const received = requestsBetween(before, await service.stats());
    const token = routeKey("getToken");
    const writes = [...received].filter(([route]) => route !== token && !route.startsWith("GET "));
    assert.deepEqual(writes, [], `requests other than the token and reads: ${JSON.stringify([...received])}`);
    assert.deepEqual(await lastUpdates(), lastUpdated, "every configuration's lastUpdated is unchanged");
    return { ...result, received };
  }

  before(async function () {
    this.timeout(20 * 60_000);
    console.log(`fleet adopt e2e: seed ${SEED} (replay with FLEET_E2E_SEED=${SEED})`);
    engine = await ensureEngine();
    service = await startLocalService({
      consolePasswords: true,
      firstCustomer: { clientSecret: `acme-client-${SEED}` },
    });
    const [acme, globex] = service.customers;
    workDir = path.join(programsDir, ".work", `fleet-adopt-${SEED}-${randomBytes(3).toString("hex")}`);
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    doc = await docSection();
    // The customers set their sub-accounts up themselves, their own keys included.
    const owners = [acme, acme, globex];
    for (const [i, owner] of owners.entries()) {
      const client = new OutOfBandClient(service.baseUrl, owner.clientId, owner.clientSecret);
      const accountId = owner.subAccountIds[owner === acme ? i : 0];
      const s3Key = `canary-s3-${SEED}-${i}`;
      const apiKey = `canary-segment-${SEED}-${i}`;
      passwords.push(s3Key, apiKey);
      await client.add(accountId, [S3, SEGMENT, MIXPANEL]); // Mixpanel added, never configured
      await client.configure(accountId, S3, storageFields({ secretAccessKey: s3Key, bucket: `exports-${i}` }));
      await client.configure(accountId, SEGMENT, apiKeyFields({ apiKey, batchSize: 100 + i }));
      accounts.push({ accountId, client });
    }
    for (const [key, value] of await lastUpdates()) lastUpdated.set(key, value);
    // The doc's accounts file, its example ids replaced by these sub-accounts', in order.
    const lines = doc.csv.trimEnd().split("\n");
    assert.equal(lines.length - 1, accounts.length, "the doc's file lists three sub-accounts under its header");
    const csv = [lines[0], ...lines.slice(1).map((line, i) => line.replace(/^\w+/, accounts[i].accountId))];
    await fs.writeFile(path.join(workDir, "accounts.csv"), `${csv.join("\n")}\n`);
    env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: acme.clientSecret,
      GLOBEX_CLIENT_SECRET: globex.clientSecret,
    };
  });

  after(async () => {
    if (workDir && process.env.FLEET_E2E_KEEP !== "1") await fs.rm(workDir, { recursive: true, force: true });
    await service?.stop();
  });

  it("adopts each sub-account with no write: stack files, import, no change, no drift", async () => {
    const run = await readsOnly(() => adopt());
    assert.equal(run.code, 0, run.output);
    assert.ok(
      (run.received.get(routeKey("getConfiguration")) ?? 0) >= accounts.length * 2,
      "each configuration was read",
    );
    const reports = await report();
    stacks = reports.map((r) => r.stack);
    assert.deepEqual(
      reports.map((r) => [r.accountId, r.status, r.connectors, r.heldByService, r.preview, r.drift]),
      accounts.map((a) => [a.accountId, "adopted", 3, 2, "clean", "clean"]),
      run.output,
    );
    for (const r of reports) {
      assert.deepEqual(r.steps, ["read", "wrote stack file", "imported"]);
      assert.equal(r.unconfigured?.length, 1, "Mixpanel, added but not configured, is said so");
      const file = await fs.readFile(path.join(workDir, `Pulumi.${r.stack}.yaml`), "utf8");
      outputs.push(file);
      assert.ok(!file.includes(MASK), `no mask in the stack file:\n${file}`);
      assert.match(file, /heldByService: \[secretAccessKey\]/);
      assert.match(file, /heldByService: \[apiKey\]/);
      assert.match(file, /name: Mixpanel\n\s+supportedType: Source\n\s+configured: false\n/);
      assert.match(file, new RegExp(`bucket: exports-${accounts.findIndex((a) => a.accountId === r.accountId)}`));
    }
  });

  it("a fleet up that changes only a Text field never sends the mask: the customer's Password holds", async () => {
    const [first] = accounts;
    const stack = stacks[0];
    const file = path.join(workDir, `Pulumi.${stack}.yaml`);
    const adopted = await fs.readFile(file, "utf8");
    await fs.writeFile(file, adopted.replace("bucket: exports-0", "bucket: exports-0-changed"));
    try {
      const before = await service.stats();
      const up = await runCli(["fleet", "up", "--stacks", stack], { env, cwd: workDir });
      outputs.push(up.output);
      const sent = requestsBetween(before, await service.stats());
      assert.equal(sent.get(routeKey("configure")) ?? 0, 0, `no Configure: ${JSON.stringify([...sent])}`);
      assert.notEqual(up.code, 0, up.output);
      assert.match(up.output, /would clear the Password fields the service holds \(heldByService: secretAccessKey\)/);
      assert.deepEqual(
        await service.holds(first.accountId, S3, { secretAccessKey: passwords[0], bucket: "exports-0" }),
        {
          secretAccessKey: true,
          bucket: true,
        },
      );
    } finally {
      await fs.writeFile(file, adopted);
    }
  });

  it("a rerun refuses the stacks that exist; --resume skips what is done, still with no write", async () => {
    const again = await readsOnly(() => adopt());
    assert.equal(again.code, 1, again.output);
    assert.deepEqual([...again.received], [], "a refused sub-account is not even read");
    assert.deepEqual(
      (await report()).map((r) => r.status),
      accounts.map(() => "refused"),
    );
    assert.match(again.output, /exists already \(Pulumi\.[\w.-]+\.yaml\): pass --resume/);
    const resumed = await readsOnly(() => adopt(["--resume"]));
    assert.equal(resumed.code, 0, resumed.output);
    for (const r of await report()) {
      assert.deepEqual([r.status, r.steps, r.preview, r.drift], ["adopted", ["already imported"], "clean", "clean"]);
    }
  });

  it("refuses a sub-account a stack manages under a new stack name, naming that stack: by its file, or its checkpoint alone", async () => {
    const [first] = accounts;
    const stack = stacks[0];
    const escaped = stack.replace(/[.]/g, "\\.");
    await fs.writeFile(path.join(workDir, "again.csv"), `${first.accountId},acme,${stack}-again\n`);
    const args = ["fleet", "adopt", "--accounts", "again.csv", "--json", "adopt.json"];
    const file = path.join(workDir, `Pulumi.${stack}.yaml`);
    const kept = await fs.readFile(file, "utf8");
    for (const where of ["stack file", "backend"]) {
      if (where === "backend") await fs.rm(file); // the file gone (or elsewhere): its checkpoint still tells
      try {
        const run = await readsOnly(() => runCli(args, { env, cwd: workDir }));
        assert.equal(run.code, 1, run.output);
        assert.deepEqual([...run.received], [], "a refused sub-account is not even read");
        const [refused] = await report();
        assert.equal(refused.status, "refused", run.output);
        const by = where === "backend" ? "its checkpoint in the backend" : `Pulumi\\.${escaped}\\.yaml`;
        assert.match(
          refused.error ?? "",
          new RegExp(
            `^sub-account ${first.accountId} is managed already by stack ${escaped} \\(${by}\\).*rename that stack`,
          ),
        );
        assert.doesNotMatch(run.output, /give the sub-account another stack name/);
        await assert.rejects(fs.access(path.join(workDir, `Pulumi.${stack}-again.yaml`)), "no second stack file");
      } finally {
        await fs.writeFile(file, kept);
      }
    }
  });

  it("--secrets maps a Password to a source: imported with no write, then the next fleet up writes it once", async () => {
    const owner = service.customers[1];
    const client = new OutOfBandClient(service.baseUrl, owner.clientId, owner.clientSecret);
    const accountId = owner.subAccountIds[1];
    const apiKey = `canary-mapped-${SEED}`;
    passwords.push(apiKey);
    await client.add(accountId, [SEGMENT]);
    await client.configure(accountId, SEGMENT, apiKeyFields({ apiKey: `customer-${apiKey}` }));
    const written = (await client.getConfiguration(accountId, SEGMENT)).lastUpdated;
    await fs.writeFile(path.join(workDir, "mapped.csv"), `${accountId},globex,globex-mapped\n`);
    await fs.writeFile(
      path.join(workDir, "map.json"),
      JSON.stringify({ Segment: { apiKey: { env: "GLOBEX_SEGMENT_KEY" } } }),
    );
    env = { ...env, GLOBEX_SEGMENT_KEY: apiKey };
    const before = await service.stats();
    const run = await runCli(
      ["fleet", "adopt", "--accounts", "mapped.csv", "--secrets", "map.json", "--json", "adopt.json"],
      {
        env,
        cwd: workDir,
      },
    );
    outputs.push(run.output);
    assert.equal(run.code, 0, run.output);
    const writes = [...requestsBetween(before, await service.stats())].filter(
      ([route]) => route !== routeKey("getToken") && !route.startsWith("GET "),
    );
    assert.deepEqual(writes, [], "the adoption wrote nothing");
    assert.equal((await client.getConfiguration(accountId, SEGMENT)).lastUpdated, written);
    const [mapped] = await report();
    assert.deepEqual(
      [mapped.status, mapped.mappedSecrets, mapped.preview, mapped.drift],
      ["pending", 1, "changed", "clean"],
    );
    assert.match(run.output, /the next `fleet up` writes the Passwords from secrets once/);
    const file = await fs.readFile(path.join(workDir, "Pulumi.globex-mapped.yaml"), "utf8");
    assert.match(file, /apiKey:\n\s+env: GLOBEX_SEGMENT_KEY\n/);
    stacks.push("globex-mapped");
    const up = await runCli(["fleet", "up", "--stacks", "globex-mapped"], { env, cwd: workDir });
    outputs.push(up.output);
    assert.equal(up.code, 0, up.output);
    assert.ok((await client.getConfiguration(accountId, SEGMENT)).lastUpdated > written, "fleet up wrote it once");
    const preview = await runCli(["fleet", "preview", "--stacks", "globex-mapped"], { env, cwd: workDir });
    outputs.push(preview.output);
    assert.match(preview.output, /1 stack\(s\): 1 clean/, preview.output);
  });

  it("each stack holds its sub-account's connectors (the unconfigured as added only); no Password anywhere", async () => {
    const states = await fs.readdir(engine.backendDir, { recursive: true });
    const held = new Map<string, string[]>();
    for (const f of states.filter((f) => f.endsWith(".json"))) {
      const text = await fs.readFile(path.join(engine.backendDir, f), "utf8");
      outputs.push(text);
      // This test's stacks' latest states (not their history, nor other tests' stacks).
      const stack = stacks.find((name) => f === `.pulumi/stacks/embedded-fleet/${name}.json`);
      if (!stack) continue;
      const resources = (JSON.parse(text) as { checkpoint?: { latest?: { resources?: StateResource[] } } }).checkpoint
        ?.latest?.resources;
      held.set(
        stack,
        (resources ?? [])
          .filter((r) => r.type.startsWith("embedded:index:"))
          .map((r) => r.type)
          .sort(),
      );
    }
    const imported = ["embedded:index:AddedConnector", "embedded:index:ConnectorConfiguration"];
    assert.deepEqual(
      Object.fromEntries(held),
      Object.fromEntries(
        stacks.map((stack) => [
          stack,
          stack === "globex-mapped" ? imported : [...imported, ...imported, "embedded:index:AddedConnector"].sort(),
        ]),
      ),
      "S3 and Segment, each an AddedConnector and its configuration; Mixpanel, not configured, added only",
    );
    for (const p of [...passwords, MASK])
      assertNoSecret(outputs.join("\n"), p, "adopt's outputs, stack files and states");
  });
});
