// docs/reference/ is generated from the schema the built plugin serves (scripts/reference-docs.js,
// `npm run docs:reference`): regenerating it into a temporary directory must give exactly the
// committed pages, one per resource and function, each with its example in every language.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";
import { EXAMPLES } from "../../provider/schema/examples";
import { packageSchema } from "../../provider/schema/package-schema";

const committedDir = path.join(repoRoot, "docs", "reference");
const pageOf = (name: string): string => `${name.replace(/[A-Z]/g, (c, at: number) => `${at === 0 ? "" : "-"}${c.toLowerCase()}`)}.md`;

describe("docs/reference: the pages generated from the plugin's schema", function () {
  this.timeout(120_000);
  let generated: string;

  before(async () => {
    generated = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-reference-"));
    await promisify(execFile)(process.execPath, [path.join(repoRoot, "scripts", "reference-docs.js"), "--out", generated], { cwd: repoRoot });
  });

  after(async () => {
    if (generated) await fs.rm(generated, { recursive: true, force: true });
  });

  it("the committed pages are exactly what the generator writes today (else: npm run docs:reference)", async () => {
    const [want, have] = await Promise.all([fs.readdir(generated), fs.readdir(committedDir)]);
    assert.deepEqual(have.sort(), want.sort(), "the same pages");
    for (const file of want) {
      const [a, b] = await Promise.all([fs.readFile(path.join(generated, file), "utf8"), fs.readFile(path.join(committedDir, file), "utf8")]);
      assert.ok(a === b, `docs/reference/${file} is stale: run \`npm run docs:reference\` and commit docs/reference/`);
    }
  });

  it("one page per resource and function, each example in TypeScript, Python, Go and YAML", async () => {
    const schema = packageSchema("0.1.0") as { resources: object; functions: object };
    const names = [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map((token) => token.split(":")[2]);
    const files = await fs.readdir(generated);
    for (const name of names) assert.ok(files.includes(pageOf(name)), `a page for ${name}`);
    for (const [name, example] of Object.entries(EXAMPLES)) {
      const text = await fs.readFile(path.join(generated, pageOf(name)), "utf8");
      for (const [label, language] of [["TypeScript", "typescript"], ["Python", "python"], ["Go", "go"], ["YAML", "yaml"]] as const) {
        assert.ok(text.includes(`**${label}**`), `${name}: ${label}`);
        assert.ok(text.includes(example[language].code.split("\n")[0]), `${name}: the ${label} example`);
      }
    }
  });
});
