// Writes docs/reference/: one page per resource and function of the plugin `embedded`, and one
// for its provider, from the schema the built plugin serves (scripts/plugin-schema.js), in the
// layout of a Pulumi registry package's API docs: the description, its example in TypeScript,
// Python, Go and YAML, then the inputs and outputs. The pages are committed;
// test/sdk/reference-docs.test.ts regenerates them into a temporary directory and compares.
// Usage: node scripts/reference-docs.js [--out <dir>]   (after npm run build; default: docs/reference)
const fs = require("fs");
const prettier = require("prettier");
const path = require("path");
const { scriptArgs } = require("./args");
const { pluginSchema } = require("./plugin-schema");

const root = path.resolve(__dirname, "..");
const HEADER = "<!-- Generated from the plugin's schema by `npm run docs:reference`: do not edit. -->";
const LANGUAGE_NAMES = { typescript: "TypeScript", python: "Python", go: "Go", yaml: "YAML" };

/** `AddedConnector` → `added-connector`. */
function pageName(name) {
  return name.replace(/[A-Z]/g, (c, at) => `${at === 0 ? "" : "-"}${c.toLowerCase()}`);
}

function typeName(spec) {
  if (spec.$ref === "pulumi.json#/Any") return "any";
  if (spec.$ref) return spec.$ref.split(":").pop();
  if (spec.type === "array") return `${typeName(spec.items)}[]`;
  if (spec.type === "object" && spec.additionalProperties) return `map(${typeName(spec.additionalProperties)})`;
  return spec.type;
}

/** One line of a Markdown table cell. */
function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\n+/g, " ");
}

function table(properties = {}, required = []) {
  const names = Object.keys(properties);
  if (names.length === 0) return "None.\n";
  const rows = names.map((name) => {
    const spec = properties[name];
    const notes = [
      required.includes(name) ? "required" : "",
      spec.secret ? "secret" : "",
      spec.replaceOnChange ? "replaces" : "",
    ]
      .filter(Boolean)
      .join(", ");
    return `| \`${name}\` | ${cell(typeName(spec))} | ${notes} | ${cell(spec.description ?? "")} |`;
  });
  return ["| Name | Type | | Description |", "|---|---|---|---|", ...rows, ""].join("\n");
}

/** The description's text, and its examples as Markdown: each language's block under its name. */
function describe(description) {
  const [text, examples = ""] = description.split(/\n*\{\{% examples %\}\}\n?/);
  const body = examples
    .replace(/\{\{% \/?examples? %\}\}\n?/g, "")
    .replace(/^```(\w+)\n/gm, (_, language) => `**${LANGUAGE_NAMES[language] ?? language}**\n\n\`\`\`${language}\n`)
    .replace(/^```\n(?=\*\*|\s*$)/gm, "```\n\n")
    .trim();
  return { text: text.trim(), examples: body };
}

function page(title, token, description, sections) {
  const { text, examples } = describe(description);
  const parts = [HEADER, "", `# ${title}`, "", `\`${token}\``, "", text, ""];
  if (examples) parts.push(examples, "");
  for (const [heading, content] of sections) parts.push(`## ${heading}`, "", content);
  return `${parts
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function typesPage(schema) {
  const sections = Object.entries(schema.types).map(([token, spec]) => [
    token.split(":").pop(),
    `${spec.description ?? ""}\n\n${table(spec.properties, spec.required)}`,
  ]);
  return page("Object types", `${schema.name}:index:*`, "The object types the functions return.", sections);
}

function pages(schema) {
  const out = {};
  for (const [token, spec] of Object.entries(schema.resources)) {
    const name = token.split(":").pop();
    out[`${pageName(name)}.md`] = page(name, token, spec.description, [
      ["Inputs", table(spec.inputProperties, spec.requiredInputs)],
      ["Outputs", table(spec.properties, spec.required)],
    ]);
  }
  for (const [token, spec] of Object.entries(schema.functions)) {
    const name = token.split(":").pop();
    out[`${pageName(name)}.md`] = page(name, token, spec.description, [
      ["Arguments", table(spec.inputs.properties, spec.inputs.required)],
      ["Result", table(spec.outputs.properties, spec.outputs.required)],
    ]);
  }
  out["provider.md"] = page("Provider", `pulumi:providers:${schema.name}`, schema.provider.description, [
    ["Arguments (and stack config `embedded:<name>`)", table(schema.provider.inputProperties)],
  ]);
  out["types.md"] = typesPage(schema);
  const index = Object.keys(out)
    .sort()
    .map((file) => `- [${file.replace(/\.md$/, "")}](${file})`);
  out["README.md"] =
    `${HEADER}\n\n# Reference\n\nThe plugin \`${schema.name}\` ${schema.version}: ${schema.description}\n\n${index.join("\n")}\n`;
  return out;
}

async function main() {
  const args = scriptArgs("node scripts/reference-docs.js [--out <dir>]", {
    out: { type: "string", default: path.join(root, "docs", "reference") },
  });
  const out = path.resolve(args.out);
  const schema = JSON.parse(await pluginSchema());
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  // Formatted as `prettier --check .` (the lint) wants the committed pages.
  for (const [file, text] of Object.entries(pages(schema))) {
    const options = (await prettier.resolveConfig(path.join(root, "docs", "reference", file))) ?? {};
    fs.writeFileSync(path.join(out, file), await prettier.format(text, { ...options, parser: "markdown" }));
  }
  console.log(out);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`reference-docs: ${error.message}`);
    process.exit(1);
  });
}
