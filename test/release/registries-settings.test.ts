// The settings that point each package manager and the engine at a registry:
// docs/installation-configuration.md's "From a company mirror" block and the tool settings
// `npm run registries` prints, each run in an empty home directory, then read back from the tool
// itself (npm, pip, go, git), as a person's next install would read it. And the `export` lines it
// writes (--write-env) give back, once sourced by bash, exactly the environment it printed.
// No registry is started: the by-name e2e tests (test/e2e/by-name-*.test.ts) start them.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { registriesEnv, type RegistriesInfo } from "../../harness/registries";
import { exportLines, toolSettings } from "../../harness/registries-text";
import { PULUMI_FIELD } from "../../harness/release-server";
import { docSection } from "../e2e/doc-section";
import { sourced } from "../e2e/by-name-registries";

const execFileAsync = promisify(execFile);

/** A shell in an empty home: only PATH from this machine (no npm_config_*, PIP_*, GO*, GIT_CONFIG_*). */
async function emptyHome(): Promise<{ home: string; env: Record<string, string> }> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), "registries-settings-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    GOENV: path.join(home, ".config", "go", "env"),
    GOTOOLCHAIN: "local",
    GIT_CONFIG_NOSYSTEM: "1",
    PYENV_ROOT: process.env.PYENV_ROOT ?? path.join(os.homedir(), ".pyenv"), // where a pyenv shim finds pip
  };
  return { home, env };
}

async function sh(script: string, env: Record<string, string>): Promise<string> {
  return (await execFileAsync("/bin/bash", ["-euo", "pipefail", "-c", script], { env, cwd: env.HOME })).stdout;
}

/** What each tool reads from its own configuration in that home. */
async function readBack(env: Record<string, string>) {
  const get = async (command: string) => (await sh(command, env).catch(() => "")).trim();
  const [npm, pip, goproxy, goprivate, insteadOf, fileProtocol] = await Promise.all([
    get("npm config get registry"),
    get("pip config get global.index-url"),
    get("go env GOPROXY"),
    get("go env GOPRIVATE"),
    get("git config --global --get-regexp '^url\\..*\\.insteadof$'"),
    get("git config --global --get protocol.file.allow"),
  ]);
  return { npm, pip, goproxy, goprivate, insteadOf, fileProtocol };
}

/** A started registries' description, as scripts/registries.js prints it (no registry behind it). */
function loopbackInfo(): RegistriesInfo {
  const release = { url: "http://127.0.0.1:40003/", override: "", requestLog: "/tmp/x/release-requests.log" };
  release.override = `^github://api\\.github\\.com/embedded-connectors/pulumi-embedded-connectors$=${release.url}`;
  const go = {
    module: "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go",
    tag: `sdk/go/v${PULUMI_FIELD.version}`,
    repository: "https://github.com/embedded-connectors/pulumi-embedded-connectors",
    remote: "file:///tmp/embedded-registries-x/go-remote.git",
  };
  const base = { npm: "http://127.0.0.1:40001/", pypi: "http://127.0.0.1:40002/simple/", go, release };
  return { ...base, releaseFiles: [], dir: "/tmp/embedded-registries-x", env: registriesEnv(base) };
}

describe("registries: the settings a person copies point each tool at the registry", function () {
  this.timeout(60_000);
  const homes: string[] = [];
  after(async () => {
    for (const home of homes) await fs.rm(home, { recursive: true, force: true });
  });

  it("the docs' company-mirror block, run in an empty home, sets npm's, pip's, Go's and git's registry, and the plugin's mirror", async () => {
    const { commands } = await docSection("From a company mirror");
    assert.equal(commands.length, 1, "the section gives one sh block");
    const { home, env } = await emptyHome();
    homes.push(home);
    const out = await sh(`{\n${commands[0]}\n} >/dev/null\nprintf %s "$PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"`, env);
    assert.deepEqual(await readBack(env), {
      npm: "https://npm.mirror.example.com/",
      pip: "https://devpi.mirror.example.com/root/pypi/+simple/",
      goproxy: "https://athens.mirror.example.com,direct",
      goprivate: "github.com/embedded-connectors/pulumi-embedded-connectors",
      insteadOf:
        "url.https://git.mirror.example.com/pulumi-embedded-connectors.git.insteadof https://github.com/embedded-connectors/pulumi-embedded-connectors",
      fileProtocol: "",
    });
    // The engine matches the regexp against the release URL every SDK names, and nothing else.
    const [regexp, mirror] = [out.slice(0, out.lastIndexOf("=")), out.slice(out.lastIndexOf("=") + 1)];
    assert.match(PULUMI_FIELD.server, new RegExp(regexp));
    assert.doesNotMatch("github://api.github.com/pulumi/pulumi-embedded", new RegExp(regexp));
    assert.equal(mirror, "https://plugins.mirror.example.com/embedded/");
  });

  it("npm run registries' tool settings, run in an empty home, point npm, pip, Go and git at the loopback registries", async () => {
    const info = loopbackInfo();
    const lines = toolSettings(info);
    assert.match(lines.at(-1)!, /^pulumi plugin install resource embedded \S+ --server http:\/\/127\.0\.0\.1:40003\/$/);
    const { home, env } = await emptyHome();
    homes.push(home);
    await sh(lines.filter((line) => !line.startsWith("pulumi ")).join("\n"), env);
    assert.deepEqual(await readBack(env), {
      npm: info.npm,
      pip: info.pypi,
      goproxy: "https://proxy.golang.org,direct",
      goprivate: info.env.GOPRIVATE,
      insteadOf: `url.${"remote" in info.go ? info.go.remote : ""}.insteadof ${info.env.GIT_CONFIG_VALUE_0}`,
      fileProtocol: "always",
    });
  });

  it("its exported git settings send the GitHub repository's URL to the bare repository, with the user's git config untouched", async () => {
    const { home, env } = await emptyHome();
    homes.push(home);
    const bare = path.join(home, "go-remote.git");
    const git = (...args: string[]) => execFileAsync("git", args, { env, cwd: home });
    await git("init", "--quiet", "--bare", bare);
    await git("init", "--quiet", path.join(home, "work"));
    const work = ["-C", path.join(home, "work"), "-c", "user.name=t", "-c", "user.email=t@example.com"];
    await git(...work, "commit", "--quiet", "--allow-empty", "-m", "sdk");
    await git(...work, "push", "--quiet", bare, `HEAD:refs/tags/sdk/go/v${PULUMI_FIELD.version}`);
    const base = { ...loopbackInfo(), go: { ...loopbackInfo().go, remote: `file://${bare}` } };
    const exported = { ...env, ...registriesEnv(base) };
    const repository = "https://github.com/embedded-connectors/pulumi-embedded-connectors";
    const { stdout } = await execFileAsync("git", ["ls-remote", repository], { env: exported, cwd: home });
    assert.match(stdout, new RegExp(`\\trefs/tags/sdk/go/v${PULUMI_FIELD.version.replace(/\./g, "\\.")}\\n`));
    await assert.rejects(fs.access(path.join(home, ".gitconfig")), "no global git config written");
  });

  it("the --write-env file, sourced by bash, gives back exactly the environment printed (a quote, $ and \\ included)", async () => {
    const env = { ...loopbackInfo().env, ODD: `it's $HOME \\ "here"` };
    const { home } = await emptyHome();
    homes.push(home);
    const file = path.join(home, "registries.env");
    await fs.writeFile(file, exportLines(env));
    assert.deepEqual(await sourced(". ./registries.env", home, Object.keys(env)), env);
  });
});
