// examples/yaml-sub-account's README, as a user follows it: every command, and every config key
// the file requires set (the stack's life under the engine: yaml-example.test.ts).
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { declaredConfig, exampleDir, yamlExampleConfig } from "./yaml-example-config";

describe("e2e: examples/yaml-sub-account: the README", function () {
  it("the README gives every command and sets every config key the file requires", async () => {
    const { config, secretConfig } = yamlExampleConfig({
      partnerBaseUrl: "",
      partnerClientId: "",
      partnerAccountId: "",
      s3Password: "",
      facebookPassword: "",
      partnerClientSecret: "",
      segmentPassword: "",
    });
    const keysSet = new Set([...Object.keys(config), ...Object.keys(secretConfig)]);
    const readme = await fs.readFile(path.join(exampleDir, "README.md"), "utf8");
    const pulumiYaml = await fs.readFile(path.join(exampleDir, "Pulumi.yaml"), "utf8");
    assert.match(pulumiYaml, /^runtime: yaml$/m);
    assert.match(pulumiYaml, /type: pulumi:providers:embedded/);
    assert.match(readme, /npx pulumi-embedded-connectors plugin install/);
    assert.match(readme, /- name: embedded\n\s+path: node_modules\/pulumi-embedded-connectors\/dist\/plugin/);
    for (const key of ["baseUrl", "clientId", "accountId"])
      assert.match(readme, new RegExp(`pulumi config set embedded:${key} `));
    assert.match(readme, /pulumi config set --secret embedded:clientSecret /);
    assert.match(readme, /^pulumi up$/m);
    assert.match(readme, /^pulumi preview --refresh --expect-no-changes/m);
    assert.match(readme, /^pulumi up --refresh/m);
    const declared = declaredConfig(pulumiYaml);
    assert.ok(declared.size >= 4, `config keys found in Pulumi.yaml: ${[...declared.keys()].join(", ")}`);
    for (const [key, { hasDefault, secret }] of declared) {
      if (hasDefault) {
        assert.ok(readme.includes(`\`${key}\``), `the README names the optional config key ${key}`);
        continue;
      }
      const command = secret ? `pulumi config set --secret ${key}` : `pulumi config set ${key} `;
      assert.ok(readme.includes(command), `the README sets ${key}: \`${command}\``);
    }
    // This test sets every key the README has to set.
    for (const [key, { hasDefault }] of declared) if (!hasDefault) assert.ok(keysSet.has(key), `the test sets ${key}`);
  });
});
