// The blocks of one section of docs/installation-configuration.md, as the tests that run them
// as written read them (by-name-suite.ts, by-name-registries.ts, test/release/registries-settings.test.ts).
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";

/** A language's section: its files and its shell commands, in order. */
export interface DocSection {
  files: [string, string][];
  commands: string[];
}

const DOC = path.join(repoRoot, "docs", "installation-configuration.md");

/** The files (a block whose first line is `# <name>` or `// <name>`) and `sh` blocks under `## <heading>`. */
export async function docSection(heading: string): Promise<DocSection> {
  const text = await fs.readFile(DOC, "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${path.relative(repoRoot, DOC)} has a section "## ${heading}"`);
  const body = text.slice(start + 1).split(/\n## /)[0];
  const section: DocSection = { files: [], commands: [] };
  for (const [, info, block] of body.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    const file = /^(?:#|\/\/) ([\w.-]+\.\w+)\n/.exec(block)?.[1];
    if (file) section.files.push([file, block]);
    else if (info === "sh") section.commands.push(block);
  }
  return section;
}
