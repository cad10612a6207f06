// provider/fleet/secret-sources.ts (the package's fleet program): which `{ env: NAME }` a stack file may route into a field:
// only names its customer's `secretEnv` allows, never the fleet's own
// credentials, and a secret source feeds Password fields only. And the example's own stack
// files pass with its customers.json.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { repoRoot } from "../../harness/engine";
import { ALWAYS_REFUSED, clearFieldRefusal, envSourceRefusal, globToRegExp, type Customer } from "./";

const customers: Record<string, Customer> = {
  acme: { clientId: "demo-client", clientSecretEnv: "ACME_CLIENT_SECRET", secretEnv: ["ACME_*", "SHARED_KEY"] },
  globex: { clientId: "other-client", clientSecretEnv: "GLOBEX_CLIENT_SECRET", secretEnv: ["*"] },
  initech: { clientId: "i", clientSecretEnv: "INITECH_SECRET" },
};
const refusal = (name: string, customer: string | undefined) =>
  envSourceRefusal(name, "connector s3, field bucket", customer, customers);

describe("fleet example: secret sources of a stack file", () => {
  it("acme's stack file cannot route another customer's secret or the fleet's credentials", () => {
    const cases: [string, string | undefined, RegExp][] = [
      ["GLOBEX_CLIENT_SECRET", "acme", /customer globex's client secret/],
      ["ACME_CLIENT_SECRET", "acme", /customer acme's client secret/], // its own, though ACME_* allows it
      ["PULUMI_CONFIG_PASSPHRASE", "acme", /the fleet's own credentials/],
      ["PULUMI_ACCESS_TOKEN", "globex", /the fleet's own credentials/], // an allow-list of * included
      ["pulumi_backend_url", "globex", /the fleet's own credentials/],
      ["EMBEDDED_CLIENT_SECRET", "globex", /the fleet's own credentials/],
      ["INITECH_SECRET", "globex", /customer initech's client secret/],
      ["AWS_SECRET_ACCESS_KEY", "acme", /the fleet's own credentials or its backend's or cloud's/],
      ["ACME_KEY_X", "initech", /not in customer initech's secretEnv in customers\.json \(none\)/],
      ["SHARED_KEYS", "acme", /not in customer acme's secretEnv in customers\.json \(ACME_\*, SHARED_KEY\)/],
      ["XACME_KEY", "acme", /not in customer acme's secretEnv/], // patterns are anchored
      ["ACME_KEY", "initech", /not in customer initech's secretEnv in customers\.json \(none\)/],
      ["ACME_KEY", undefined, /a stack without a customer takes no environment variable/],
      ["A B", "acme", /is not an environment variable's name/],
    ];
    for (const [name, customer, expected] of cases) {
      const why = refusal(name, customer);
      assert.match(why ?? "(allowed)", expected, `${name} in a stack of ${customer}`);
      assert.match(why ?? "", /^connector s3, field bucket: /);
    }
    for (const [name, customer] of [
      ["ACME_SEGMENT_API_KEY", "acme"],
      ["SHARED_KEY", "acme"],
      ["ANYTHING_ELSE", "globex"],
    ]) {
      assert.equal(refusal(name, customer), undefined, `${name} in a stack of ${customer}`);
    }
    assert.ok(globToRegExp("A?C.*").test("ABC.x") && !globToRegExp("A?C.*").test("ABCx"));
  });

  it("the backend's, the clouds' and the CI's credentials are refused whatever secretEnv says", () => {
    const everything: Record<string, Customer> = {
      ...customers,
      open: { clientId: "o", clientSecretEnv: "OPEN_SECRET", secretEnv: ["*", "AWS_SECRET_ACCESS_KEY", "?*"] },
    };
    const credentials = [
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "aws_access_key_id",
      "AZURE_CLIENT_SECRET",
      "ARM_CLIENT_SECRET",
      "GOOGLE_CREDENTIALS",
      "GCLOUD_KEYFILE_JSON",
      "VAULT_TOKEN",
      "GITHUB_TOKEN",
      "gh_token",
      "GH_ENTERPRISE_TOKEN",
      "GITHUB_ENTERPRISE_TOKEN",
      "CLOUDSDK_AUTH_ACCESS_TOKEN",
      "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
      "ACTIONS_RUNTIME_TOKEN",
      "NPM_TOKEN",
      "PULUMI_ACCESS_TOKEN",
      "Pulumi_Config_Passphrase",
      "EMBEDDED_CLIENT_SECRET",
    ];
    for (const name of credentials) {
      const why = envSourceRefusal(name, "connector s3, field secretAccessKey", "open", everything);
      assert.match(why ?? "(allowed)", /one of the fleet's own credentials or its backend's or cloud's/, name);
      assert.ok(
        why?.includes(
          "AWS_*, AZURE_*, ARM_*, GOOGLE_*, GCLOUD_*, CLOUDSDK_*, VAULT_*, GITHUB_TOKEN, GH_TOKEN, GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN, ACTIONS_*, NPM_TOKEN",
        ),
      );
    }
    // Names that only look alike are the allow-list's to decide.
    for (const name of ["GITHUB_TOKENS_URL", "MY_AWS_KEY", "NPM_TOKEN_HINT", "ARMS_KEY", "GH_TOKENS"])
      assert.equal(envSourceRefusal(name, "field f", "open", everything), undefined, name);
  });

  it("an allowed name allows that name only (the pattern is anchored at both ends)", () => {
    const acme: Record<string, Customer> = {
      acme: { clientId: "a", clientSecretEnv: "ACME_CLIENT_SECRET", secretEnv: ["ACME_SEGMENT_API_KEY", "ACME_S3_?"] },
    };
    const verdict = (name: string) => envSourceRefusal(name, "field apiKey", "acme", acme);
    assert.equal(verdict("ACME_SEGMENT_API_KEY"), undefined);
    assert.equal(verdict("ACME_S3_A"), undefined);
    for (const longer of [
      "ACME_SEGMENT_API_KEY_ADMIN",
      "X_ACME_SEGMENT_API_KEY",
      "ACME_S3_AB",
      "ACME_SEGMENT_API_KEY\n",
    ])
      assert.match(
        verdict(longer) ?? "(allowed)",
        /not in customer acme's secretEnv|not an environment variable's name/,
        longer,
      );
  });

  it("a secret source feeds a Password field only (the service returns the others in clear)", () => {
    for (const type of ["Text", "Number", "Select", "Multi-Select", "Date", "Unknown"]) {
      assert.match(
        clearFieldRefusal("connector s3, field bucket", type) ?? "",
        /is a \S+ field, which the service returns in clear/,
      );
    }
    for (const type of ["Password", "password", "SECRET"])
      assert.equal(clearFieldRefusal("connector s3, field secretAccessKey", type), undefined, type);
    const profile = { semantics: { secretFieldTypes: ["Credential"] } };
    assert.equal(clearFieldRefusal("connector s3, field token", "credential", profile), undefined);
    assert.match(clearFieldRefusal("connector s3, field token", "Credential") ?? "", /is a Credential field/);
    assert.equal(
      clearFieldRefusal("connector s3, field typo", undefined),
      undefined,
      "an unknown field: the provider's check names it",
    );
  });

  it("the example's stack files route only what its customers.json allows", async () => {
    const dir = path.join(repoRoot, "examples", "fleet");
    const allowed = JSON.parse(await fs.readFile(path.join(dir, "customers.json"), "utf8")) as Record<string, Customer>;
    const files = (await fs.readdir(dir)).filter((f) => /^Pulumi\..+\.yaml$/.test(f));
    let sources = 0;
    for (const file of files) {
      const config = (parse(await fs.readFile(path.join(dir, file), "utf8")) as { config: Record<string, unknown> })
        .config;
      const connectors = config["embedded-fleet:connectors"] as Record<
        string,
        { secrets?: Record<string, { env?: string }> }
      >;
      for (const [key, spec] of Object.entries(connectors)) {
        for (const [field, source] of Object.entries(spec.secrets ?? {})) {
          if (source.env === undefined) continue;
          sources += 1;
          const why = envSourceRefusal(
            source.env,
            `${file} ${key}.${field}`,
            config["embedded-fleet:customer"] as string,
            allowed,
          );
          assert.equal(why, undefined);
        }
      }
    }
    assert.ok(sources >= 2, `the example routes ${sources} variable(s)`);
  });

  it("docs/fleet-secrets.md: its customers.json and stack file do what the doc says", async () => {
    const doc = await fs.readFile(path.join(repoRoot, "docs", "fleet-secrets.md"), "utf8");
    const block = (lang: string) => new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(doc)![1];
    const docCustomers = JSON.parse(block("json")) as Record<string, Customer>;
    const stackFile = block("yaml");
    const customer = (parse(stackFile) as { config: Record<string, string> }).config["embedded-fleet:customer"];
    const lines = [...stackFile.matchAll(/(\w+): \{ env: (\w+) \} # (allowed|refused)/g)];
    assert.equal(lines.length, 6);
    const refused = lines.filter(([, field, variable, verdict]) => {
      const why = envSourceRefusal(variable, `field ${field}`, customer, docCustomers);
      assert.equal(why === undefined, verdict === "allowed", `${field}: { env: ${variable} } ${verdict}: ${why}`);
      return why !== undefined;
    });
    assert.equal(refused.length, 4, "the four refused lines");
    assert.match(doc, /naming the four refused lines/);
    // Every name the doc lists as always refused is the program's list, and the other way round.
    const listed = new Set([...doc.matchAll(/`([A-Z_]+\*?)`/g)].map(([, name]) => name));
    for (const pattern of ALWAYS_REFUSED) assert.ok(listed.has(pattern), `docs/fleet-secrets.md lists ${pattern}`);
  });
});
