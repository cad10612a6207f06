// States written by earlier versions of the package preview and refresh clean under this one
// (test/e2e/upgrade/README.md; the pattern of Pulumi's providertest upgrade tests). Each fixture
// under fixtures/<version>/<host>/ is a stack an earlier commit wrote with its own package,
// plugin and SDKs (record.ts): its `pulumi stack export`, its stack file, and the rows its
// service held. Here, with this checkout's build (the plugin of dist/plugin installed into the
// hermetic PULUMI_HOME, the package from this checkout as every e2e program loads it, the Python
// and Go SDKs of sdk/), every fixture's service rows go into one local service, its state is
// imported into a fresh stack of the suite's file:// backend with its stack file, and the SAME
// program that wrote it (.programs/<host>, checked by hash) runs:
//   - `pulumi preview --expect-no-changes --diff`: no change, no replacement;
//   - `pulumi refresh --expect-no-changes`: nothing read differs from the state (for the dynamic
//     resources, through the serialized provider the old state holds, so through the package
//     paths it names: a module moved without a re-export fails here).
// The service's URL is the one thing rewritten (in the stack file and the state's provider
// inputs): the recorder's was an ephemeral port. No randomness; loopback only (the Go program's
// build may fill the module cache from the proxy on a cold machine, as go-example.test.ts does).
// Shared: one service, the suite's engine, one project directory per program (each fixture a
// stack in it), the Go program built once (the Go host runs the binary), the Python virtualenv of
// scripts/ensure-python.sh. Fixtures run three at a time (UPGRADE_CONCURRENCY), each test awaiting
// its own.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { ENGINE_TIMEOUT_MS, ensureEngine, repoRoot, type Engine } from "../harness";
import { startService, type E2EService } from "../fixtures";
import { SCHEMA } from "../../../service/storage/schema";
import {
  fixtureName,
  HOSTS,
  inventory,
  loadFixtures,
  programHashes,
  programsDir,
  SERVICE_TABLES,
  upgradeDir,
  type Fixture,
} from "./upgrade-fixtures";

const execFileAsync = promisify(execFile);
const fixtures = loadFixtures();
const CONCURRENCY = Math.max(1, Number(process.env.UPGRADE_CONCURRENCY ?? 3));
const GO_MODULE = "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go";

/** A program's project directory, shared by its fixtures' stacks, and the environment of its runs. */
interface Project {
  dir: string;
  env: Record<string, string>;
}

/** What one engine run printed. */
interface Run {
  command: string;
  code: number;
  output: string;
  seconds: number;
}

interface Outcome {
  /** The stack's init and import. */
  setUpSeconds: number;
  preview: Run;
  refresh: Run;
}

async function pulumi(
  engine: Engine,
  project: Project,
  passphrase: string,
  stack: string,
  args: string[],
): Promise<Run> {
  const command = `pulumi ${args.join(" ")}`;
  const start = Date.now();
  const seconds = () => (Date.now() - start) / 1000;
  try {
    const { stdout, stderr } = await execFileAsync(
      engine.command.command,
      [...args, "--stack", stack, "--non-interactive"],
      {
        cwd: project.dir,
        env: { ...process.env, ...engine.env, ...project.env, PULUMI_CONFIG_PASSPHRASE: passphrase },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { command, code: 0, output: `${stdout}\n${stderr}`, seconds: seconds() };
  } catch (err) {
    const { code, stdout, stderr } = err as { code?: unknown; stdout?: string; stderr?: string };
    return {
      command,
      code: typeof code === "number" ? code : -1,
      output: `${stdout ?? ""}\n${stderr ?? ""}`,
      seconds: seconds(),
    };
  }
}

/** The service's URL in a fixture's text, replaced by the test's; `atLeast` occurrences must be there. */
function rebased(text: string, from: string, to: string, atLeast: number, what: string): string {
  const parts = text.split(from);
  assert.ok(parts.length - 1 >= atLeast, `${what} names the recorder's service ${from} at least ${atLeast} time(s)`);
  return parts.join(to);
}

/** Every fixture's service rows in one database file (the fixtures' sub-accounts are distinct). */
async function restoredDatabase(dir: string): Promise<string> {
  const file = path.join(dir, "service.db");
  const db = new Database(file);
  try {
    db.exec(SCHEMA);
    for (const fixture of fixtures)
      for (const table of SERVICE_TABLES)
        for (const row of fixture.service.tables[table]) {
          const columns = Object.keys(row);
          assert.ok(
            columns.every((c) => /^\w+$/.test(c)),
            `${fixtureName(fixture.meta)}: column names of ${table}`,
          );
          db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
            ...columns.map((c) => row[c]),
          );
        }
  } finally {
    db.close();
  }
  return file;
}

describe("e2e: states written by earlier versions (test/e2e/upgrade/fixtures) preview and refresh clean under this version", function () {
  this.timeout(2 * ENGINE_TIMEOUT_MS);
  const started = Date.now();
  let engine: Engine;
  let svc: E2EService;
  let workRoot: string;
  let scratch: string;
  const projects = new Map<string, Promise<Project>>();
  const outcomes = new Map<Fixture, Promise<Outcome>>();

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    engine = await ensureEngine();
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-upgrade-"));
    // Inside the repository: the TypeScript programs load `pulumi-embedded-connectors` and
    // `@pulumi/pulumi` from its node_modules, as every e2e program does (harness.ts).
    workRoot = path.join(upgradeDir, ".work", `run-${randomBytes(4).toString("hex")}`);
    await fs.mkdir(workRoot, { recursive: true });
    const subAccounts = Math.max(3, ...fixtures.map((f) => f.meta.service.subAccount));
    svc = await startService({ db: await restoredDatabase(scratch), subAccountsPerCustomer: subAccounts });
  });

  after(async function () {
    this.timeout(5 * 60_000);
    // Every run this file started ends before the directories go (a prefetched run of a test filtered out).
    await Promise.allSettled(outcomes.values());
    await svc?.service.stop();
    if (workRoot) await fs.rm(workRoot, { recursive: true, force: true });
    await fs.rmdir(path.dirname(workRoot)).catch(() => undefined);
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
    console.error(
      `      upgrade fixtures: ${outcomes.size} of ${fixtures.length} run in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(concurrency ${CONCURRENCY})`,
    );
  });

  /** The program's directory, made once: its files, and for Go the binary the Go host runs. */
  function projectOf(fixture: Fixture): Promise<Project> {
    const program = fixture.host.program;
    let made = projects.get(program);
    if (!made) projects.set(program, (made = makeProject(fixture)));
    return made;
  }

  async function makeProject(fixture: Fixture): Promise<Project> {
    const program = fixture.host.program;
    const dir = path.join(workRoot, program);
    await fs.cp(path.join(programsDir, program), dir, { recursive: true });
    switch (fixture.host.language) {
      case "typescript":
      case "yaml":
        return { dir, env: {} };
      case "python": {
        // The virtualenv of the Python examples (made once per machine), with sdk/python.
        const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-python.sh")], {
          cwd: repoRoot,
        });
        const venv = stdout.trim().split("\n").pop() ?? "";
        return {
          dir,
          env: { PATH: `${path.join(venv, "bin")}${path.delimiter}${engine.env.PATH}`, VIRTUAL_ENV: venv },
        };
      }
      case "go": {
        // examples/go-sub-account's modules, sdk/go for the SDK; built once, then the Go host runs the binary.
        const env = { GOFLAGS: "-mod=mod", GOSUMDB: "off", GOTOOLCHAIN: "local" };
        const goEnv = { ...process.env, ...env };
        const example = path.join(repoRoot, "examples", "go-sub-account");
        for (const name of ["go.mod", "go.sum"]) await fs.copyFile(path.join(example, name), path.join(dir, name));
        await execFileAsync("go", ["mod", "edit", `-replace=${GO_MODULE}=${path.join(repoRoot, "sdk", "go")}`], {
          cwd: dir,
          env: goEnv,
        });
        const start = Date.now();
        await execFileAsync("go", ["build", "-o", path.join(dir, "bin", "program"), "."], { cwd: dir, env: goEnv });
        console.error(`      upgrade fixtures: the Go program built in ${((Date.now() - start) / 1000).toFixed(1)} s`);
        const file = path.join(dir, "Pulumi.yaml");
        const text = await fs.readFile(file, "utf8");
        assert.match(text, /^runtime: go$/m);
        await fs.writeFile(
          file,
          text.replace(/^runtime: go$/m, "runtime:\n  name: go\n  options:\n    binary: ./bin/program"),
        );
        return { dir, env };
      }
    }
  }

  /** A fixture's stack made from its files, then its preview and refresh. */
  async function runFixture(fixture: Fixture): Promise<Outcome> {
    const { meta } = fixture;
    const name = fixtureName(meta);
    const project = await projectOf(fixture);
    const from = meta.service.baseUrl;
    const stackFile = path.join(project.dir, `Pulumi.${meta.stack}.yaml`);
    await fs.writeFile(stackFile, rebased(fixture.stackConfigText, from, svc.baseUrl, 1, `${name}: its stack file`));
    const state = path.join(scratch, `${meta.version}-${meta.host}.json`);
    // The state's provider inputs hold the URL (the default provider's, or the stack config the dynamic provider got).
    await fs.writeFile(state, rebased(fixture.stateText, from, svc.baseUrl, 1, `${name}: its state`));
    const run = (args: string[]) => pulumi(engine, project, meta.passphrase, meta.stack, args);
    let setUpSeconds = 0;
    for (const args of [
      ["stack", "init"],
      ["stack", "import", "--file", state],
    ]) {
      const result = await run(args);
      assert.equal(result.code, 0, `${name}: ${result.command} failed:\n${result.output}`);
      setUpSeconds += result.seconds;
    }
    const preview = await run(["preview", "--expect-no-changes", "--diff"]);
    const refresh = await run(["refresh", "--expect-no-changes", "--yes", "--skip-preview"]);
    return { setUpSeconds, preview, refresh };
  }

  /** The fixture's outcome, started with the next CONCURRENCY - 1 fixtures' (each awaited by its own test). */
  function outcomeOf(index: number): Promise<Outcome> {
    for (const next of fixtures.slice(index, index + CONCURRENCY)) {
      if (!outcomes.has(next)) {
        const outcome = runFixture(next);
        outcome.catch(() => undefined); // awaited by its own test
        outcomes.set(next, outcome);
      }
    }
    return outcomes.get(fixtures[index]) as Promise<Outcome>;
  }

  it("the fixtures: every host of every recorded version, each in its own sub-account, recorded by today's program text, holding what they were recorded holding", () => {
    assert.ok(fixtures.length > 0, "fixtures under test/e2e/upgrade/fixtures (record.ts records them)");
    const bySubAccount = new Map<number, string>();
    for (const fixture of fixtures) {
      const { meta } = fixture;
      const name = fixtureName(meta);
      const other = bySubAccount.get(meta.service.subAccount);
      assert.equal(other, undefined, `${name}: sub-account ${meta.service.subAccount} is also ${other}'s`);
      bySubAccount.set(meta.service.subAccount, name);
      assert.equal(fixture.service.accountId, meta.service.accountId, `${name}: service.json is its sub-account's`);
      assert.deepEqual(
        meta.program.sha256,
        programHashes(fixture.host.program),
        `${name}: .programs/${fixture.host.program} is the program that wrote the state (one text for every ` +
          "version: a changed program needs its fixtures recorded again, record.ts)",
      );
      assert.deepEqual(
        inventory(fixture.stateText, fixture.stackConfigText),
        meta.holds,
        `${name}: the state and stack file hold what fixture.json says`,
      );
    }
    const versions = new Set(fixtures.map((f) => f.meta.version));
    for (const version of versions) {
      const hosts = fixtures.filter((f) => f.meta.version === version).map((f) => f.meta.host);
      for (const host of HOSTS.filter((h) => !h.digestKey))
        assert.ok(hosts.includes(host.name), `version ${version} has a fixture of host ${host.name}`);
    }
  });

  fixtures.forEach((fixture, index) => {
    const name = fixtureName(fixture.meta);
    it(`${name} (${fixture.meta.why}): preview --expect-no-changes --diff shows no change, refresh --expect-no-changes is clean`, async () => {
      const { setUpSeconds, preview, refresh } = await outcomeOf(index);
      console.error(
        `      ${name}: stack init and import ${setUpSeconds.toFixed(1)} s, preview ${preview.seconds.toFixed(1)} s, ` +
          `refresh ${refresh.seconds.toFixed(1)} s`,
      );
      for (const result of [preview, refresh]) {
        assert.equal(
          result.code,
          0,
          `${name}: \`${result.command}\` exited ${result.code} (7: changes where none were expected):\n${result.output}`,
        );
        assert.doesNotMatch(
          result.output,
          /\breplace\b|\+-|-\+/,
          `${name}: \`${result.command}\` replaces:\n${result.output}`,
        );
      }
      assert.match(preview.output, /^\s+\d+ unchanged$/m, `${name}: the preview's summary:\n${preview.output}`);
      assert.doesNotMatch(
        preview.output,
        /to (create|update|delete|replace)|^\s+[~+-] /m,
        `${name}: the preview shows a change:\n${preview.output}`,
      );
    });
  });
});
