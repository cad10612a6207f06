// The docs show the example programs the end-to-end tests run, character for character
// (scripts/doc-examples.js): a doc cannot drift from a program that works.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sync } = require(path.join(ROOT, "scripts", "doc-examples.js")) as {
  sync(): { file: string; examples: string[]; missing: string[]; changed: boolean }[];
};

describe("docs: example programs shown are the files the tests run", () => {
  const results = sync();

  it("the overview shows the example in TypeScript, Python, Go and YAML", () => {
    const overview = results.find((r) => r.file === path.join("docs", "_index.md"));
    assert.ok(overview, "docs/_index.md exists");
    for (const file of [
      "examples/quickstart/index.ts",
      "examples/python-sub-account/__main__.py",
      "examples/go-sub-account/main.go",
      "examples/yaml-sub-account/Pulumi.yaml",
    ])
      assert.ok(overview.examples.includes(file), `docs/_index.md shows ${file}`);
  });

  it("README's five-minute recipes and doctor commands are blocks that tests run as written", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const from = (doc: string) => readme.split(`<!-- from: ${doc} -->`).length - 1;
    assert.ok(from("docs/installation-configuration.md") >= 5, "README's recipes come from the by-name tested doc");
    assert.ok(from("docs/hosted-service.md") >= 2, "README's doctor commands come from the tested doc");
    const readmeResult = results.find((r) => r.file === "README.md");
    assert.deepEqual(readmeResult?.missing, [], "every such README block is still in its doc");
  });

  it("every shown example equals its file (else: node scripts/doc-examples.js)", () => {
    const stale = results.filter((r) => r.changed).map((r) => r.file);
    assert.deepEqual(stale, [], `these docs show an example that differs from its file: ${stale.join(", ")}`);
  });
});
