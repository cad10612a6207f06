// `npm run types`: writes provider/schema/resource-types.ts, the TypeScript Args and Outputs of the
// resources and the provider, from their definitions (provider/schema/type-writer.ts, compiled),
// formatted by the repository's prettier settings. provider/schema/resource-types.test.ts checks
// that the committed file is what this writes.
const fs = require("node:fs");
const path = require("node:path");
const prettier = require("prettier");

const root = path.resolve(__dirname, "..");
const FILE = path.join(root, "provider/schema/resource-types.ts");

/** The file's text as the definitions give it now. */
async function generatedResourceTypes() {
  const { resourceTypesSource } = require(path.join(root, "dist/provider/schema/type-writer.js"));
  const options = (await prettier.resolveConfig(FILE)) ?? {};
  return prettier.format(resourceTypesSource(), { ...options, filepath: FILE });
}

module.exports = { FILE, generatedResourceTypes };

if (require.main === module) {
  generatedResourceTypes().then((text) => {
    fs.writeFileSync(FILE, text);
    process.stdout.write(`wrote ${path.relative(root, FILE)}\n`);
  });
}
