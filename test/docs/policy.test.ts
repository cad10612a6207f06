// docs/policy.md's shell blocks: the pack folder they name is the one the package ships, and every
// flag they pass exists (`fleet preview --help`, as the CLI prints it). test/e2e/fleet-policy.test.ts
// runs both blocks as written (the package installed by name from the loopback registry). Its
// config and program blocks (YAML, Python, Go) are files the engine tests run (doc-examples.test.ts
// keeps them equal): fleet-policy.test.ts and policy-pack.test.ts.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const DOC = readFileSync(path.join(ROOT, "docs", "policy.md"), "utf8");
const shellBlocks = [...DOC.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

describe("docs: policy.md's commands", () => {
  it("name the pack folder the package ships", () => {
    const files = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] }).files;
    assert.ok(files.includes("policy"));
    assert.ok(existsSync(path.join(ROOT, "policy", "PulumiPolicy.yaml")));
    assert.equal(shellBlocks.length, 2);
    for (const block of shellBlocks)
      assert.match(block, /--policy-pack \S*node_modules\/pulumi-embedded-connectors\/policy /);
  });

  it("pass only flags that `fleet preview` takes", () => {
    const help = execFileSync(
      process.execPath,
      [path.join(ROOT, "dist", "cli", "main.js"), "fleet", "preview", "--help"],
      {
        encoding: "utf8",
      },
    );
    const fleet = shellBlocks.find((block) => block.includes("fleet preview")) ?? "";
    for (const [flag] of fleet.matchAll(/--[a-z-]+/g))
      assert.ok(help.includes(flag), `fleet preview --help lists ${flag}`);
  });
});
