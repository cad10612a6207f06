// The schema's examples (schema/examples.ts): one per resource and the lookup by name, in
// TypeScript, Python, Go and YAML, each still an excerpt of the example program the e2e runs
// (verbatim but for indentation), and each in the description the plugin serves.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";
import { EXAMPLE_LANGUAGES, EXAMPLES } from "./examples";
import { packageSchema, token } from "./package-schema";

/** Whether `code` is a run of consecutive lines of `program`, all shifted by one indentation. */
export function isExcerptOf(code: string, program: string): boolean {
  const want = code.split("\n");
  const lines = program.split("\n");
  for (let start = 0; start + want.length <= lines.length; start++) {
    const indent = lines[start].slice(0, lines[start].length - want[0].length);
    if (lines[start] !== indent + want[0] || indent.trim() !== "") continue;
    if (want.every((line, i) => lines[start + i] === (line === "" ? "" : indent + line))) return true;
  }
  return false;
}

/** The e2e tests that run each example program. */
const RUN_BY: Record<string, string> = {
  "provider/fleet/program.ts": "test/e2e/fleet.test.ts", // examples/fleet/index.ts is `export = fleetProgram();`
  "examples/python-sub-account/__main__.py": "test/e2e/python-example.test.ts",
  "examples/go-sub-account/main.go": "test/e2e/go-example.test.ts",
  "examples/yaml-sub-account/Pulumi.yaml": "test/e2e/yaml-example.test.ts",
};

describe("definitions: the schema's examples", () => {
  it("every resource and findConnector has one, in TypeScript, Python, Go and YAML", () => {
    assert.deepEqual(Object.keys(EXAMPLES).sort(), ["AddedConnector", "ConnectorConfiguration", "findConnector"]);
    for (const example of Object.values(EXAMPLES))
      for (const language of EXAMPLE_LANGUAGES) assert.ok(example[language].code.trim() !== "", language);
  });

  it("each is an excerpt of an example program that an e2e test runs", async () => {
    for (const [name, example] of Object.entries(EXAMPLES)) {
      for (const language of EXAMPLE_LANGUAGES) {
        const { program, code } = example[language];
        const text = await fs.readFile(path.join(repoRoot, program), "utf8");
        assert.ok(isExcerptOf(code, text), `${name}'s ${language} example is no longer an excerpt of ${program}`);
        const runner = RUN_BY[program];
        assert.ok(runner, `${program} is run by an e2e test`);
        const test = await fs.readFile(path.join(repoRoot, runner), "utf8");
        assert.ok(test.includes(path.dirname(program).split("/")[1]), `${runner} runs ${program}`);
      }
    }
  });

  it("the excerpt check refuses a changed line and accepts a re-indented run", () => {
    const program = "a\n  b(1)\n  c\nd";
    assert.ok(isExcerptOf("b(1)\nc", program));
    assert.ok(!isExcerptOf("b(2)\nc", program));
    assert.ok(!isExcerptOf("b(1)\nd", program));
  });

  it("the plugin's schema carries each in its resource's or function's description, in Pulumi's example shortcodes", () => {
    const schema = packageSchema("0.1.0") as {
      resources: Record<string, { description: string }>;
      functions: Record<string, { description: string }>;
    };
    for (const [name, example] of Object.entries(EXAMPLES)) {
      const spec = schema.resources[token(name)] ?? schema.functions[token(name)];
      assert.ok(spec, name);
      assert.match(spec.description, /\{\{% examples %\}\}[\s\S]*\{\{% example %\}\}[\s\S]*\{\{% \/examples %\}\}$/);
      for (const language of EXAMPLE_LANGUAGES)
        assert.ok(
          spec.description.includes(`\`\`\`${language}\n${example[language].code}\n\`\`\``),
          `${name}: ${language}`,
        );
    }
  });
});
