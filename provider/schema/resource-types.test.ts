// The TypeScript types of the resources are generated from their definitions: the committed
// resource-types.ts is exactly what `npm run types` writes, so a definition changed without
// regenerating (or a hand edit of the file) fails here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ADDED_CONNECTOR } from "./added-connector";
import { CONNECTOR_CONFIGURATION } from "./connector-configuration";

const ROOT = path.resolve(__dirname, "../../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { FILE, generatedResourceTypes } = require(path.join(ROOT, "scripts/generate-types.js")) as {
  FILE: string;
  generatedResourceTypes(): Promise<string>;
};

describe("the generated TypeScript resource types", () => {
  it("resource-types.ts is what the definitions give (run `npm run types` after changing one)", async () => {
    assert.equal(readFileSync(FILE, "utf8"), await generatedResourceTypes(), "provider/schema/resource-types.ts");
  });

  it("every input and output of each definition has its field, with its description", async () => {
    const text = await generatedResourceTypes();
    for (const definition of [ADDED_CONNECTOR, CONNECTOR_CONFIGURATION]) {
      const args = text.slice(text.indexOf(`export interface ${definition.name}Args`));
      for (const name of Object.keys(definition.inputs)) assert.match(args, new RegExp(`\\n  ${name}\\??: `), name);
      const outputs = text.slice(text.indexOf(`export interface ${definition.name}Outputs`));
      for (const name of Object.keys(definition.outputs)) assert.match(outputs, new RegExp(`readonly ${name}: `), name);
    }
    assert.match(text, /secretConfig: pulumi\.Input<Record<string, pulumi\.Input<SecretConfigValue>>>/);
  });
});
