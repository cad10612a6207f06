// The Linux release archive's plugin carries its own Node.js (scripts/sea-plugin.js): a Pulumi
// YAML program whose Pulumi.yaml points `plugins:` at this machine's unpacked archive (from
// `scripts/release.js --plugin-only`, as a user unpacks a release) runs under the real engine
// with a PATH that holds the engine and its language hosts and no `node`. The launcher's
// archive (today's, still macOS's) on that PATH fails to start: the guard that `node` is
// really missing there. The same executable, installed in the plugin cache as the engine installs
// it, answers `doctor`: docs/hosted-service.md's `pulumi plugin run … doctor`
// commands run as written on that PATH, and a service that never answers ends at --timeout.
import { strict as assert } from "node:assert";
import { execFile, spawn } from "node:child_process";
import { promises as fs, existsSync, readFileSync } from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { loadProfile } from "../../contract/profile";
import { ENGINE_TIMEOUT_MS, ensureEngine, repoRoot } from "./harness";
import { S3, startService, type E2EService } from "./fixtures";
import { PLUGIN_VERSION as version } from "../../provider/schema/plugin-release";
import { PLATFORM, writeRelease } from "./release-server";

const execFileAsync = promisify(execFile);

const PROGRAM = `name: e2e-sea-plugin
runtime: yaml
plugins:
  providers:
    - name: embedded
      path: PLUGIN_DIR
variables:
  s3:
    fn::invoke:
      function: embedded:index:findConnector
      arguments:
        name: Amazon S3
        supportedType: Source
resources:
  s3Source:
    type: embedded:index:AddedConnector
    properties:
      connectorId: \${s3.connectorId}
outputs:
  connectorId: \${s3Source.connectorId}
`;

/** docs/hosted-service.md's commands that run doctor from the plugin, as written. */
const DOC_COMMANDS = [
  ...readFileSync(path.join(repoRoot, "docs", "hosted-service.md"), "utf8").matchAll(
    /^pulumi plugin run --kind resource embedded -- doctor.*$/gm,
  ),
].map((m) => m[0]);

/** The coreutils a shell script may want: the only programs on the test's PATH besides the engine's. */
const COREUTILS = ["cat", "cp", "env", "head", "ls", "mkdir", "mv", "rm", "sh", "tr"];

/**
 * A command line run by sh in dir, in a process group of its own: its output and exit code (null
 * when it outlived 90 s, after which the whole group is killed: a plugin that served instead of
 * answering would otherwise hang the suite).
 */
function shell(command: string, dir: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], { cwd: dir, env, detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a plugin executable printed and how it ended, started with env and stopped after its first line or 10 s. */
function startOnce(
  executable: string,
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill(), 10_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) child.kill();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

describe("e2e: the Linux release archive's plugin runs with no node on PATH (Pulumi YAML, plugins: path)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let svc: E2EService;
  let tmp: string;
  let seaDir: string;
  let releaseDir: string;
  let workDir: string;
  let launcherDir: string;
  let env: Record<string, string>;
  let stack: Stack;

  before(async function () {
    if (os.platform() !== "linux") this.skip(); // the single executable is built for Linux only
    this.timeout(30 * 60_000);
    const engine = await ensureEngine();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-sea-"));
    releaseDir = path.join(tmp, "release");
    await writeRelease(releaseDir);
    seaDir = path.join(tmp, "plugin");
    launcherDir = path.join(tmp, "launcher");
    await fs.mkdir(seaDir);
    await fs.mkdir(launcherDir);
    await execFileAsync("tar", [
      "-xzf",
      path.join(releaseDir, `pulumi-resource-embedded-v${version}-${PLATFORM}.tar.gz`),
      "-C",
      seaDir,
    ]);
    await execFileAsync("tar", [
      "-xzf",
      path.join(releaseDir, `pulumi-resource-embedded-v${version}-darwin-arm64.tar.gz`),
      "-C",
      launcherDir,
    ]);
    const home = path.join(tmp, "home");
    const backend = path.join(tmp, "backend");
    await fs.mkdir(backend, { recursive: true });
    workDir = path.join(tmp, "program");
    await fs.mkdir(workDir);
    await fs.writeFile(path.join(workDir, "Pulumi.yaml"), PROGRAM.replace("PLUGIN_DIR", seaDir));
    // Links to the engine's pulumi programs alone (the CLI and its language hosts, Go programs):
    // its bin directory may be a shared one that holds `node` too (a pulumi found on PATH).
    const engineOnly = path.join(tmp, "engine-bin");
    await fs.mkdir(engineOnly);
    for (const name of await fs.readdir(engine.binDir)) {
      if (name.startsWith("pulumi")) await fs.symlink(path.join(engine.binDir, name), path.join(engineOnly, name));
    }
    const coreutils = path.join(tmp, "coreutils");
    await fs.mkdir(coreutils);
    for (const name of COREUTILS) {
      const found = ["/usr/bin", "/bin"].map((d) => path.join(d, name)).find((f) => existsSync(f));
      if (found) await fs.symlink(found, path.join(coreutils, name));
    }
    env = {
      ...engine.env,
      PATH: `${engineOnly}:${coreutils}`,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${backend}`,
    };
    svc = await startService();
    const workspace = await LocalWorkspace.create({
      workDir,
      pulumiHome: home,
      pulumiCommand: engine.command,
      envVars: env,
    });
    stack = await Stack.create("sea", workspace);
    await stack.setAllConfig({
      "embedded:baseUrl": { value: svc.baseUrl },
      "embedded:clientId": { value: svc.clientId },
      "embedded:clientSecret": { value: svc.clientSecret, secret: true },
      "embedded:accountId": { value: svc.accountId },
    });
  });

  after(async function () {
    await stack?.destroy().catch(() => undefined);
    await svc?.service.stop();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("the archive holds one executable (no JavaScript beside it) and Node.js's license", async () => {
    assert.deepEqual((await fs.readdir(seaDir)).sort(), ["LICENSE.nodejs", "pulumi-resource-embedded"]);
  });

  it("on that PATH the launcher's plugin cannot start, and the single executable prints its port", async () => {
    const launcher = await startOnce(path.join(launcherDir, "pulumi-resource-embedded"), env);
    assert.notEqual(launcher.code, 0, `the launcher found a node: ${launcher.stdout}`);
    assert.match(launcher.stderr, /node: not found/);
    const sea = await startOnce(path.join(seaDir, "pulumi-resource-embedded"), env);
    assert.match(sea.stdout, /^\d+\n/, `a port on the first line: ${sea.stdout}${sea.stderr}`);
  });

  it("up, a clean drift check and destroy: the engine runs the plugin with no Node.js", async () => {
    const result = await stack.up();
    assert.equal(result.outputs.connectorId?.value, S3);
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3], "the connector is added on the service");
    await stack.preview({ refresh: true, expectNoChanges: true });
    await stack.destroy();
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [], "destroy removed it");
  });

  describe("doctor, answered by the installed single executable (pulumi plugin run)", () => {
    let silent: net.Server;
    let held: net.Socket[];

    before(async () => {
      if (os.platform() !== "linux") return;
      const archive = path.join(releaseDir, `pulumi-resource-embedded-v${version}-${PLATFORM}.tar.gz`);
      const install = ["plugin", "install", "resource", "embedded", version, "--file", archive];
      await execFileAsync(path.join(env.PATH.split(":")[0] as string, "pulumi"), install, { env });
      held = [];
      silent = net.createServer((socket) => held.push(socket)); // accepts, never answers
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    });

    after(async () => {
      for (const socket of held ?? []) socket.destroy();
      await new Promise((resolve) => silent?.close(resolve));
    });

    it("no node on the PATH doctor runs with", async () => {
      const found = await shell("command -v node", workDir, env);
      assert.notEqual(found.code, 0, `node found: ${found.stdout}`);
    });

    it("docs/hosted-service.md's commands, in the program's directory: exit 0, the table, the profile written, the scratch sub-account left empty", async () => {
      assert.equal(DOC_COMMANDS.length, 2, "the page's two `pulumi plugin run … doctor` commands");
      for (const command of DOC_COMMANDS) {
        const run = await shell(command, workDir, { ...env, SCRATCH_ACCOUNT_ID: svc.otherAccountId });
        const printed = `${run.stdout}${run.stderr}`;
        assert.equal(run.code, 0, `${command}:\n${printed}`);
        assert.match(
          run.stdout,
          /^ROUTE +OPERATION +STATUS +TIME +VERDICT +SEEN\n(.* reads .*\n){5,}result: the profile reads every route\n/m,
        );
        assert.match(
          run.stderr,
          /^doctor: GET \/es\/v2\/connectors \(listConnectors\): 200$/m,
          "a line per request as it goes",
        );
        assert.ok(
          !printed.includes(svc.clientSecret),
          "the client secret, read from the stack's config, is not printed",
        );
      }
      // The written profile loads (a file doctor did not write, or wrote wrong, would throw).
      loadProfile(path.join(workDir, "service-profile.yaml"));
      assert.deepEqual(await svc.outOfBand.addedIds(svc.otherAccountId), [], "the write check removed what it added");
    });

    it("a service that never answers: doctor ends at --timeout naming the route, and pulumi exits 1 with it", async () => {
      const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      const command =
        `pulumi plugin run --kind resource embedded -- doctor --no-stack --base-url ${url} ` +
        `--client-id c --account-id a --timeout 1`;
      const run = await shell(command, workDir, { ...env, EMBEDDED_CLIENT_SECRET: "never-sent-anywhere-else" });
      assert.equal(run.code, 1, `${run.stdout}${run.stderr}`);
      assert.match(
        run.stderr,
        /error: Get Access Token \(POST \/es\/v2\/oauth\/client-token\): no answer from http:\/\/127\.0\.0\.1:\d+ \(timed out\)/,
      );
      assert.ok(held.length > 0, "the request reached the silent service");
      assert.doesNotMatch(
        run.stderr,
        /exited with/,
        "pulumi passes the exit code on and adds nothing (the doc says so)",
      );
    });
  });
});
