// CI runs `bash .ci/run` on a fresh clone: it must parse, and end by running exactly the test
// command the README gives (a comment edited by a merge once broke its quoting, and CI with it).
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

describe("docs: the CI entry point runs the README's test command", () => {
  it("bash parses .ci/run, and its last command is the README's `npm ci && npm test`", () => {
    const file = path.join(ROOT, ".ci", "run");
    execFileSync("bash", ["-n", file]);
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    assert.ok(readme.includes("npm ci && npm test"), "the README gives the test command");
    const commands = readFileSync(file, "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    assert.equal(commands.at(-1), "npm ci && npm test");
  });
});
