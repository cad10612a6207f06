// A TypeScript user installs the package by name from an npm registry on loopback (verdaccio,
// filled by scripts/publish/npm.sh), with docs/installation-configuration.md's "## TypeScript"
// commands as written; the npm registry setting is the user's (NPM_CONFIG_REGISTRY from `npm run
// registries`' env, an empty user npmrc: by-name-users.ts). By-name-suite.ts runs the rest.
import { describeByName } from "./by-name-suite";
import { npmUserEnv } from "./by-name-users";

describeByName({
  language: "TypeScript",
  tools: null,
  registryEnv: (_registries, tmp) => npmUserEnv(tmp),
});
