// What a Python or Go program of the plugin needs under the real engine, shared by the examples'
// suites (python-example, go-example) and the host matrix: the Python virtualenv of
// scripts/ensure-python.sh (PyPI's pulumi at the CLI's version, and the SDK pulumi_embedded
// regenerated from the built plugin's schema, regenerated-sdk.ts), its bin first on PATH; the Go
// toolchain with the committed go.sum files verifying the downloads, the build cache filled once
// by building examples/go-sub-account, and a program copy's SDK replaced by the regenerated one.
import { execFile } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import { regeneratedSdk } from "./regenerated-sdk";

const execFileAsync = promisify(execFile);
export const GO_MODULE = "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go";

/** The environment of a Python program's engine runs: the virtualenv of `pypiVersion` (the CLI's when absent). */
export async function pythonEnv(
  engineEnv: Record<string, string>,
  pypiVersion?: string,
): Promise<Record<string, string>> {
  const script = path.join(repoRoot, "scripts", "ensure-python.sh");
  const sdk = path.join(await regeneratedSdk(), "python");
  const { stdout } = await execFileAsync("bash", [script, ...(pypiVersion ? [pypiVersion] : [])], {
    cwd: repoRoot,
    env: { ...process.env, EMBEDDED_PYTHON_SDK: sdk },
  });
  const venv = stdout.trim().split("\n").pop() ?? "";
  return { PATH: `${path.join(venv, "bin")}${path.delimiter}${engineEnv.PATH}`, VIRTUAL_ENV: venv };
}

let goBuilt: Promise<void> | undefined;

/** The environment of a Go program's engine runs; the first call fills the build cache (a cold one compiles sdk/v3: minutes). */
export async function goEnv(): Promise<Record<string, string>> {
  // The go.sum files are committed: they verify the downloads (no checksum database here).
  const env = { GOFLAGS: "-mod=mod", GOSUMDB: "off" };
  goBuilt ??= (async () => {
    // Setup, not test: fetch the modules and fill the build cache once, so that the engine's
    // builds link only. The time is printed.
    const start = Date.now();
    await execFileAsync("go", ["build", "-o", os.devNull, "."], {
      cwd: path.join(repoRoot, "examples", "go-sub-account"),
      env: { ...process.env, ...env },
    });
    console.error(`      go-sub-account: go build took ${((Date.now() - start) / 1000).toFixed(1)} s`);
  })();
  await goBuilt;
  return env;
}

/** Points a Go program copy's SDK module at the regenerated SDK. */
export async function useRegeneratedGoSdk(workDir: string, env: Record<string, string>): Promise<void> {
  const sdk = path.join(await regeneratedSdk(), "go");
  await execFileAsync("go", ["mod", "edit", `-replace=${GO_MODULE}=${sdk}`], {
    cwd: workDir,
    env: { ...process.env, ...env },
  });
}
