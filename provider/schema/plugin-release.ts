// The plugin's version and release source, both from the package's package.json: its version (the
// SDKs ask the engine for this version of `embedded`) and its `pulumi.server`, the one place the
// release URL is configured (the schema's pluginDownloadURL, hence every SDK, and the Node.js
// language host, which reads the `pulumi` field itself).
interface PackageJson {
  version: string;
  pulumi: { server: string };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const packageJson = require("../../../package.json") as PackageJson;

export const PLUGIN_VERSION: string = packageJson.version;

/** Where the engine downloads the plugin's release archives from (`github://<api host>/<owner>/<repo>`: its releases). */
export const PLUGIN_DOWNLOAD_URL: string = packageJson.pulumi.server;
