// `pulumi-embedded-connectors --version` prints the package's version, as the installed bin runs it.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../../../..");

describe("cli: --version", () => {
  it("prints the version of package.json and exits 0", () => {
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const out = execFileSync(process.execPath, [path.join(root, "dist", "cli", "main.js"), flag], {
        encoding: "utf8",
      });
      assert.equal(out.trim(), version);
    }
  });
});
