// The fleet that fleet.test.ts and fleet-in-200.test.ts share (shared-setup.ts: made once per
// mocha process): examples/fleet copied into a git repository, one stack file per sub-account
// of two customers of the local service, made by the admin call that creates sub-accounts; the
// secrets of the run (random from the seed, and the second customer's seeded one) that no
// output, report, stack file or backend file may hold.
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
import { ensureEngine, programsDir, repoRoot, type Engine } from "./harness";
import { runCli, type CliRun } from "./fleet-cli";
import { OutOfBandClient } from "./fixtures";
import { sharedSetUp } from "./shared-setup";

const execFileAsync = promisify(execFile);
export const STACKS = Number(process.env.FLEET_E2E_STACKS ?? 50);
export const SEED = process.env.FLEET_E2E_SEED ?? randomBytes(4).toString("hex");

/** A value derived from the seed, unique enough to be searched for in every output. */
export const secretOf = (what: string) =>
  `${what}-${SEED}-${Buffer.from(what + SEED)
    .toString("hex")
    .slice(0, 12)}`;

export function connectors(segmentFromConfig: boolean): Record<string, ConnectorSpec> {
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

export interface Fleet {
  engine: Engine;
  service: LocalService;
  /** The program's copy (a git repository); the stacks are `acme-001`…, `globex-001`…. */
  workDir: string;
  /** Each stack's sub-account. */
  accountOf: Map<string, string>;
  /** An out-of-band client per customer (`acme`, `globex`). */
  clients: Map<string, OutOfBandClient>;
  /** Every secret of the run. */
  secrets: string[];
  /** Everything the fleet printed and every report read, for the final scan. */
  outputs: string[];
  env: NodeJS.ProcessEnv;
  /** Set by a test that ran `fleet destroy`: teardown has nothing left to destroy. */
  destroyed: boolean;
  /** `pulumi-embedded-connectors fleet <args> --dir <workDir>`. */
  fleet(args: string[]): Promise<CliRun>;
  /** Reports go beside the program's copy, not in it (a new file there would be a program change). */
  out(file: string): string;
  report(file: string): Promise<FleetReport>;
  git(...args: string[]): Promise<void>;
  /** `fleet up --json up.json` of every stack: run once, and again after a `fleet destroy`. */
  ensureUp(): Promise<CliRun>;
}

async function make(into: Partial<Fleet>): Promise<void> {
  console.log(`fleet e2e: ${STACKS} stacks, seed ${SEED} (replay with FLEET_E2E_SEED=${SEED})`);
  const engine = await ensureEngine();
  const service = await startLocalService({ firstCustomer: { clientSecret: secretOf("acme-client") } });
  const workDir = path.join(programsDir, ".work", `fleet-${SEED}-${randomBytes(3).toString("hex")}`);
  const outputs: string[] = [];
  const out = (file: string) => `${workDir}-reports/${file}`;
  const accountOf = new Map<string, string>();
  const clients = new Map<string, OutOfBandClient>();
  const secrets = [secretOf("acme-client"), secretOf("s3-key"), secretOf("segment-env"), secretOf("segment-config")];
  let up: Promise<CliRun> | undefined;
  const fleet = async (args: string[]) => {
    const result = await runCli(["fleet", ...args, "--dir", workDir], { env: into.env });
    outputs.push(result.output);
    return result;
  };
  const git = async (...args: string[]) => {
    await execFileAsync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", ...args], { cwd: workDir });
  };
  Object.assign(into, { engine, service, workDir, outputs, accountOf, clients, secrets, destroyed: false });
  Object.assign(into, {
    fleet,
    git,
    out,
    async report(file: string) {
      const text = await fs.readFile(out(file), "utf8");
      outputs.push(text);
      return JSON.parse(text) as FleetReport;
    },
    ensureUp() {
      if (!up || into.destroyed) {
        into.destroyed = false;
        up = fleet(["up", "--json", out("up.json")]);
      }
      return up;
    },
  });
  const customers = { acme: service.customers[0], globex: service.customers[1] };
  secrets.push(customers.globex.clientSecret); // seeded, not random: passed in GLOBEX_CLIENT_SECRET all the same
  const perCustomer = Math.ceil(STACKS / 2);
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
  into.env = {
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
}

async function tearDown(made: Partial<Fleet>): Promise<void> {
  if (made.workDir && made.fleet && made.out && process.env.FLEET_E2E_KEEP !== "1") {
    // Best effort: whatever a failed test left behind.
    if (!made.destroyed) await made.fleet(["destroy"]).catch(() => undefined);
    await fs.rm(made.workDir, { recursive: true, force: true });
    await fs.rm(made.out(""), { recursive: true, force: true });
  }
  await made.service?.stop();
}

/** The shared fleet: `fleetFixture.use()` in a describe. */
export const fleetFixture = sharedSetUp<Fleet>(make, tearDown);
