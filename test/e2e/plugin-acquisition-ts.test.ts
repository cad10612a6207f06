// A TypeScript program gets the plugin `embedded` with no install step: the package, installed
// from its npm tarball into the program's node_modules, carries the `pulumi` field, which the
// Node.js language host reports to the engine (plugin, version, release URL). With a PULUMI_HOME
// that has no plugin `embedded`, no `plugins:` path and acquisition on, `up` downloads exactly
// this platform's archive from the release server on loopback (release-server.ts) and uses it.
// The same package in a program of the dynamic resources only, with the release host answering
// 404, still runs `up`: the engine's install before a run is best-effort. (Without the field, a
// program of the plugin's resources still gets it, later, from the URL its resources carry; the
// field is what lets the engine, and `pulumi plugin install`, know it before the program runs.)
// So a program of the dynamic resources only downloads the plugin too, unless its runs pass
// `--skip-plugin-pre-install` (the engine then installs a plugin only when a resource asks for it):
// the docs say so, and a preview with the flag shows it.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TIMEOUT_MS, ensureEngine, programsDir, repoRoot } from "./harness";
import { S3, startService, type E2EService } from "./fixtures";
import {
  ARCHIVE,
  archiveRequests,
  CONFIGURED_SERVER,
  PULUMI_FIELD,
  startReleaseServer,
  writeRelease,
  type ReleaseServer,
} from "./release-server";

const execFileAsync = promisify(execFile);

describe("e2e: a TypeScript program gets the plugin embedded by itself (package.json `pulumi`, acquisition on)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let svc: E2EService;
  let server: ReleaseServer;
  let tmp: string;
  let workDir: string;
  const stacks: Stack[] = [];

  /** A stack of the program in its own PULUMI_HOME (no plugin in it), acquisition on. */
  async function stackOf(
    name: string,
    api: "plugin" | "dynamic",
  ): Promise<{ stack: Stack; home: string; env: Record<string, string> }> {
    const engine = await ensureEngine();
    const home = path.join(tmp, `home-${name}`);
    const env: Record<string, string> = {
      ...engine.env,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.override,
    };
    const workspace = await LocalWorkspace.create({
      workDir,
      pulumiHome: home,
      pulumiCommand: engine.command,
      envVars: env,
    });
    const stack = await Stack.create(name, workspace);
    stacks.push(stack);
    await stack.setAllConfig({
      "ts-acquire:api": { value: api },
      "embedded:baseUrl": { value: svc.baseUrl },
      "embedded:clientId": { value: svc.clientId },
      "embedded:clientSecret": { value: svc.clientSecret, secret: true },
      "embedded:accountId": { value: svc.accountId },
    });
    await assert.rejects(
      fs.access(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`)),
      "no plugin embedded before the run",
    );
    return { stack, home, env };
  }

  before(async function () {
    this.timeout(10 * 60_000);
    await ensureEngine();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-acquire-ts-"));
    await fs.mkdir(path.join(tmp, "backend"));
    const releaseDir = path.join(tmp, "release");
    await writeRelease(releaseDir);
    server = await startReleaseServer(releaseDir);
    svc = await startService();
    // The package as a user installs it: its npm tarball unpacked into the program's
    // node_modules. The program stays inside the repository so that the package's own
    // dependencies (@pulumi/pulumi, undici, zod) resolve from the repository's node_modules.
    const { stdout } = await execFileAsync("npm", ["pack", "--json", "--pack-destination", tmp], { cwd: repoRoot });
    const tarball = path.join(tmp, (JSON.parse(stdout) as { filename: string }[])[0].filename);
    workDir = path.join(programsDir, ".work", `ts-acquire-${randomBytes(4).toString("hex")}`);
    await fs.cp(path.join(programsDir, "ts-acquire"), workDir, { recursive: true });
    const installed = path.join(workDir, "node_modules", "pulumi-embedded-connectors");
    await fs.mkdir(installed, { recursive: true });
    await execFileAsync("tar", ["-xzf", tarball, "--strip-components=1", "-C", installed]);
  });

  after(async function () {
    for (const stack of stacks) await stack.destroy().catch(() => undefined);
    await server?.close();
    await svc?.service.stop();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
    await fs.rmdir(path.join(programsDir, ".work")).catch(() => undefined);
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("the override matches the release URL of package.json and not the engine's default source", () => {
    assert.match(PULUMI_FIELD.server, CONFIGURED_SERVER);
    assert.doesNotMatch("github://api.github.com/pulumi/pulumi-embedded", CONFIGURED_SERVER);
  });

  it("a program of the dynamic resources only runs `up` while the release host answers 404", async () => {
    server.serving = false;
    const before = server.requested.length;
    const { stack, home } = await stackOf("dynamic", "dynamic");
    try {
      const result = await stack.up();
      assert.equal(result.outputs.connectorId?.value, S3);
      assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3], "the connector is added on the service");
      // The engine did try: the language host reported the plugin, with its release URL.
      assert.deepEqual(
        archiveRequests(server.requested.slice(before)),
        [`GET /${ARCHIVE} 404`],
        server.requested.join(", "),
      );
      // ... and only logged the failure: the user sees nothing of it.
      assert.doesNotMatch(
        `${result.stdout}${result.stderr}`,
        /download|embedded v?0|plugin/i,
        "no word of the plugin in the output",
      );
      await assert.rejects(
        fs.access(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`)),
        "nothing installed",
      );
    } finally {
      server.serving = true;
      await stack.destroy(); // destroy needs only the plugins in the state: none here
    }
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
  });

  it("with `--skip-plugin-pre-install` (the docs' way), a program of the dynamic resources only downloads nothing; the plugin's still gets it", async () => {
    // The release host serves the archive: without the flag, the engine's install before the run
    // would download it for both programs.
    const engine = await ensureEngine();
    const preview = async (name: string, api: "plugin" | "dynamic") => {
      const before = server.requested.length;
      const { home, env } = await stackOf(name, api);
      const { stdout } = await execFileAsync(
        engine.command.command,
        ["preview", "--skip-plugin-pre-install", "--non-interactive", "--stack", name],
        { cwd: workDir, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      );
      assert.match(stdout, /\+\s+\S+:AddedConnector\s+s3Source\s+create/, stdout);
      const installed = await fs
        .readdir(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`))
        .catch((): string[] => []);
      return { downloads: archiveRequests(server.requested.slice(before)), installed };
    };
    const dynamic = await preview("dynamic-lazy", "dynamic");
    assert.deepEqual(dynamic.downloads, [], `no download for the dynamic resources: ${server.requested.join(", ")}`);
    assert.deepEqual(dynamic.installed, [], "nothing installed");
    const plugin = await preview("plugin-lazy", "plugin");
    assert.deepEqual(plugin.downloads, [`GET /${ARCHIVE} 200`], "the plugin's resources get it when they ask for it");
    assert.ok(plugin.installed.includes("pulumi-resource-embedded"), plugin.installed.join(", "));
  });

  it("`pulumi plugin install` in the project installs the plugin from its release URL (a CI cache step)", async () => {
    const engine = await ensureEngine();
    const home = path.join(tmp, "home-install");
    const before = server.requested.length;
    await execFileAsync(engine.command.command, ["plugin", "install", "--non-interactive"], {
      cwd: workDir,
      env: { ...process.env, ...engine.env, PULUMI_HOME: home, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.override },
    });
    assert.deepEqual(
      archiveRequests(server.requested.slice(before)),
      [`GET /${ARCHIVE} 200`],
      server.requested.join(", "),
    );
    const installed = await fs.readdir(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`));
    assert.ok(installed.includes("pulumi-resource-embedded"), installed.join(", "));
  });

  let pluginStack: Stack;
  it("`up` of a program of the plugin's resources downloads this platform's archive once, then uses it", async () => {
    const before = server.requested.length;
    const { stack, home } = await stackOf("plugin", "plugin");
    pluginStack = stack;
    const result = await stack.up();
    assert.equal(result.outputs.connectorId?.value, S3);
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3], "the connector is added on the service");
    assert.deepEqual(
      archiveRequests(server.requested.slice(before)),
      [`GET /${ARCHIVE} 200`],
      `the engine asked the configured release URL (redirected here) for this platform's archive once: ${server.requested.join(", ")}`,
    );
    const installed = await fs.readdir(path.join(home, "plugins", `resource-embedded-v${PULUMI_FIELD.version}`));
    assert.ok(
      installed.includes("pulumi-resource-embedded"),
      `the plugin is in the plugin cache: ${installed.join(", ")}`,
    );
    // The SDK's resources ask for the plugin with its release URL: the default provider carries it.
    type StateResource = { type: string; inputs?: { __internal?: { pluginDownloadURL?: string } } };
    const resources = ((await stack.exportStack()).deployment as { resources: StateResource[] }).resources;
    const providers = resources.filter((r) => r.type === "pulumi:providers:embedded");
    assert.deepEqual(
      providers.map((p) => p.inputs?.__internal?.pluginDownloadURL),
      [PULUMI_FIELD.server],
      "one provider, bound to the configured release URL",
    );
  });

  it("the next run takes the installed plugin: no download", async () => {
    const before = server.requested.length;
    await pluginStack.preview({ refresh: true, expectNoChanges: true });
    assert.deepEqual(server.requested.slice(before), [], "no request to the release server");
    await pluginStack.destroy();
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
  });
});
