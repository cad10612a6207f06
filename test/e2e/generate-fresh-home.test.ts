// Adoption on a fresh machine: docs/import.md's commands ("## Adopting a sub-account in any
// language") run as written, with `--language yaml`, in an empty directory whose engine has an
// empty PULUMI_HOME (no plugin `embedded` in its cache) and plugin acquisition on, as a new
// user's has. Before it imports, the engine asks the language host which plugins the program
// needs; Pulumi YAML reads them from each resource's `options` (version, pluginDownloadURL), which
// generate writes as the YAML recipe does, and import.json names them too. The engine downloads
// the plugin from the loopback release server (release-server.ts) that
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends the configured release URL to, imports with no write
// to the service, and the preview shows no change. With neither (the fix removed), the import
// fails. The other languages' import files are the same (cli/generate/plugin-named.test.ts);
// their SDKs name the plugin themselves.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, repoRoot } from "./harness";
import { mutatingCalls, S3, serviceSettings, startService, storageFields, type E2EService } from "./fixtures";
import { ARCHIVE, archiveRequests, startReleaseServer, writeRelease, type ReleaseServer } from "./release-server";
import { PLUGIN_VERSION as version } from "../../provider/schema/plugin-release";

const execFileAsync = promisify(execFile);

/** docs/import.md's commands of the section, one per line. */
async function docCommands(): Promise<string[]> {
  const text = await fs.readFile(path.join(repoRoot, "docs", "import.md"), "utf8");
  const start = text.indexOf("\n## Adopting a sub-account in any language\n");
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(start))?.[1];
  assert.ok(start >= 0 && block, "docs/import.md shows the section's commands");
  return block.trim().split("\n");
}

describe("e2e: generate, then pulumi import with an empty plugin cache (YAML, acquisition on)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let svc: E2EService;
  let server: ReleaseServer;
  let tmp: string;
  let stack: E2EStack | undefined;

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build, the release's executable
    await ensureEngine();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "adopt-fresh-"));
    await writeRelease(path.join(tmp, "release"));
    server = await startReleaseServer(path.join(tmp, "release"));
    svc = await startService();
    await svc.outOfBand.add(svc.accountId, [S3]);
    await svc.outOfBand.configure(svc.accountId, S3, { ...storageFields(), secretAccessKey: "by-hand-key" });
  });
  after(async () => {
    await stack?.dispose();
    await server?.close();
    await svc?.service.stop();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it("the docs' generate, import and preview --expect-no-changes: the plugin downloaded once, nothing written", async () => {
    const started = Date.now();
    const [generate, ...engineCommands] = await docCommands();
    const dir = path.join(tmp, "program");
    await fs.mkdir(dir);
    const args = generate
      .replace("<accountId>", svc.accountId)
      .replace("<language>", "yaml")
      .replace("<file>", "Pulumi.yaml")
      .split(/\s+/)
      .slice(2); // "npx pulumi-embedded-connectors"
    await execFileAsync(process.execPath, [path.join(repoRoot, "dist", "cli", "main.js"), ...args], {
      cwd: dir,
      env: {
        ...process.env,
        EMBEDDED_BASE_URL: svc.baseUrl,
        EMBEDDED_CLIENT_ID: svc.clientId,
        EMBEDDED_CLIENT_SECRET: svc.clientSecret,
      },
    });
    const home = path.join(tmp, "home");
    stack = await E2EStack.create({
      program: "adopted-fresh",
      programDir: dir,
      name: "adopt-fresh",
      service: serviceSettings(svc),
      env: {
        PULUMI_HOME: home,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: server.override,
      },
    });
    await assert.rejects(fs.access(path.join(home, "plugins", `resource-embedded-v${version}`)), "an empty cache");
    const before = mutatingCalls(await svc.service.stats());
    const printed: string[] = [];
    for (const line of engineCommands) {
      const { stdout, stderr } = await stack.cli(line.split(/\s+/).slice(1)); // "pulumi"
      printed.push(stdout, stderr);
    }
    const output = printed.join("\n");
    assert.match(output, /2 imported/, output);
    assert.deepEqual(archiveRequests(server.requested), [`GET /${ARCHIVE} 200`], server.requested.join(", "));
    assert.doesNotMatch(output, /pulumi\/pulumi-embedded/, "the engine never looked for pulumi/pulumi-embedded");
    // The import's one warning (imported without values) says a generated program needs nothing more.
    const warnings = output.split("\n").filter((line) => /warning:/.test(line));
    for (const line of warnings) assert.match(line, /A program written by `generate` declares them already/, line);
    assert.equal(mutatingCalls(await svc.service.stats()) - before, 0, "the service saw no write");
    console.error(`      generate, import and preview from an empty plugin cache: ${(Date.now() - started) / 1000} s`);
  });
});
