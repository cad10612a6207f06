// The first hour of a new user: the commands README.md and the docs
// give in a fresh clone work as written, and the drift story is one command everywhere.
// - Every `npm …` command a doc gives runs a package.json script that builds before it reads
//   dist/ (`npm ci && npm run service` used to exit MODULE_NOT_FOUND: nothing had built).
// - `npm start`'s hints name only what exists.
// - The drift check is one command, word for word the same in README.md,
//   docs/installation-configuration.md, docs/drift.md, the examples' READMEs and `npm start`, and it asks for `--diff`
//   (without it the engine prints only `~ 1 to update`, not the field). It is `pulumi preview
//   --refresh …`: `refresh --preview-only` fails under PULUMI_SKIP_CONFIRMATIONS (CI's setting).
// - Each recipe's Pulumi.yaml makes `pulumi up` refresh, so "the next `pulumi up` writes your
//   values back" holds (test/e2e/by-name-suite.ts runs it: break, detect, repair, clean).
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { noDigestKeyWarning, SET_DIGEST_KEY } from "../../provider/settings/resolve";
import { seedCustomers } from "../../service/seed/customers";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const SCRIPTS = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

/** README.md, RELIABILITY.md, docs/**.md and the examples' READMEs. */
function docs(): string[] {
  const found = ["README.md", "RELIABILITY.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules") walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  walk("examples");
  return found;
}

/** The npm scripts a text runs: `npm start`, `npm test`, `npm run <name>`. */
function npmScripts(text: string): string[] {
  return [...text.matchAll(/\bnpm (?:run (\S+?)|(start|test))(?=[\s`),;]|$)/gm)].map((m) => m[1] ?? m[2]);
}

/** Why a script would read dist/ before anything built it, or undefined when it builds first. */
function readsDistUnbuilt(name: string, scripts: Record<string, string>, built = false): string | undefined {
  const script = scripts[name];
  if (script === undefined) return `there is no script "${name}"`;
  for (const part of script.split("&&").map((p) => p.trim())) {
    const nested = /^npm run (\S+)/.exec(part)?.[1];
    if (nested === "build") built = true;
    else if (nested) {
      const why = readsDistUnbuilt(nested, scripts, built);
      if (why) return why;
    } else if (!built && /\bdist\//.test(part)) return `"${name}" runs \`${part}\` before any build`;
  }
  return undefined;
}

/** The line of a doc's sh blocks that ends with `# the drift check…`, without its comment. */
function driftLine(text: string): string | undefined {
  for (const [, block] of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm))
    for (const line of block.split("\n"))
      if (/#\s*the drift check/.test(line)) return line.replace(/\s+#.*$/, "").trim();
  return undefined;
}

describe("docs: the first hour's commands work as written", () => {
  it("every npm script a doc gives exists and builds before it reads dist/ (npm ci && npm run service)", () => {
    const named = new Map<string, string>();
    for (const doc of docs()) for (const script of npmScripts(read(doc))) named.set(script, doc);
    assert.ok(named.has("service") && named.has("start"), "README.md gives `npm run service` and `npm start`");
    for (const [script, doc] of named)
      assert.equal(readsDistUnbuilt(script, SCRIPTS), undefined, `${doc}: npm run ${script}`);
  });

  it("the check itself sees a script that reads dist/ unbuilt", () => {
    const scripts = { build: "tsc", service: "node dist/service/server.js", ok: "npm run build && node dist/x.js" };
    assert.match(readsDistUnbuilt("service", scripts) ?? "", /before any build/);
    assert.equal(readsDistUnbuilt("ok", scripts), undefined);
    assert.match(readsDistUnbuilt("missing", scripts) ?? "", /no script/);
  });

  it("npm start's hints name docs that hold what they promise", () => {
    const start = read("harness/quickstart.ts");
    assert.doesNotMatch(start, /curl PUT \(README\.md\)/);
    const named = [...start.matchAll(/\b((?:docs|examples)\/[\w./-]+\.md|README\.md)\b/g)].map((m) => m[1]);
    assert.ok(named.includes("docs/local-service.md"), "the out-of-band change is docs/local-service.md's curl PUT");
    for (const doc of named) read(doc); // exists
    assert.match(read("docs/local-service.md"), /curl -s -X PUT /);
  });

  it("README's Configure and run sets embedded:digestKey with the command the provider's warning gives", () => {
    const readme = read("README.md");
    const start = readme.indexOf("### Configure and run");
    const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? "";
    const line = block.split("\n").find((l) => l.includes("embedded:digestKey")) ?? "";
    assert.equal(line.replace(/\s+#.*$/, ""), SET_DIGEST_KEY, block);
    assert.ok(noDigestKeyWarning().includes(SET_DIGEST_KEY));
    assert.ok(block.indexOf("embedded:digestKey") < block.indexOf("pulumi up"), "set before the first up");
    assert.match(read("harness/quickstart.ts"), /"embedded:digestKey"/, "npm start sets one too: no warning");
  });

  it("README's Five minutes names each recipe's program as the recipe has it, and warns of one sub-account per recipe", () => {
    const readme = read("README.md");
    const five = readme.slice(readme.indexOf("## Five minutes"), readme.indexOf("### Configure and run"));
    assert.doesNotMatch(five, /the program is "Example"/, "the TypeScript recipe's program is its own index.ts");
    const recipe = read("docs/installation-configuration.md");
    const tsRecipe = /```typescript\n\/\/ index\.ts\n([\s\S]*?)```/.exec(recipe)?.[1] ?? "";
    assert.match(tsRecipe, /ec\.embedded\./);
    assert.match(five, /recipe's `index\.ts`[\s\S]*`ec\.embedded\.\*`/);
    assert.match(five, /a second recipe on the same service is refused/);
    // The other sub-accounts named are the local service's seeded customer's.
    for (const id of seedCustomers()[0].subAccountIds.slice(1)) assert.ok(five.includes(id), id);
  });

  it("the drift check is one command, the same in README, the docs and npm start, and names the field", () => {
    const command = driftLine(read("README.md"));
    assert.ok(command, "README.md's Configure and run gives the drift check");
    assert.match(command, /--expect-no-changes/, "it fails on drift");
    assert.match(command, /--diff/, "it prints the fields, not only `~ 1 to update`");
    assert.equal(driftLine(read("docs/installation-configuration.md")), command);
    assert.ok(read("docs/drift.md").includes(`\`\`\`sh\n${command}\n\`\`\``), "docs/drift.md shows it");
    assert.ok(read("harness/quickstart.ts").includes(`const DRIFT_CHECK = "${command}";`), "npm start runs it");
    const examples = docs().filter((doc) => doc.startsWith("examples"));
    for (const doc of ["README.md", "docs/installation-configuration.md", "docs/drift.md", ...examples])
      for (const [, block] of read(doc).matchAll(/^```sh\n([\s\S]*?)^```$/gm))
        for (const line of block.split("\n").filter((l) => l.includes("--expect-no-changes")))
          assert.equal(line.replace(/\s+#.*$/, ""), command, `${doc} gives no other drift check`);
  });

  it("each recipe's Pulumi.yaml makes `pulumi up` refresh (the next up writes your values back)", () => {
    const files: string[] = [];
    for (const doc of ["README.md", "docs/installation-configuration.md"]) {
      for (const [, block] of read(doc).matchAll(/^```yaml\n(# Pulumi\.yaml\n[\s\S]*?)^```$/gm)) files.push(block);
      for (const [, heredoc] of read(doc).matchAll(/cat > Pulumi\.yaml <<'EOF'\n([\s\S]*?)^EOF$/gm))
        files.push(heredoc);
    }
    assert.equal(files.length, 7, "README's three recipes, and the doc's three and the Go recipe");
    for (const file of files)
      assert.equal((parse(file) as { options?: { refresh?: string } }).options?.refresh, "always", file);
  });
});
