// The repair command a fleet report prints runs as printed after the docs' own
// `npm install pulumi-embedded-connectors`: the package's bin is in node_modules/.bin, not on
// PATH, so it goes through npx.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repairCommand } from "./command";

describe("cli: fleet's repair command", () => {
  it("starts with npx, names the fleet's directory relative to here, and the stack", () => {
    assert.equal(repairCommand(process.cwd())("acme-007"), "npx pulumi-embedded-connectors fleet up --stacks acme-007");
    assert.equal(
      repairCommand(path.join(process.cwd(), "fleet"))("acme-007"),
      "npx pulumi-embedded-connectors fleet up --dir fleet --stacks acme-007",
    );
  });

  it("quotes a directory a shell would split or expand, so that it runs as printed", () => {
    const rel = "fleets/it's $HOME; a b";
    const printed = repairCommand(path.join(process.cwd(), rel))("acme-007");
    // The printed words as a POSIX shell hands them to the command.
    const words = execFileSync("sh", ["-c", printed.replace(/^npx /, "printf '%s\\n' ")], { encoding: "utf8" });
    assert.deepEqual(words.trimEnd().split("\n"), [
      "pulumi-embedded-connectors",
      "fleet",
      "up",
      "--dir",
      rel,
      "--stacks",
      "acme-007",
    ]);
  });
});
