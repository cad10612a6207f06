// The engine gets the plugin `embedded` by itself, as it does an official provider's: a Python
// program (test/e2e/programs/python-acquire, the SDK pulumi_embedded, whose pulumi-plugin.json
// names the plugin, its version and its release URL) runs with a PULUMI_HOME that has no plugin
// `embedded` and plugin acquisition on. The release host is a loopback HTTP server serving what
// `npm run release` writes (release-server.ts); the engine is sent there from the configured
// release URL by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, as a mirror of the release host would be.
// The TypeScript program's test is plugin-acquisition-ts.test.ts.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TIMEOUT_MS, ensureEngine, programsDir, repoRoot } from "./harness";
import { S3, startService, type E2EService } from "./fixtures";
import { ARCHIVE, archiveRequests, startReleaseServer, writeRelease, type ReleaseServer } from "./release-server";
import { PLUGIN_VERSION as version } from "../../provider/schema/plugin-release";

const execFileAsync = promisify(execFile);

describe("e2e: the engine fetches the plugin embedded from a release server (Python SDK, acquisition on)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let svc: E2EService;
  let server: ReleaseServer;
  let releaseFiles: string[];
  let tmp: string;
  let stack: Stack;
  let home: string;

  before(async function () {
    this.timeout(30 * 60_000);
    const engine = await ensureEngine();
    const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-python.sh")], {
      cwd: repoRoot,
    });
    const venv = stdout.trim().split("\n").pop() ?? "";
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-acquire-"));
    const releaseDir = path.join(tmp, "release");
    releaseFiles = await writeRelease(releaseDir);
    server = await startReleaseServer(releaseDir);
    svc = await startService();
    home = path.join(tmp, "home");
    const backend = path.join(tmp, "backend");
    await fs.mkdir(backend, { recursive: true });
    const workDir = path.join(tmp, "program");
    await fs.cp(path.join(programsDir, "python-acquire"), workDir, { recursive: true });
    const env: Record<string, string> = {
      ...engine.env,
      PATH: `${path.join(venv, "bin")}${path.delimiter}${engine.env.PATH}`,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.override,
    };
    const workspace = await LocalWorkspace.create({
      workDir,
      pulumiHome: home,
      pulumiCommand: engine.command,
      envVars: env,
    });
    stack = await Stack.create("acquire", workspace);
    await stack.setAllConfig({
      "embedded:baseUrl": { value: svc.baseUrl },
      "embedded:clientId": { value: svc.clientId },
      "embedded:clientSecret": { value: svc.clientSecret, secret: true },
      "embedded:accountId": { value: svc.accountId },
    });
  });

  after(async function () {
    await stack?.destroy().catch(() => undefined);
    await server?.close();
    await svc?.service.stop();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("npm run release names the archives as the engine asks for them", async () => {
    // Every platform's name (the launcher's archives: quick, no Node.js fetched); the server holds this machine's.
    const allNames = await writeRelease(path.join(tmp, "all-platforms"), { launcherOnly: true });
    assert.ok(
      releaseFiles.length > 0 && releaseFiles.every((name) => allNames.includes(name)),
      releaseFiles.join(", "),
    );
    for (const p of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"]) {
      assert.ok(
        allNames.includes(`pulumi-resource-embedded-v${version}-${p}.tar.gz`),
        `${p}'s archive in ${allNames.join(", ")}`,
      );
    }
  });

  it("up installs the plugin from the server by itself, then uses it", async () => {
    await assert.rejects(
      fs.access(path.join(home, "plugins", `resource-embedded-v${version}`)),
      "no plugin embedded before the run",
    );
    const result = await stack.up();
    assert.equal(result.outputs.connectorId?.value, S3);
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3], "the connector is added on the service");
    assert.deepEqual(
      archiveRequests(server.requested),
      [`GET /${ARCHIVE} 200`],
      `the engine asked the configured release URL (redirected here) for this platform's archive once: ${server.requested.join(", ")}`,
    );
    const installed = await fs.readdir(path.join(home, "plugins", `resource-embedded-v${version}`));
    assert.ok(
      installed.includes("pulumi-resource-embedded"),
      `the plugin is in the plugin cache: ${installed.join(", ")}`,
    );
  });

  it("the next run takes the installed plugin: no download", async () => {
    const before = server.requested.length;
    await stack.preview({ refresh: true, expectNoChanges: true });
    assert.equal(
      server.requested.length,
      before,
      `no request to the server: ${server.requested.slice(before).join(", ")}`,
    );
    await stack.destroy();
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
  });
});
