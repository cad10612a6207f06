// Adoption on a fresh machine, in every language `generate` writes: docs/import.md's commands
// ("## Adopting a sub-account in any language") run as written, each language in an empty
// directory whose engine has an empty PULUMI_HOME (no plugin `embedded` in its cache) and plugin
// acquisition on, as a new user's has. The project is what the docs' install makes, by name, from
// the registries on loopback that `npm run registries` starts (by-name-registries.ts, shared with
// the by-name tests): TypeScript and Python by their sections of docs/installation-configuration.md
// as written (their Pulumi.yaml; the program is generate's), Go by `go get` of the module's tag
// (by-name-users.ts), YAML nothing. Before it imports, the engine asks the language host which
// plugins the program needs: Pulumi YAML reads them from each resource's `options` (version,
// pluginDownloadURL), which generate writes as the YAML recipe does; the SDKs name them
// themselves; import.json names them too. The engine downloads the plugin from the registries'
// release host (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), once, imports with no write to the
// service, and the preview shows no change. Each language's seconds are printed.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TIMEOUT_MS, ensureEngine } from "./harness";
import { mutatingCalls, S3, startService, storageFields, type E2EService } from "./fixtures";
import { ARCHIVE, archiveRequests } from "./release-server";
import { publishedRegistries, type Registries } from "./by-name-registries";
import { docSection, type DocSection } from "./doc-section";
import {
  activeVirtualenv,
  goGetCommands,
  goRecipePulumiYaml,
  goUserEnv,
  npmUserEnv,
  PIP_USER_ENV,
} from "./by-name-users";
import { adoptionCommands, runGenerate } from "./adoption-commands";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { PLUGIN_VERSION as version } from "../../provider/schema/plugin-release";

const execFileAsync = promisify(execFile);

/** A new user of one language, from an empty directory. */
interface FreshUser {
  /** The docs' `<language>` and `<file>`. */
  language: string;
  file: string;
  /** Settings beyond the registries' env (files under tmp). */
  userEnv(tmp: string): Promise<Record<string, string>>;
  /** The install's files and commands, before generate. */
  install(): Promise<DocSection>;
  /** Run after generate, as the language's recipe does (Go: `go mod tidy`). */
  afterGenerate?: string;
  /** The shell state the install leaves (an active virtualenv). */
  activate?(dir: string, env: Record<string, string>): Record<string, string>;
}

/** A language's section of the installation docs: its commands and its Pulumi.yaml (generate writes the program). */
async function installSection(heading: string): Promise<DocSection> {
  const section = await docSection(heading);
  return { commands: section.commands, files: section.files.filter(([name]) => name === "Pulumi.yaml") };
}

const USERS: FreshUser[] = [
  {
    language: "ts --resources plugin",
    file: "index.ts",
    userEnv: npmUserEnv,
    install: () => installSection("TypeScript"),
  },
  {
    language: "python",
    file: "__main__.py",
    userEnv: async () => ({ ...PIP_USER_ENV }),
    install: () => installSection("Python"),
    activate: activeVirtualenv,
  },
  {
    language: "go",
    file: "main.go",
    userEnv: goUserEnv,
    install: async () => ({
      files: [["Pulumi.yaml", await goRecipePulumiYaml()]],
      commands: [goGetCommands("adopted")],
    }),
    afterGenerate: "go mod tidy",
  },
  {
    language: "yaml",
    file: "Pulumi.yaml",
    userEnv: async () => ({}),
    install: async () => ({ files: [], commands: [] }),
  },
];

/** Runs a command as written (bash, strict) in dir; its output, or an error carrying it. */
async function sh(command: string, dir: string, env: Record<string, string>): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", command], {
      cwd: dir,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    const failed = error as { message: string; stdout?: string; stderr?: string };
    throw new Error(`\`${command.trim()}\` failed: ${failed.message}\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
  }
}

describe("e2e: generate, then pulumi import with an empty plugin cache, in every language (acquisition on)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  replayCanariesOnFailure();
  const secretAccessKey = canary("fresh-home-s3");
  let svc: E2EService;
  let registries: Registries;
  let engine: Awaited<ReturnType<typeof ensureEngine>>;
  let tmp: string;

  before(async function () {
    this.timeout(30 * 60_000); // a cold machine: the engine, the registries' tools, the release
    engine = await ensureEngine();
    registries = await publishedRegistries();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "adopt-fresh-"));
    svc = await startService();
    await svc.outOfBand.add(svc.accountId, [S3]);
    await svc.outOfBand.configure(svc.accountId, S3, { ...storageFields(), secretAccessKey });
  });
  after(async () => {
    await svc?.service.stop();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  for (const user of USERS)
    it(`${user.language}: the install, then the docs' generate, import and preview --expect-no-changes: the plugin downloaded once, nothing written`, async function () {
      this.timeout(10 * 60_000); // the package managers fetch the SDK's dependencies through the registries
      const started = Date.now();
      const { generate, engine: engineCommands } = await adoptionCommands();
      const root = path.join(tmp, user.file.replace(/\W/g, ""));
      const [dir, home, backend] = ["project", "home", "backend"].map((name) => path.join(root, name));
      for (const made of [dir, backend]) await fs.mkdir(made, { recursive: true });
      let env: Record<string, string> = {
        ...engine.env,
        ...registries.env, // what `npm run registries` tells a person to export
        ...(await user.userEnv(root)),
        PULUMI_HOME: home,
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      };
      const install = await user.install();
      for (const [file, content] of install.files) await fs.writeFile(path.join(dir, file), content);
      for (const command of install.commands) await sh(command, dir, env);
      const printed = Object.values(await runGenerate(generate, svc, dir, user));
      if (user.afterGenerate) await sh(user.afterGenerate, dir, env);
      if (user.activate) env = user.activate(dir, env);
      printed.push(
        await fs.readFile(path.join(dir, user.file), "utf8"),
        await fs.readFile(path.join(dir, "import.json"), "utf8"),
      );
      const installed = Date.now();

      const workspace = await LocalWorkspace.create({
        workDir: dir,
        pulumiHome: home,
        pulumiCommand: engine.command,
        envVars: env,
      });
      const stack = await Stack.create("dev", workspace);
      await stack.setAllConfig({
        "embedded:baseUrl": { value: svc.baseUrl },
        "embedded:clientId": { value: svc.clientId },
        "embedded:clientSecret": { value: svc.clientSecret, secret: true },
        "embedded:accountId": { value: svc.accountId },
      });
      await assert.rejects(fs.access(path.join(home, "plugins", `resource-embedded-v${version}`)), "an empty cache");
      const before = mutatingCalls(await svc.service.stats());
      const requested = (await registries.releaseRequests()).length;
      const engineOutput: string[] = [];
      for (const line of engineCommands) engineOutput.push(await sh(line, dir, env)); // fails unless exit 0
      const output = engineOutput.join("\n");
      assert.match(output, /2 imported/, output);
      assert.deepEqual(
        archiveRequests((await registries.releaseRequests()).slice(requested)),
        [`GET /${ARCHIVE} 200`],
        "this platform's archive, downloaded once from the release URL (sent to loopback)",
      );
      assert.doesNotMatch(output, /pulumi\/pulumi-embedded/, "the engine never looked for pulumi/pulumi-embedded");
      // The import's one warning (imported without values) says a generated program needs nothing more.
      for (const warning of output.split("\n").filter((line) => /warning:/.test(line)))
        assert.match(warning, /A program written by `generate` declares them already/, warning);
      assert.equal(mutatingCalls(await svc.service.stats()) - before, 0, "the service saw no write");
      for (const text of [...printed, output])
        assertNoLeak(text, secretAccessKey, "generate's files and the engine's output");
      const seconds = (at: number) => ((Date.now() - at) / 1000).toFixed(1);
      console.error(
        `      ${user.language}: install and generate ${(installed - started) / 1000} s, import and preview ${seconds(installed)} s`,
      );
    });
});
