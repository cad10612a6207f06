// Keeps the example programs shown in the docs identical to the example files the end-to-end
// tests run. A Markdown line `<!-- example: <path from the repository root> -->` is followed by
// a fenced block holding that file's text. `node scripts/doc-examples.js` rewrites every such
// block from its file; `--check` only reports the blocks that differ (exit 1), and
// test/docs/doc-examples.test.ts runs it, so a doc cannot show a program the tests do not run.
// A line `<!-- from: <doc> -->` before a fenced block says the block is one of that doc's blocks,
// which a test runs as written: `--check` (and the test) fail when the doc no longer holds it.
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const MARKER = /^<!-- example: (\S+) -->\n(`{3,})(\w*)\n(?:[\s\S]*?\n)??\2\n/gm;
const FROM = /^<!-- from: (\S+) -->\n(`{3,})(\w*)\n([\s\S]*?\n)??\2\n/gm;

/** The Markdown files that may carry examples: README.md and docs/ (recursively). */
function markdownFiles() {
  const found = [path.join(root, "README.md")];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".md")) found.push(full);
    }
  };
  walk(path.join(root, "docs"));
  return found;
}

/** Every file's text with its example blocks rewritten from their files, and what changed. */
function sync() {
  const results = [];
  for (const file of markdownFiles()) {
    const text = fs.readFileSync(file, "utf8");
    const examples = [];
    const rewritten = text.replace(MARKER, (_whole, source, fence, lang) => {
      const body = fs.readFileSync(path.join(root, source), "utf8").replace(/\n$/, "");
      examples.push(source);
      return `<!-- example: ${source} -->\n${fence}${lang}\n${body}\n${fence}\n`;
    });
    // Blocks copied from a doc whose blocks a test runs: each must still be there, as written.
    const missing = [];
    for (const [, doc, fence, lang, body = ""] of text.matchAll(FROM)) {
      const source = fs.readFileSync(path.join(root, doc), "utf8");
      // As written there, at any indentation (a block inside a list item is indented).
      const written = (indent) => `${fence}${lang}\n${body}${fence}\n`.replace(/^(?=.)/gm, indent).replace(/^/, "\n");
      if (!["", "  ", "   ", "    "].some((indent) => source.includes(written(indent)))) missing.push(doc);
    }
    results.push({
      file: path.relative(root, file),
      examples,
      missing,
      changed: rewritten !== text || missing.length > 0,
      rewritten,
    });
  }
  return results;
}

module.exports = { sync };

if (require.main === module) {
  const { check } = require("./args").scriptArgs("node scripts/doc-examples.js [--check]", {
    check: { type: "boolean", default: false },
  });
  const stale = sync().filter((r) => r.changed);
  for (const r of stale) {
    if (check)
      console.error(
        r.missing.length > 0
          ? `${r.file}: a block is no longer in ${r.missing.join(", ")}; copy it again from there`
          : `${r.file}: an example differs from its file; run node scripts/doc-examples.js`,
      );
    else fs.writeFileSync(path.join(root, r.file), r.rewritten);
  }
  if (check && stale.length > 0) process.exit(1);
}
