// examples/python-sub-account under the real engine (sdk-example-suite.ts), under the suite's CLI
// and NEWEST_CLI: the Python language host (pulumi-language-python, built by
// scripts/ensure-pulumi.sh) runs the program in the virtualenv of scripts/ensure-python.sh
// (PyPI's pulumi at the CLI's version, or the nearest PyPI serves, and the SDK pulumi_embedded
// regenerated from the built plugin's schema, regenerated-sdk.ts, pip-installed as a wheel built
// outside the checkout), its bin first on PATH as the README says.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { NEWEST_CLI, repoRoot } from "./harness";
import { regeneratedSdk } from "./regenerated-sdk";
import { describeSdkExample } from "./sdk-example-suite";

/**
 * PyPI's `pulumi` for the run under NEWEST_CLI (v3.274.1): the PyPI this project is tested against (the registry of its CI machine) serves no 3.274.1, and 3.272.0 is
 * its newest release (`pip download pulumi==3.274.1` lists what it serves). The suite's CLI gets
 * its own version (ensure-python.sh's default).
 */
const PYPI_PULUMI_FOR_NEWEST_CLI = "3.272.0";

describeSdkExample({
  language: "Python",
  example: "python-sub-account",
  programFile: "__main__.py",
  // Python literals: a JSON string or list of strings is one; a Number canary is a float literal.
  canaryEdits: (c) => [
    ['"accessKeyId": "AKIAPYTHONEXAMPLE"', `"accessKeyId": ${JSON.stringify(c.text)}`],
    ['"region": "eu-west-1"', `"region": ${JSON.stringify(c.select)}`],
    ['"fileFormats": ["csv", "parquet"]', `"fileFormats": ${JSON.stringify(c.multiSelect)}`],
    ['"maxFileSizeMb": 512,', `"maxFileSizeMb": ${c.number},\n        "startDate": ${JSON.stringify(c.date)},`],
    ['"eventTypes": ["track", "identify"]', `"eventTypes": ${JSON.stringify(c.partnerMultiSelect)}`],
    ['"batchSize": 500', `"batchSize": ${c.partnerNumber}`],
  ],
  installStep: /pip install -r requirements\.txt/,
  async prepare(engineEnv, cliVersion) {
    const pypiVersion = cliVersion === NEWEST_CLI ? PYPI_PULUMI_FOR_NEWEST_CLI : undefined;
    const script = path.join(repoRoot, "scripts", "ensure-python.sh");
    const sdk = path.join(await regeneratedSdk(), "python");
    const { stdout } = await promisify(execFile)("bash", [script, ...(pypiVersion ? [pypiVersion] : [])], {
      cwd: repoRoot,
      env: { ...process.env, EMBEDDED_PYTHON_SDK: sdk },
    });
    const venv = stdout.trim().split("\n").pop() ?? "";
    return { PATH: `${path.join(venv, "bin")}${path.delimiter}${engineEnv.PATH}`, VIRTUAL_ENV: venv };
  },
});
