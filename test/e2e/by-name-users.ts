// What a user of each language sets beside `npm run registries`' env (by-name-registries.ts), and
// the commands that install the SDK by name where docs/installation-configuration.md's section is
// not run as written: shared by the by-name tests (by-name-*.test.ts) and the adoption from an
// empty PULUMI_HOME (generate-fresh-home.test.ts), which install from the same registries.
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import { PULUMI_FIELD } from "./release-server";

const execFileAsync = promisify(execFile);

/** npm: the registry from the registries' env, an empty user npmrc (written under tmp), no audit. */
export async function npmUserEnv(tmp: string): Promise<Record<string, string>> {
  const npmrc = path.join(tmp, "user.npmrc");
  await fs.writeFile(npmrc, "");
  return { NPM_CONFIG_USERCONFIG: npmrc, NPM_CONFIG_AUDIT: "false" };
}

/** pip: the index from the registries' env; no version check. */
export const PIP_USER_ENV: Readonly<Record<string, string>> = { PIP_DISABLE_PIP_VERSION_CHECK: "1" };

/** The shell state after the docs' `. venv/bin/activate` in workDir: the Python host runs the `python` on PATH. */
export function activeVirtualenv(workDir: string, env: Record<string, string>): Record<string, string> {
  const venv = path.join(workDir, "venv");
  return { ...env, PATH: `${path.join(venv, "bin")}${path.delimiter}${env.PATH}`, VIRTUAL_ENV: venv };
}

let goModuleCache: Promise<string> | undefined;

/**
 * The Go users' module cache, beside the engine's cache, kept per machine (the build cache then
 * serves the engine's builds) but emptied of this module once per process: a copy cached from
 * another run would hide a missing tag.
 */
function moduleCache(): Promise<string> {
  goModuleCache ??= (async () => {
    const base = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
    const cache = path.join(
      process.env.PULUMI_EMBEDDED_CACHE ?? path.join(base, "pulumi-embedded-connectors"),
      "by-name-gomodcache",
    );
    for (const dir of [
      path.join(cache, "github.com", "embedded-connectors"),
      path.join(cache, "cache", "download", "github.com", "embedded-connectors"),
    ])
      await fs.rm(dir, { recursive: true, force: true });
    return cache;
  })();
  return goModuleCache;
}

/**
 * Go: git's user and system config empty (the registries' env adds its settings: GIT_CONFIG_COUNT
 * …), the other modules from the machine's module cache, then the module proxy; no checksum
 * database here (as go-example.test.ts).
 */
export async function goUserEnv(tmp: string): Promise<Record<string, string>> {
  const gitConfig = path.join(tmp, "gitconfig");
  await fs.writeFile(gitConfig, "");
  const { stdout } = await execFileAsync("go", ["env", "GOMODCACHE"]);
  const machineCache = path.join(stdout.trim(), "cache", "download");
  return {
    GIT_CONFIG_GLOBAL: gitConfig,
    GIT_CONFIG_NOSYSTEM: "1",
    GOPROXY: `file://${machineCache},https://proxy.golang.org`,
    GOMODCACHE: await moduleCache(),
    GOFLAGS: "-mod=mod -modcacherw",
    GOSUMDB: "off",
    GOTOOLCHAIN: "local",
    CGO_ENABLED: "0",
  };
}

/** The Go SDK by its module path and the release's tag, into a new module of that name. */
export function goGetCommands(moduleName: string): string {
  return (
    `go mod init ${moduleName}\n` +
    `go get github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go@v${PULUMI_FIELD.version}\n`
  );
}

/** The Pulumi.yaml the doc's Go recipe writes (its `options: refresh: always` included). */
export async function goRecipePulumiYaml(): Promise<string> {
  const doc = await fs.readFile(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
  const heredoc = /^cat > Pulumi\.yaml <<'EOF'\n([\s\S]*?)^EOF$/m.exec(doc);
  if (!heredoc) throw new Error("docs/installation-configuration.md's Go recipe writes no Pulumi.yaml");
  return heredoc[1];
}
