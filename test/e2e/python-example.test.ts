// examples/python-sub-account under the real engine (sdk-example-suite.ts): the Python language
// host (pulumi-language-python, built by scripts/ensure-pulumi.sh) runs the program in the
// virtualenv of scripts/ensure-python.sh (PyPI's pulumi at the CLI's version, and the generated
// SDK sdk/python pip-installed), its bin first on PATH as the README says.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import { describeSdkExample } from "./sdk-example-suite";

describeSdkExample({
    language: "Python",
    example: "python-sub-account",
    programFile: "__main__.py",
    accessKeyLiteral: "AKIAPYTHONEXAMPLE",
    installStep: /pip install -r requirements\.txt/,
    async prepare(engineEnv) {
        const { stdout } = await promisify(execFile)("bash", [path.join(repoRoot, "scripts", "ensure-python.sh")], { cwd: repoRoot });
        const venv = stdout.trim().split("\n").pop() ?? "";
        return { PATH: `${path.join(venv, "bin")}${path.delimiter}${engineEnv.PATH}`, VIRTUAL_ENV: venv };
    },
});
