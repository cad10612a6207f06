// A Python user installs pulumi_embedded by name from a Python package index on loopback
// (pypiserver, filled by scripts/publish/pypi.sh), with docs/installation-configuration.md's
// "## Python" commands as written; pip's index setting is the user's (PIP_INDEX_URL from `npm run
// registries`' env; the index redirects to PyPI for the packages it does not hold). PATH holds the engine's programs and
// python3 alone: no node; the engine runs with the virtualenv active, as the docs say (the Python
// language host of CLI 3.248 to 3.274 runs the `python` on PATH). By-name-suite.ts runs the rest.
import { describeByName } from "./by-name-suite";
import { activeVirtualenv, PIP_USER_ENV } from "./by-name-users";

describeByName({
  language: "Python",
  tools: ["python3"],
  registryEnv: async () => ({ ...PIP_USER_ENV }),
  activate: activeVirtualenv,
});
