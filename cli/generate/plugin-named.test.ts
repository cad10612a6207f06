// A program on the plugin's resources and its import file name the plugin's version and release
// URL, as the recipes do: `pulumi import` runs no program, and an engine whose plugin cache lacks
// `embedded` would otherwise look for pulumi/pulumi-embedded (docs/import.md).
import { strict as assert } from "node:assert";
import { parse } from "yaml";
import { generateFiles, type ConnectorSnapshot } from "./";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../../provider/schema/plugin-release";

const connectors: ConnectorSnapshot[] = [
  {
    connectorId: "429b6c0a4f64274d",
    name: "Segment",
    supportedType: "Source",
    configuration: {
      fields: [{ id: "workspace", label: "Workspace", type: "Text", required: true, readonly: false, value: "acme" }],
    },
  },
];

describe("cli: generate names the plugin's version and release URL", () => {
  for (const language of ["ts", "python", "go", "yaml"] as const) {
    it(`import.json of --language ${language}: each entry names them`, () => {
      const files = generateFiles("239a5bbdbe543163", connectors, { language, resources: "plugin" });
      const entries = (JSON.parse(files.importFile ?? "{}") as { resources: Record<string, unknown>[] }).resources;
      assert.equal(entries.length, 2);
      for (const entry of entries) {
        assert.equal(entry.version, PLUGIN_VERSION, JSON.stringify(entry));
        assert.equal(entry.pluginDownloadUrl, PLUGIN_DOWNLOAD_URL, JSON.stringify(entry));
      }
    });
  }

  it("the YAML program: each resource's options name them, as the YAML recipe does", () => {
    const files = generateFiles("239a5bbdbe543163", connectors, { language: "yaml" });
    const program = parse(files.program.text) as { resources: Record<string, { options?: Record<string, unknown> }> };
    const resources = Object.values(program.resources);
    assert.equal(resources.length, 2);
    for (const resource of resources) {
      assert.deepEqual(resource.options, { version: PLUGIN_VERSION, pluginDownloadURL: PLUGIN_DOWNLOAD_URL });
    }
  });
});
