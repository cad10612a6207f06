// examples/python-sub-account under the real engine (sdk-example-suite.ts), under the suite's CLI
// and NEWEST_CLI: the Python language host (pulumi-language-python, built by
// scripts/ensure-pulumi.sh) runs the program in the virtualenv of scripts/ensure-python.sh
// (PyPI's pulumi at the CLI's version, or the nearest PyPI serves, and the SDK pulumi_embedded
// regenerated from the built plugin's schema, regenerated-sdk.ts, pip-installed as a wheel built
// outside the checkout), its bin first on PATH as the README says.
import { NEWEST_CLI } from "./harness";
import { pythonEnv } from "./sdk-languages";
import { SECRET_LOOKUP_ENV } from "./sdk-example-canaries";
import { describeSdkExample } from "./sdk-example-suite";

/**
 * PyPI's `pulumi` for the run under NEWEST_CLI (v3.274.1): the PyPI this project is tested against (the registry of its CI machine) serves no 3.274.1, and 3.272.0 is
 * its newest release (`pip download pulumi==3.274.1` lists what it serves). The suite's CLI gets
 * its own version (ensure-python.sh's default).
 */
const PYPI_PULUMI_FOR_NEWEST_CLI = "3.272.0";

/**
 * Another resource whose output is secret: a component that hands a plain value on as a secret.
 * It registers no outputs: the Python SDK's --debug line `register resource outputs prepared`
 * prints a component's registered outputs, secret ones in plaintext (docs/secrets.md).
 */
const PYTHON_SECRET_HOLDER = `import os


class SecretHolder(pulumi.ComponentResource):
    def __init__(self, name, value):
        super().__init__("e2e:index:SecretHolder", name, None, None)
        self.value = pulumi.Output.secret(value)
        self.register_outputs({})


`;

/** A lookup whose name the program makes secret, when the test asks for it. */
const PYTHON_SECRET_LOOKUP = `
if config.get_bool("e2eSecretLookup"):
    secret_name = pulumi.Output.secret(os.environ["${SECRET_LOOKUP_ENV}"])
    found = embedded.find_connector_output(name=secret_name, supported_type="Source")
    pulumi.export("secretLookup", found.connector_id)
`;

describeSdkExample({
  language: "Python",
  example: "python-sub-account",
  programFile: "__main__.py",
  // Python literals: a JSON string or list of strings is one; a Number canary is a float literal.
  canaryEdits: (c) => [
    ['"accessKeyId": "AKIAPYTHONEXAMPLE"', `"accessKeyId": ${JSON.stringify(c.text)}`],
    ['"region": "eu-west-1"', `"region": ${JSON.stringify(c.select)}`],
    ['"fileFormats": ["csv", "parquet"]', `"fileFormats": ${JSON.stringify(c.multiSelect)}`],
    ['"maxFileSizeMb": 512,', `"maxFileSizeMb": ${c.number},\n        "startDate": ${JSON.stringify(c.date)},`],
    ['"eventTypes": ["track", "identify"]', `"eventTypes": ${JSON.stringify(c.partnerMultiSelect)}`],
    ['"batchSize": 500', `"batchSize": ${c.partnerNumber}`],
    // A Text the program makes secret; a Date that is another resource's secret
    // output (a component); a lookup's name made secret (sdk-example-canaries.ts).
    [
      '"workspace": "partner",',
      `"workspace": pulumi.Output.secret(${JSON.stringify(c.partnerSecretText)}),\n` +
        `        "backfillFrom": SecretHolder("heldBackfillFrom", ${JSON.stringify(c.partnerHeldDate)}).value,`,
    ],
    ["config = pulumi.Config()\n", `${PYTHON_SECRET_HOLDER}config = pulumi.Config()\n`],
    [
      'pulumi.export("partnerConfigured", partner_configuration.configured)\n',
      'pulumi.export("partnerConfigured", partner_configuration.configured)\n' + PYTHON_SECRET_LOOKUP,
    ],
  ],
  installStep: /pip install -r requirements\.txt/,
  prepare: (engineEnv, cliVersion) =>
    pythonEnv(engineEnv, cliVersion === NEWEST_CLI ? PYPI_PULUMI_FOR_NEWEST_CLI : undefined),
});
