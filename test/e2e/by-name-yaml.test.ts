// A Pulumi YAML user needs no package manager: docs/installation-configuration.md's "## YAML"
// program names the plugin's version and release URL, and the engine downloads the plugin. PATH
// holds the engine's programs alone: no node. By-name-suite.ts runs the rest.
import { describeByName } from "./by-name-suite";

describeByName({
  language: "YAML",
  tools: [],
  async registryEnv() {
    return {};
  },
});
