// Where the engine gets the plugin `embedded` by itself: package.json's `pulumi` field (what the
// Node.js language host reports for a TypeScript program), the schema's pluginDownloadURL (hence
// the Python and Go SDKs) and the TypeScript SDK's resource options all name the same plugin,
// version and release URL, and the URL is configured once, in package.json `pulumi.server`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";
import { withPluginOptions } from "../hosts/sdk/provider";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "./plugin-release";
import { Plugin, resetRuntime } from "../../test/support/plugin-harness";

interface PackageJson {
  name: string;
  version: string;
  pulumi?: { resource?: boolean; name?: string; version?: string; server?: string };
}

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageJson;

describe("plugin: the release source (package.json `pulumi`, pluginDownloadURL)", () => {
  let schema: { name: string; version: string; pluginDownloadURL?: string };
  before(async () => {
    await resetRuntime();
    const plugin = await Plugin.start();
    schema = JSON.parse(await plugin.schema()) as typeof schema;
    plugin.close();
    await resetRuntime();
  });

  it("package.json's `pulumi` field names the plugin the package ships, at the package's own version", () => {
    assert.deepEqual(
      { resource: packageJson.pulumi?.resource, name: packageJson.pulumi?.name, version: packageJson.pulumi?.version },
      { resource: true, name: schema.name, version: packageJson.version },
      "`pulumi.version` must follow `version` (the plugin serves the package's version): bump both",
    );
    assert.equal(schema.version, packageJson.version);
  });

  it("the release URL is a GitHub-releases source, <host>/<owner>/<repo>, set once in package.json", () => {
    assert.match(packageJson.pulumi?.server ?? "", /^github:\/\/[^/]+\/[^/]+\/[^/]+$/);
    assert.equal(PLUGIN_DOWNLOAD_URL, packageJson.pulumi?.server);
  });

  it("the schema the plugin serves names it as pluginDownloadURL (what the generated SDKs carry)", () => {
    assert.equal(schema.pluginDownloadURL, packageJson.pulumi?.server);
  });

  it("the TypeScript SDK asks for that plugin, version and URL unless the caller says otherwise", () => {
    assert.deepEqual(withPluginOptions({}), { version: PLUGIN_VERSION, pluginDownloadURL: packageJson.pulumi?.server });
    assert.deepEqual(withPluginOptions({ pluginDownloadURL: "https://mirror.example/p" }), {
      version: PLUGIN_VERSION,
      pluginDownloadURL: "https://mirror.example/p",
    });
  });
});
