// The Go recipe of docs/installation-configuration.md, run exactly as written from an empty
// directory under the real engine (the suite's CLI and its Go language host), but for one
// substitution: the local service's address (the doc's http://127.0.0.1:8787) is the test's
// service. `go get` takes the SDK module by its published path from a directory in the module
// proxy layout written from sdk/go (tools/goproxy), then Go's module cache, then the module proxy
// (GOPROXY); the plugin is the one the harness installs into the hermetic plugin cache. The
// sub-account then holds the connector, and the recipe's last command, the drift check, passes.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ensureEngine, repoRoot, type Engine } from "../../harness/engine";
import { S3, startService, type E2EService } from "./fixtures";

const execFileAsync = promisify(execFile);
const DOC = path.join(repoRoot, "docs", "installation-configuration.md");
const DOC_SERVICE = "http://127.0.0.1:8787";

/** The first sh block of the doc's "## Go" section. */
export function goRecipe(doc: string): string {
  const section = doc.split(/^## Go$/m)[1]?.split(/^## /m)[0] ?? "";
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section);
  if (!block) throw new Error("docs/installation-configuration.md has no sh block under ## Go");
  return block[1];
}

describe("e2e: the Go recipe of docs/installation-configuration.md, from an empty directory", function () {
  this.timeout(20 * 60_000); // the engine's first `go build` compiles sdk/v3 on a cold cache
  let engine: Engine;
  let svc: E2EService;
  let work: string;
  let goEnv: Record<string, string>;

  before(async function () {
    this.timeout(30 * 60_000);
    engine = await ensureEngine();
    svc = await startService();
    work = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-go-recipe-"));
    const proxy = path.join(work, "goproxy");
    const goFlags = { GOSUMDB: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0", GOTOOLCHAIN: "local" };
    await execFileAsync(
      "go",
      [
        "run",
        "-trimpath",
        ".",
        "--module-dir",
        path.join(repoRoot, "sdk", "go"),
        "--version",
        "v0.1.0",
        "--out",
        proxy,
      ],
      {
        cwd: path.join(repoRoot, "tools", "goproxy"),
        env: { ...process.env, ...goFlags },
      },
    );
    const { stdout } = await execFileAsync("go", ["env", "GOMODCACHE"]);
    const cache = path.join(stdout.trim(), "cache", "download");
    goEnv = { ...goFlags, GOPROXY: `file://${proxy},file://${cache},https://proxy.golang.org` };
  });

  after(async () => {
    const dir = path.join(work ?? "", "embedded-go");
    const env = { ...process.env, ...engine?.env, ...goEnv };
    await execFileAsync("pulumi", ["destroy", "--yes", "--stack", "dev"], { cwd: dir, env }).catch(() => undefined);
    await execFileAsync("pulumi", ["stack", "rm", "--yes", "--force", "dev"], { cwd: dir, env }).catch(() => undefined);
    await svc?.service.stop();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it("names the seeded customer and sub-account of the local service", () => {
    assert.deepEqual(
      [svc.clientId, svc.clientSecret, svc.accountId],
      ["demo-client", "demo-secret", "239a5bbdbe543163"],
    );
  });

  it("runs as written: up adds the connector, and the drift check passes", async () => {
    const recipe = goRecipe(await fs.readFile(DOC, "utf8"));
    assert.equal(recipe.split(DOC_SERVICE).length - 1, 1, "the recipe names the service's address once");
    const script = recipe.replace(DOC_SERVICE, svc.baseUrl);
    const start = Date.now();
    try {
      await execFileAsync("bash", ["-euo", "pipefail", "-c", script], {
        cwd: work,
        env: { ...process.env, ...engine.env, ...goEnv },
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      assert.fail(`the recipe failed:\n${failed.stdout ?? ""}${failed.stderr ?? failed.message}`);
    }
    console.error(`      the recipe ran in ${((Date.now() - start) / 1000).toFixed(1)} s`);
    assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3]);
  });
});
