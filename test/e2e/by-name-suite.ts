// One language's user, installed by name: an empty directory outside the repository,
// the language's own package manager pointed at its registry on loopback by its usual setting, as
// exported from `npm run registries`' env (by-name-registries.ts), the install commands and program files of that language's section of
// docs/installation-configuration.md run and written exactly as there, then, under the real
// engine with a PULUMI_HOME without the plugin and plugin acquisition on: `up` (the engine
// downloads this platform's archive from the release URL, sent to loopback), then the README's
// drift story with "Configure and run"'s own commands as written: the drift check clean, an
// out-of-band change of one field that the drift check names, a plain `pulumi up` that puts the
// value back (the recipe's `options: refresh: always`), the drift check clean again; `destroy`. For Python, Go
// and YAML, no `node` is on PATH: PATH is a directory of links to the engine's programs and the
// language's own tools alone.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TIMEOUT_MS, ensureEngine } from "./harness";
import { fieldValue, S3, startService, storageFields, type E2EService } from "./fixtures";
import { archiveRequests, ARCHIVE, PULUMI_FIELD } from "./release-server";
import { publishedRegistries, type Registries } from "./by-name-registries";
import { docSection, type DocSection } from "./doc-section";

export { docSection, type DocSection };

const execFileAsync = promisify(execFile);

/** What a user of one language has and does. */
export interface ByNameLanguage {
  /** The heading of its section in docs/installation-configuration.md (unless `section` is given). */
  language: string;
  /** The language's own programs the user's PATH holds (resolved on this machine's PATH), or null: the machine's PATH, node included (TypeScript). */
  tools: string[] | null;
  /** Settings beyond the registries' `env` (e.g. a hermetic user config; files may be written under `tmp`). */
  registryEnv(registries: Registries, tmp: string): Promise<Record<string, string>>;
  /** The environment of the engine's runs after the install (the shell state the docs' commands leave, e.g. an active virtualenv). */
  activate?(workDir: string, env: Record<string, string>): Record<string, string>;
  /** Runs after the install's commands, as set-up (e.g. a first build filling a build cache), its time printed. */
  afterInstall?(workDir: string, env: Record<string, string>): Promise<void>;
  /** Files and commands instead of the docs' section (a language whose section another page writes). */
  section?(registries: Registries, tmp: string): Promise<DocSection | string>;
}

/** The commands of "## Configure and run" (README.md's paragraph and block say the same): `pulumi up` and the drift check. */
export async function configureAndRun(): Promise<{ up: string; driftCheck: string }> {
  const lines = (await docSection("Configure and run")).commands.join("\n").split("\n");
  const up = lines.find((line) => /^pulumi up\b/.test(line))?.replace(/\s+#.*$/, "");
  const driftCheck = lines.find((line) => /#\s*the drift check/.test(line))?.replace(/\s+#.*$/, "");
  assert.ok(up && driftCheck, "Configure and run gives `pulumi up` and the drift check");
  return { up, driftCheck };
}

/**
 * Runs one of the docs' commands in the project with the user's environment: its exit code and
 * output. The engine's PULUMI_SKIP_CONFIRMATIONS stands for the user's "yes" at `pulumi up`'s prompt.
 */
async function runAsWritten(
  command: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", command], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      output: (failed.stdout ?? "") + (failed.stderr ?? ""),
    };
  }
}

/** A directory of links to the engine's programs and `tools` (each resolved on this machine). */
async function userBin(tmp: string, binDir: string, tools: string[]): Promise<string> {
  const bin = path.join(tmp, "bin");
  await fs.mkdir(bin);
  for (const name of await fs.readdir(binDir))
    if (name.startsWith("pulumi")) await fs.symlink(path.join(binDir, name), path.join(bin, name));
  for (const tool of tools) {
    // python3: the interpreter itself (a version manager's shim is a script needing more on PATH).
    const { stdout } =
      tool === "python3"
        ? await execFileAsync("python3", ["-c", "import os, sys; print(os.path.realpath(sys.executable))"])
        : await execFileAsync("bash", ["-c", `realpath "$(command -v ${tool})"`]);
    await fs.symlink(stdout.trim(), path.join(bin, tool));
  }
  return bin;
}

/** Asserts that no directory of a PATH holds a `node`. */
export async function assertNoNode(pathValue: string): Promise<void> {
  for (const dir of pathValue.split(path.delimiter)) {
    await assert.rejects(fs.access(path.join(dir, "node")), `no node in ${dir}`);
  }
}

export function describeByName(lang: ByNameLanguage): void {
  describe(`e2e: a ${lang.language} user installs by name from registries on loopback (no checkout${lang.tools ? ", no node" : ""})`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    let registries: Registries;
    let svc: E2EService;
    let tmp: string;
    let workDir: string;
    let home: string;
    let env: Record<string, string>;
    let stack: Stack;
    let started: number;
    let upDone = false;
    const secretAccessKey = `by-name-${lang.language.toLowerCase()}-key`;

    before(async function () {
      this.timeout(30 * 60_000); // a cold machine: the engine, the registries' tools, the release
      const engine = await ensureEngine();
      registries = await publishedRegistries();
      started = Date.now();
      tmp = await fs.mkdtemp(path.join(os.tmpdir(), `embedded-by-name-${lang.language.toLowerCase()}-`));
      workDir = path.join(tmp, "project");
      home = path.join(tmp, "pulumi-home");
      await fs.mkdir(workDir);
      await fs.mkdir(path.join(tmp, "backend"));
      const PATH = lang.tools ? await userBin(tmp, engine.binDir, lang.tools) : engine.env.PATH;
      env = {
        ...engine.env,
        ...registries.env, // what `npm run registries` tells a person to export
        ...(await lang.registryEnv(registries, tmp)),
        PATH,
        PULUMI_HOME: home,
        PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      };
      svc = await startService();
    });

    after(async function () {
      await stack?.destroy().catch(() => undefined);
      await svc?.service.stop();
      if (started) console.error(`      by-name ${lang.language}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (tmp) await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    });

    it("installs by name from the registry, with the docs' commands and files as written", async function () {
      this.timeout(10 * 60_000); // the package manager fetches the SDK's dependencies (pulumi's) through the registry
      const custom = await lang.section?.(registries, tmp);
      if (typeof custom === "string") this.skip(); // the reason is printed by section()
      const section = custom ?? (await docSection(lang.language));
      assert.ok(section.files.length > 0, "the section writes the program");
      if (lang.tools) await assertNoNode(env.PATH);
      for (const [file, content] of section.files) await fs.writeFile(path.join(workDir, file), content);
      for (const command of section.commands) {
        await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", command], {
          cwd: workDir,
          env: { ...process.env, ...env },
          maxBuffer: 64 * 1024 * 1024,
        }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(`\`${command.trim()}\` failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
        });
      }
      if (lang.afterInstall) {
        const start = Date.now();
        await lang.afterInstall(workDir, { ...process.env, ...env } as Record<string, string>);
        console.error(
          `      by-name ${lang.language}: set-up after the install took ${((Date.now() - start) / 1000).toFixed(1)} s`,
        );
      }
      if (lang.activate) env = lang.activate(workDir, env);
      if (lang.tools) await assertNoNode(env.PATH);
      const workspace = await LocalWorkspace.create({
        workDir,
        pulumiHome: home,
        pulumiCommand: (await ensureEngine()).command,
        envVars: env,
      });
      stack = await Stack.create("dev", workspace);
      await stack.setAllConfig({
        "embedded:baseUrl": { value: svc.baseUrl },
        "embedded:clientId": { value: svc.clientId },
        "embedded:clientSecret": { value: svc.clientSecret, secret: true },
        "embedded:accountId": { value: svc.accountId },
        s3SecretAccessKey: { value: secretAccessKey, secret: true },
      });
    });

    it("up: the engine downloads the plugin from the release URL by itself, and the service holds the program's configuration", async function () {
      if (!stack) this.skip();
      await assert.rejects(fs.access(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`)));
      const before = (await registries.releaseRequests()).length;
      const result = await stack.up();
      assert.equal(result.outputs.connectorId?.value, S3);
      assert.deepEqual(
        archiveRequests((await registries.releaseRequests()).slice(before)),
        [`GET /${ARCHIVE} 200`],
        "this platform's archive, downloaded once from the release URL (sent to loopback)",
      );
      assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3]);
      const configured = await svc.outOfBand.getConfiguration(svc.accountId, S3);
      assert.equal(fieldValue(configured, "bucket"), "acme-exports");
      assert.ok(!JSON.stringify(result.stdout).includes(secretAccessKey), "no secret in the engine's output");
      upDone = true;
    });

    it("the drift check is clean right after up (Configure and run's command, as written)", async function () {
      if (!upDone) this.skip();
      const check = await runAsWritten((await configureAndRun()).driftCheck, workDir, env);
      assert.equal(check.code, 0, `the drift check passes right after up:\n${check.output}`);
    });

    it("break, detect, repair, clean: the drift check names the field changed by hand, the next `pulumi up` puts the value back", async function () {
      if (!upDone) this.skip();
      const { up, driftCheck } = await configureAndRun();
      await svc.outOfBand.configure(
        svc.accountId,
        S3,
        storageFields({ bucket: "changed-by-hand", accessKeyId: "AKIAEXAMPLE", secretAccessKey }),
      );
      const detected = await runAsWritten(driftCheck, workDir, env);
      // 7: the CLI's code for changes where none were expected, as the docs say.
      assert.equal(detected.code, 7, `the drift check fails after an out-of-band change:\n${detected.output}`);
      assert.match(detected.output, /changed out of band at \S+: bucket\b/, "names the field");
      assert.doesNotMatch(detected.output, /changed-by-hand/, "shows no value");
      assert.ok(!detected.output.includes(secretAccessKey), "no secret in the drift check's output");
      const repaired = await runAsWritten(up, workDir, env);
      assert.equal(repaired.code, 0, `\`${up}\` runs:\n${repaired.output}`);
      assert.ok(!repaired.output.includes(secretAccessKey), "no secret in up's output");
      const configured = await svc.outOfBand.getConfiguration(svc.accountId, S3);
      assert.equal(fieldValue(configured, "bucket"), "acme-exports", `\`${up}\` wrote the program's value back`);
      const clean = await runAsWritten(driftCheck, workDir, env);
      assert.equal(clean.code, 0, `the drift check is clean again after the repair:\n${clean.output}`);
    });

    it("destroy empties the sub-account", async function () {
      if (!upDone) this.skip();
      await stack.destroy();
      assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
    });
  });
}
