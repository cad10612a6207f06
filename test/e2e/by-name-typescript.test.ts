// A TypeScript user installs the package by name from an npm registry on loopback (verdaccio,
// filled by scripts/publish/npm.sh), with docs/installation-configuration.md's "## TypeScript"
// commands as written; the npm registry setting is the user's (NPM_CONFIG_REGISTRY from `npm run
// registries`' env, an empty user npmrc). By-name-suite.ts runs the rest.
import * as path from "node:path";
import { promises as fs } from "node:fs";
import { describeByName } from "./by-name-suite";

describeByName({
  language: "TypeScript",
  tools: null,
  async registryEnv(_registries, tmp) {
    const npmrc = path.join(tmp, "user.npmrc");
    await fs.writeFile(npmrc, "");
    return { NPM_CONFIG_USERCONFIG: npmrc, NPM_CONFIG_AUDIT: "false" };
  },
});
