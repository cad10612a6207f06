// A secret lookup argument, on examples/yaml-sub-account's stack (yaml-example-stack.ts, shared with
// yaml-example.test.ts): the engine hands a function's arguments to the plugin without their
// secretness, and a YAML program cannot name them (docs/secrets.md). A lookup given a secret
// name fails, naming the argument and never its value, even with --diff --debug.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ENGINE_TIMEOUT_MS } from "./harness";
import { assertNoLeak } from "./canaries";
import { yamlCanaries, yamlExample } from "./yaml-example-stack";

describe("e2e: examples/yaml-sub-account: a lookup given a secret name", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = yamlExample.use();
  const { secretLookupName } = yamlCanaries;

  it("a lookup given a secret name fails, naming the argument and never its value (--diff --debug)", async () => {
    // The name is read from a file: Pulumi YAML quotes the program's lines around an error, so a
    // literal would be printed by Pulumi itself (docs/secrets.md); and the CLI would mask a
    // secret string of stack config in all it prints, hiding what the plugin printed.
    await fs.writeFile(path.join(e2e.stack.workDir, "secret-lookup-name.txt"), secretLookupName);
    const file = path.join(e2e.stack.workDir, "Pulumi.yaml");
    const program = await fs.readFile(file, "utf8");
    const lookup = [
      "variables:",
      "  secretLookup:",
      "    fn::invoke:",
      "      function: embedded:index:findConnector",
      "      arguments:",
      "        name:",
      "          fn::secret:",
      "            fn::readFile: ./secret-lookup-name.txt",
      "        supportedType: Source",
      "",
    ].join("\n");
    for (const section of ["\nvariables:\n", "\noutputs:\n"])
      assert.equal(program.split(section).length - 1, 1, `Pulumi.yaml has one ${section.trim()} section`);
    const edited = program
      .replace("\nvariables:\n", `\n${lookup}`)
      .replace("\noutputs:\n", "\noutputs:\n  secretLookup: ${secretLookup.connectorId}\n");
    await fs.writeFile(file, edited);
    try {
      const printed = await e2e.stack.expectFailure((s) => s.preview({ diff: true, debug: true }));
      assert.match(printed, /no connector named \(the secret argument name\)/);
    } finally {
      await fs.writeFile(file, program);
    }
    // What this run left, wherever the two files' order puts it (yaml-example.test.ts scans the
    // stack's whole life for every canary, this one included).
    assertNoLeak(e2e.stack.engineOutput(), secretLookupName, "the engine's output");
    assertNoLeak(await e2e.stack.backendText(), secretLookupName, "the backend's files");
    assertNoLeak(e2e.svc.logs.join(""), secretLookupName, "the service's log");
  });
});
