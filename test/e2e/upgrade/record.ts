// The recorder of the upgrade fixtures (test/e2e/upgrade/README.md): the stacks a version of the
// package writes, kept so that every later version proves it previews and refreshes them clean
// (earlier-states.test.ts).
//
//   npm run build && node dist/test/e2e/upgrade/record.js --commit <rev> --why "<which change follows it>"
//       [--checkout <dir>] [--hosts typescript-dynamic,python,...] [--force] [--keep]
//
// For the commit: a temporary worktree (`git worktree add`, `npm ci`, `npm run build`), or an
// existing built checkout of it (--checkout: this one, for the current version). Then its own
// local service with a database file, and, per host (upgrade-fixtures.ts HOSTS, those the version
// supports), the host's program of .programs/ (the same text for every version) run by `pulumi up`
// with that version's package, plugin and SDKs, on a file:// backend with a passphrase, each
// host in a sub-account of its own (so that the test restores every fixture into one service).
// The version itself must then see no drift (`pulumi preview --refresh --expect-no-changes`), or
// the fixture would prove nothing. Kept under fixtures/<version>/<host>/: `pulumi stack export`
// (secrets encrypted), Pulumi.<stack>.yaml (its encryptionsalt), Pulumi.yaml, service.json (the
// service's rows of the sub-account), fixture.json (what recorded it, and what the state holds).
// Everything runs on loopback but the package managers (npm ci, pip, the Go module proxy).
import { createHash } from "node:crypto";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import { Command } from "commander";
import { repoRoot } from "../../../harness/engine";
import { subAccountId } from "../../../service/seed/customers";
import {
  DEMO,
  FIXTURE_FILES,
  fixturesDir,
  HOSTS,
  inventory,
  loadFixtures,
  programHashes,
  programsDir,
  SERVICE_TABLES,
  stackName,
  type FixtureMeta,
  type Host,
  type ServiceDump,
} from "./upgrade-fixtures";

interface Options {
  commit: string;
  why: string;
  checkout?: string;
  hosts?: string;
  force?: boolean;
  keep?: boolean;
}

import { checkoutOf, engineBin, git, log, run, startService, stopService, timed } from "./record-checkout";

/** A host's program, ready to run with the commit's package or SDK; returns its directory and environment. */
async function prepareProgram(
  host: Host,
  checkout: string,
  tmp: string,
  engineEnv: NodeJS.ProcessEnv,
  pulumiVersion: string,
  recordedWith: Record<string, string>,
): Promise<{ dir: string; env: NodeJS.ProcessEnv; cleanUp?: () => Promise<void> }> {
  const source = path.join(programsDir, host.program);
  switch (host.language) {
    case "typescript": {
      // Inside the commit's checkout: `pulumi-embedded-connectors` and `@pulumi/pulumi` resolve
      // from its node_modules (the package linked to itself, as its own e2e programs do).
      const dir = path.join(checkout, "test", "e2e", "programs", ".work", `upgrade-${host.name}-${process.pid}`);
      await fs.rm(dir, { recursive: true, force: true });
      await fs.cp(source, dir, { recursive: true });
      recordedWith["@pulumi/pulumi"] = pulumiVersion;
      return { dir, env: engineEnv, cleanUp: () => fs.rm(dir, { recursive: true, force: true }) };
    }
    case "python": {
      const dir = path.join(tmp, host.name);
      await fs.cp(source, dir, { recursive: true });
      const venv = path.join(tmp, "venv");
      if (!existsSync(venv)) {
        await timed(`a virtualenv with pulumi==${pulumiVersion} and the commit's sdk/python`, async () => {
          await run("python3", ["-m", "venv", venv], { cwd: tmp });
          const pip = path.join(venv, "bin", "pip");
          const quiet = ["--quiet", "--disable-pip-version-check"];
          await run(pip, ["install", ...quiet, `pulumi==${pulumiVersion}`, "setuptools>=61", "wheel"], { cwd: tmp });
          const sdk = path.join(tmp, "sdk-python");
          await fs.cp(path.join(checkout, "sdk", "python"), sdk, { recursive: true });
          await run(pip, ["install", ...quiet, "--no-build-isolation", sdk], { cwd: tmp });
        });
      }
      const { stdout } = await run(path.join(venv, "bin", "python"), ["-m", "pip", "list", "--format=json"], {
        cwd: tmp,
      });
      for (const p of JSON.parse(stdout) as { name: string; version: string }[])
        if (["pulumi", "pulumi_embedded", "pulumi-embedded"].includes(p.name))
          recordedWith[`pypi ${p.name}`] = p.version;
      return {
        dir,
        env: { ...engineEnv, PATH: `${path.join(venv, "bin")}${path.delimiter}${engineEnv.PATH}`, VIRTUAL_ENV: venv },
      };
    }
    case "go": {
      // The program imports the SDK by today's module path; a version whose sdk/go had another
      // (before 3e47eff: `pulumi-embedded-connectors/sdk/go`) is copied under today's, its code unchanged.
      const dir = path.join(tmp, host.name);
      await fs.cp(source, dir, { recursive: true });
      const example = path.join(repoRoot, "examples", "go-sub-account");
      for (const name of ["go.mod", "go.sum"]) await fs.copyFile(path.join(example, name), path.join(dir, name));
      const sdk = path.join(tmp, "sdk-go");
      await fs.cp(path.join(checkout, "sdk", "go"), sdk, { recursive: true });
      const wanted = "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go";
      const declared = /^module (\S+)$/m.exec(await fs.readFile(path.join(sdk, "go.mod"), "utf8"))?.[1];
      if (!declared) throw new Error("the commit's sdk/go/go.mod declares no module");
      if (declared !== wanted) {
        for (const entry of await fs.readdir(sdk, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || !/(\.go|go\.mod)$/.test(entry.name)) continue;
          const file = path.join(entry.parentPath, entry.name);
          const text = await fs.readFile(file, "utf8");
          await fs.writeFile(
            file,
            text.split(`"${declared}`).join(`"${wanted}`).replace(`module ${declared}`, `module ${wanted}`),
          );
        }
        recordedWith["sdk/go module path"] = `${declared}, copied as ${wanted}`;
      }
      const env = { ...engineEnv, GOFLAGS: "-mod=mod", GOSUMDB: "off", GOTOOLCHAIN: "local" };
      await run("go", ["mod", "edit", `-replace=${wanted}=${sdk}`], { cwd: dir, env });
      await timed("go build of the Go program", () => run("go", ["build", "-o", os.devNull, "."], { cwd: dir, env }));
      recordedWith.go = (await run("go", ["env", "GOVERSION"], { cwd: dir, env })).stdout.trim();
      return { dir, env };
    }
    case "yaml": {
      const dir = path.join(tmp, host.name);
      await fs.cp(source, dir, { recursive: true });
      return { dir, env: engineEnv };
    }
  }
}

/** The language host scripts/ensure-pulumi.sh builds (the module it is built from). */
function languageHost(host: Host): string {
  const name = `pulumi-language-${host.language === "typescript" ? "nodejs" : host.language}`;
  const goMod = readFileSync(path.join(repoRoot, "tools", name, "go.mod"), "utf8");
  const required = /^require (\S+ \S+)$/m.exec(goMod)?.[1];
  return required ? `${name} from ${required}` : name;
}

/** Whether the commit knows the setting embedded:digestKey. */
function knowsDigestKey(checkout: string): boolean {
  const table = path.join(checkout, "dist", "provider", "settings-table.js");
  return existsSync(table) && readFileSync(table, "utf8").includes("digestKey");
}

async function main(): Promise<void> {
  const opts = new Command()
    .name("record")
    .description("records the upgrade fixtures of one commit (test/e2e/upgrade/README.md)")
    .requiredOption("--commit <rev>", "the commit whose states to record")
    .requiredOption("--why <text>", "why this version has fixtures (which change came after it)")
    .option("--checkout <dir>", "an existing built checkout of the commit (default: a temporary worktree)")
    .option("--hosts <names>", `only these hosts, comma-separated (of ${HOSTS.map((h) => h.name).join(", ")})`)
    .option("--force", "replace the version's fixtures if they exist")
    .option("--keep", "keep the temporary directory (the worktree, backend, service database)")
    .parse()
    .opts<Options>();

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-upgrade-record-"));
  log(`working in ${tmp}`);
  const checkout = await checkoutOf(opts, tmp);
  const version = checkout.commit.slice(0, 7);
  const versionDir = path.join(fixturesDir, version);
  const supported = HOSTS.filter((h) => !h.digestKey || knowsDigestKey(checkout.dir));
  const wanted = opts.hosts ? opts.hosts.split(",").map((h) => h.trim()) : supported.map((h) => h.name);
  const hosts = supported.filter((h) => wanted.includes(h.name));
  for (const name of wanted)
    if (!hosts.some((h) => h.name === name)) throw new Error(`host ${name}: unknown, or not supported by ${version}`);
  for (const h of HOSTS.filter((h) => !supported.includes(h)))
    log(`${h.name}: not recorded (${version} does not know embedded:digestKey)`);
  for (const h of hosts)
    if (existsSync(path.join(versionDir, h.name)) && !opts.force)
      throw new Error(`${path.join(versionDir, h.name)} exists (--force replaces it)`);

  // Each fixture gets a sub-account of its own, after every sub-account the other fixtures took.
  const replaced = (meta: FixtureMeta) => meta.version === version && hosts.some((h) => h.name === meta.host);
  const taken = loadFixtures()
    .filter((f) => !replaced(f.meta))
    .map((f) => f.meta.service.subAccount);
  const firstSubAccount = Math.max(0, ...taken) + 1;
  const subAccountOf = (i: number) => firstSubAccount + i;

  const subject = await git(["log", "-1", "--format=%s", checkout.commit]);
  const committed = await git(["log", "-1", "--format=%cI", checkout.commit]);
  const { bin, version: pulumiVersion } = await timed("the engine (scripts/ensure-pulumi.sh)", () =>
    engineBin(checkout.dir),
  );
  const home = path.join(tmp, "home");
  const backend = path.join(tmp, "backend");
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(backend, { recursive: true });
  const engineEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: DEMO.passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    NO_COLOR: "1",
  };
  for (const name of Object.keys(engineEnv)) if (name.startsWith("EMBEDDED_")) delete engineEnv[name];
  // The commit's plugin, installed as its users install it.
  await run(process.execPath, [path.join(checkout.dir, "dist", "cli", "main.js"), "plugin", "install"], {
    cwd: checkout.dir,
    env: engineEnv,
  });

  const dbPath = path.join(tmp, "service.db");
  const service = await startService(checkout.dir, dbPath, subAccountOf(hosts.length));
  log(`the commit's service: ${service.baseUrl}`);
  const recorded: { host: Host; meta: FixtureMeta; stateText: string; stackConfigText: string }[] = [];
  const cleanUps: (() => Promise<void>)[] = [];
  try {
    for (const [i, host] of hosts.entries()) {
      const stack = stackName(version, host);
      const subAccount = subAccountOf(i);
      const accountId = subAccountId(0, subAccount);
      const recordedWith: Record<string, string> = {
        pulumi: `v${pulumiVersion}`,
        node: process.version,
        "language host": languageHost(host),
      };
      const program = await prepareProgram(host, checkout.dir, tmp, engineEnv, pulumiVersion, recordedWith);
      if (program.cleanUp) cleanUps.push(program.cleanUp);
      const pulumi = (args: string[]) =>
        run(path.join(bin, "pulumi"), [...args, "--stack", stack, "--non-interactive"], {
          cwd: program.dir,
          env: program.env,
        });
      await run(path.join(bin, "pulumi"), ["stack", "init", stack, "--non-interactive"], {
        cwd: program.dir,
        env: program.env,
      });
      await pulumi(["config", "set", "embedded:baseUrl", service.baseUrl]);
      await pulumi(["config", "set", "embedded:clientId", DEMO.clientId]);
      await pulumi(["config", "set", "--secret", "embedded:clientSecret", DEMO.clientSecret]);
      await pulumi(["config", "set", "embedded:accountId", accountId]);
      await pulumi(["config", "set", "--secret", "s3SecretAccessKey", DEMO.s3SecretAccessKey]);
      if (host.digestKey) await pulumi(["config", "set", "--secret", "embedded:digestKey", DEMO.digestKey]);
      await timed(`${host.name}: pulumi up`, () => pulumi(["up", "--yes", "--skip-preview"]));
      // The version itself sees no drift in what it wrote, or the fixture proves nothing.
      await timed(`${host.name}: the version's own drift check`, () =>
        pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"]),
      );
      const stateText = (await pulumi(["stack", "export"])).stdout;
      const stackConfigText = await fs.readFile(path.join(program.dir, FIXTURE_FILES.stackConfig(stack)), "utf8");
      const project = /^name:\s*(\S+)$/m.exec(await fs.readFile(path.join(program.dir, "Pulumi.yaml"), "utf8"))?.[1];
      const meta: FixtureMeta = {
        version,
        commit: checkout.commit,
        subject,
        committed,
        why: opts.why,
        host: host.name,
        language: host.language,
        program: { dir: path.posix.join(".programs", host.program), sha256: programHashes(host.program) },
        project: project ?? "",
        stack,
        service: { baseUrl: service.baseUrl, clientId: DEMO.clientId, accountId, subAccount },
        passphrase: DEMO.passphrase,
        recordedWith,
        holds: inventory(stateText, stackConfigText),
      };
      recorded.push({ host, meta, stateText, stackConfigText });
    }
  } finally {
    await stopService(service.child);
    for (const cleanUp of cleanUps) await cleanUp().catch(() => undefined);
  }

  // What the service held, per fixture: its rows of the fixture's sub-account.
  const db = new Database(dbPath, { readonly: true });
  for (const { host, meta, stateText, stackConfigText } of recorded) {
    const dir = path.join(versionDir, host.name);
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    const tables = Object.fromEntries(
      SERVICE_TABLES.map((table) => [
        table,
        db.prepare(`SELECT * FROM ${table} WHERE account_id = ? ORDER BY rowid`).all(meta.service.accountId),
      ]),
    ) as ServiceDump["tables"];
    const dump: ServiceDump = { accountId: meta.service.accountId, tables };
    await fs.writeFile(path.join(dir, FIXTURE_FILES.meta), `${JSON.stringify(meta, null, 2)}\n`);
    await fs.writeFile(path.join(dir, FIXTURE_FILES.state), stateText.endsWith("\n") ? stateText : `${stateText}\n`);
    await fs.writeFile(path.join(dir, FIXTURE_FILES.stackConfig(meta.stack)), stackConfigText);
    await fs.copyFile(path.join(programsDir, host.program, "Pulumi.yaml"), path.join(dir, FIXTURE_FILES.project));
    await fs.writeFile(path.join(dir, FIXTURE_FILES.service), `${JSON.stringify(dump, null, 2)}\n`);
    const digest = createHash("sha256").update(stateText).digest("hex").slice(0, 12);
    log(
      `${version} × ${host.name}: ${path.relative(repoRoot, dir)} (state ${digest}, sub-account ${meta.service.subAccount})`,
    );
    log(`  holds: ${JSON.stringify(meta.holds.configurations)}`);
  }
  db.close();
  // As `npm run lint` wants them (prettier's JSON and YAML): the same documents, reformatted.
  await run(
    path.join(repoRoot, "node_modules", ".bin", "prettier"),
    ["--log-level", "warn", "--write", ...recorded.map(({ host }) => path.join(versionDir, host.name))],
    { cwd: repoRoot },
  );

  if (opts.keep) log(`kept ${tmp}`);
  else {
    await checkout.remove?.();
    await fs.rm(tmp, { recursive: true, force: true });
  }
  const all = readdirSync(fixturesDir).sort();
  log(`fixtures now: ${all.join(", ")}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`record: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
