// The plugin's version: the package's (the SDK asks the engine for this version of `embedded`).
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const PLUGIN_VERSION: string = (require("../../../package.json") as { version: string }).version;
