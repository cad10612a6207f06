// The fleet program is the package's
// (`import { fleetProgram } from "pulumi-embedded-connectors/fleet"`).
// - docs/fleets.md's "From an empty repository" block runs as written, copy list included, in a
//   directory outside the checkout: npm installs the package by name from the by-name tests'
//   registry on loopback (by-name-registries.ts, shared with them), the environment block's
//   variables given by the test (it checks the block names exactly those). `fleet up` configures
//   the sub-account; the user's TypeScript compiler accepts the two-line program (the language
//   host's type check under the example's tsconfig); no secret in any output.
// - A fleet made by the example program as it was before the package
//   (test/e2e/programs/fleet-before-package, which imported ./secret-sources): `fleet up` with
//   it, then the switch the docs describe (the package's index.ts, secret-sources.ts deleted):
//   `fleet preview` shows no change and the next `fleet up` changes nothing (same URNs).
// FLEET_PACKAGE_SEED replays the canaries.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startLocalService, type LocalService } from "../../harness/local-service";
import type { FleetReport } from "../../cli/fleet/report";
import { assertNoSecret, ensureEngine, programsDir, repoRoot } from "./harness";
import { FACEBOOK, OutOfBandClient, S3, SEGMENT } from "./fixtures";
import { publishedRegistries } from "./by-name-registries";

const execFileAsync = promisify(execFile);
const SEED = process.env.FLEET_PACKAGE_SEED ?? randomBytes(4).toString("hex");
const canary = (what: string) =>
  `${what}-${SEED}-${Buffer.from(what + SEED)
    .toString("hex")
    .slice(0, 12)}`;

/** docs/fleets.md's "From an empty repository": its environment block and its commands' block. */
async function emptyRepositoryBlocks(): Promise<{ environment: string; commands: string }> {
  const doc = await fs.readFile(path.join(repoRoot, "docs", "fleets.md"), "utf8");
  const start = doc.indexOf("**From an empty repository.**");
  assert.ok(start >= 0, 'docs/fleets.md has "From an empty repository"');
  const blocks = [...doc.slice(start).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert.ok(blocks.length >= 2, "an environment block and a commands block");
  return { environment: blocks[0], commands: blocks[1] };
}

interface Run {
  code: number;
  output: string;
}

describe("e2e: the fleet program in the package", function () {
  this.timeout(20 * 60_000);
  let service: LocalService;
  let tmp: string;
  let project: string;
  let env: Record<string, string>;
  let started: number;
  let blockRan = false;
  const outputs: string[] = [];
  const secrets = {
    PULUMI_CONFIG_PASSPHRASE: canary("passphrase"),
    ACME_CLIENT_SECRET: canary("acme-client"),
    ACME_SEGMENT_API_KEY: canary("segment-key"),
    ACME_EU_S3_SECRET: canary("s3-key"),
    ACME_EU_FACEBOOK_SECRET: canary("facebook-secret"),
  };

  /** A shell command run as the user runs it: bash, the user's environment, in `cwd`. */
  async function sh(command: string, cwd: string): Promise<Run> {
    const result = await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", command], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    })
      .then((r) => ({ code: 0, output: `${r.stdout}${r.stderr}` }))
      .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: typeof e.code === "number" ? e.code : -1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }));
    outputs.push(result.output);
    return result;
  }

  /** The URNs of stack acme-us's state (`pulumi stack export`), sorted. */
  async function urns(dir: string): Promise<string[]> {
    const file = path.join(tmp, "acme-us.state.json");
    const exported = await sh(`pulumi stack export --stack acme-us --file ${file}`, dir);
    assert.equal(exported.code, 0, exported.output);
    const state = JSON.parse(await fs.readFile(file, "utf8")) as { deployment: { resources?: { urn: string }[] } };
    return (state.deployment.resources ?? []).map((r) => r.urn).sort();
  }

  async function report(file: string): Promise<FleetReport> {
    const text = await fs.readFile(file, "utf8");
    outputs.push(text);
    return JSON.parse(text) as FleetReport;
  }

  before(async function () {
    this.timeout(30 * 60_000); // a cold machine: the engine, the registries' tools, the release
    console.log(`fleet package e2e: seed ${SEED} (FLEET_PACKAGE_SEED=${SEED})`);
    const engine = await ensureEngine();
    const registries = await publishedRegistries();
    started = Date.now();
    service = await startLocalService({ firstCustomer: { clientSecret: secrets.ACME_CLIENT_SECRET } });
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-fleet-package-"));
    project = path.join(tmp, "repository");
    await fs.mkdir(project);
    await fs.mkdir(path.join(tmp, "backend"));
    const npmrc = path.join(tmp, "user.npmrc");
    await fs.writeFile(npmrc, "");
    env = {
      ...engine.env,
      PULUMI_HOME: path.join(tmp, "pulumi-home"), // without the plugin: the block's `plugin install` puts it there
      NPM_CONFIG_REGISTRY: registries.npm,
      NPM_CONFIG_USERCONFIG: npmrc,
      NPM_CONFIG_AUDIT: "false",
      NPM_CONFIG_FUND: "false",
      GIT_AUTHOR_NAME: "e2e",
      GIT_AUTHOR_EMAIL: "e2e@example.com",
      GIT_COMMITTER_NAME: "e2e",
      GIT_COMMITTER_EMAIL: "e2e@example.com",
      CI: "true",
      // The docs' environment block:
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
      EMBEDDED_BASE_URL: service.baseUrl,
      GLOBEX_CLIENT_SECRET: service.customers[1].clientSecret,
      ...secrets,
    };
  });

  after(async () => {
    // The sub-accounts live in this test's in-memory service: stopping it drops them.
    await service?.stop();
    if (started) console.error(`      fleet package: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("docs/fleets.md's block from an empty repository runs as written, copy list included, and configures the sub-account", async function () {
    const { environment, commands } = await emptyRepositoryBlocks();
    const exported = [...environment.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]).sort();
    const given = ["PULUMI_BACKEND_URL", "EMBEDDED_BASE_URL", "GLOBEX_CLIENT_SECRET", ...Object.keys(secrets)].sort();
    assert.deepEqual(exported, given, "the environment block names what the run needs, and the test gives each");

    const run = await sh(commands, project);
    assert.equal(run.code, 0, `the block runs as written:\n${run.output}`);
    blockRan = true;
    const infra = path.join(project, "infra");
    assert.ok(!(await fs.readdir(infra)).includes("secret-sources.ts"), "nothing but the package holds the rules");
    const account = "239a5bbdbe543163"; // the block's --account-id: the local service's first sub-account of demo-client
    assert.ok(service.customers[0].subAccountIds.includes(account));
    const acme = new OutOfBandClient(service.baseUrl, service.customers[0].clientId, secrets.ACME_CLIENT_SECRET);
    assert.deepEqual(
      (await acme.addedIds(account)).sort(),
      [S3, SEGMENT, FACEBOOK].sort(),
      "fleet up added connectors/acme.json's three connectors",
    );
    const drift = await fs.readFile(path.join(infra, "drift.md"), "utf8");
    outputs.push(drift);
    assert.match(
      drift,
      /1 stack\(s\): 1 clean, 0 drifted, 0 acknowledged, 0 unmanaged, 0 failed/,
      "fleet drift: clean right after up",
    );

    // The language host type-checks a program (`pulumi up --stack acme-eu`): the export's types
    // resolve under the example's tsconfig (moduleResolution node, which reads no `exports`).
    const typeCheck = await sh("npx tsc --noEmit -p .", infra);
    assert.equal(typeCheck.code, 0, `the user's compiler accepts index.ts:\n${typeCheck.output}`);
  });

  it("a fleet made by the example program before the package keeps its URNs: fleet preview shows no change after the switch, and up changes nothing", async function () {
    if (!blockRan) this.skip();
    const infra = path.join(project, "infra");
    const legacy = path.join(project, "legacy");
    await fs.mkdir(legacy);
    for (const file of ["Pulumi.yaml", "customers.json", "tsconfig.json", "connectors"])
      await fs.cp(path.join(infra, file), path.join(legacy, file), { recursive: true });
    for (const file of ["index.ts", "secret-sources.ts"])
      await fs.copyFile(path.join(programsDir, "fleet-before-package", file), path.join(legacy, file));
    const account = service.customers[0].subAccountIds[1];
    const made = await sh(
      [
        `npx pulumi-embedded-connectors fleet new acme-us --account-id ${account} --customer acme --connectors connectors/acme.json`,
        "pulumi stack init acme-us",
        'pulumi config set --secret s3SecretAccessKey "$ACME_EU_S3_SECRET" --stack acme-us',
        'pulumi config set --secret facebookClientSecret "$ACME_EU_FACEBOOK_SECRET" --stack acme-us',
        "npx pulumi-embedded-connectors fleet up --json ../up-before.json",
      ].join("\n"),
      legacy,
    );
    assert.equal(made.code, 0, `fleet up with the program before the package:\n${made.output}`);
    const before = (await report(path.join(project, "up-before.json"))).stacks[0];
    assert.equal(before.status, "changed");
    const created = before.resources.filter((r) => r.operation === "create").map((r) => r.type);
    for (const type of ["embedded:index:AddedConnector", "embedded:index:ConnectorConfiguration"])
      assert.equal(
        created.filter((t) => t === type).length,
        3,
        `three ${type} created by the program before the package`,
      );

    const urnsBefore = await urns(legacy);
    assert.ok(
      urnsBefore.some((urn) => urn.endsWith("::pulumi:providers:embedded::acme")),
      urnsBefore.join("\n"),
    );

    // The switch docs/fleets.md describes: the package's index.ts, secret-sources.ts deleted.
    await fs.copyFile(path.join(infra, "index.ts"), path.join(legacy, "index.ts"));
    await fs.rm(path.join(legacy, "secret-sources.ts"));
    const preview = await sh("npx pulumi-embedded-connectors fleet preview --json ../preview-after.json", legacy);
    assert.equal(preview.code, 0, preview.output);
    const previewed = (await report(path.join(project, "preview-after.json"))).stacks[0];
    assert.deepEqual(
      { stack: previewed.stack, status: previewed.status, resources: previewed.resources },
      { stack: "acme-us", status: "clean", resources: [] },
      "fleet preview shows no change: no replacement, no update, no create",
    );
    const up = await sh("npx pulumi-embedded-connectors fleet up --json ../up-after.json", legacy);
    assert.equal(up.code, 0, up.output);
    const after = (await report(path.join(project, "up-after.json"))).stacks[0];
    assert.deepEqual({ status: after.status, resources: after.resources }, { status: "clean", resources: [] });
    // The report leaves providers out: the state's URNs, the provider's included, are the same.
    assert.deepEqual(await urns(legacy), urnsBefore, "the same URNs after up with the package's program");
  });

  it("no secret in any output or report", function () {
    if (outputs.length === 0) this.skip();
    const text = outputs.join("\n");
    for (const [name, secret] of Object.entries(secrets)) assertNoSecret(text, secret, `the outputs (${name})`);
    assertNoSecret(text, service.customers[1].clientSecret, "the outputs (GLOBEX_CLIENT_SECRET)");
  });
});
