// The service profile as a provider argument: each explicit provider (each
// customer) may name its own; CheckConfig refuses a bad file naming the setting, the key and what
// was expected, and the settings hand the profile to the client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { getClient } from "../../client";
import { resolveSettings, toClientSettings } from "../../settings/resolve";
import { isolateEnvironment, Plugin, resetRuntime } from "../../../test/support/plugin-harness";

const EXAMPLE = join(__dirname, "../../../../profiles/example.yaml");
const BAD = join(__dirname, "../../../../test/support/fixtures/client/ca.pem"); // not a profile

describe("plugin: CheckConfig of serviceProfile", () => {
  let plugin: Plugin;
  let restore: () => void;
  const valid = { baseUrl: "https://connectors.example.com/api", clientId: "demo-client", clientSecret: "demo-secret" };
  before(async () => {
    restore = isolateEnvironment();
    await resetRuntime();
    plugin = await Plugin.start();
  });
  after(async () => {
    plugin.close();
    await resetRuntime();
    restore();
  });

  it("accepts a profile file, and refuses a missing or invalid one naming the setting and the key", async () => {
    assert.deepEqual((await plugin.checkConfig({ ...valid, serviceProfile: EXAMPLE })).failures, []);
    const missing = await plugin.checkConfig({ ...valid, serviceProfile: "/nonexistent/profile.yaml" });
    assert.equal(missing.failures[0]?.property, "");
    assert.match(
      missing.failures[0]?.reason ?? "",
      /^serviceProfile: invalid embedded:serviceProfile .*cannot read the file \(ENOENT\)/,
    );
    const bad = await plugin.checkConfig({ ...valid, serviceProfile: BAD });
    assert.match(bad.failures[0]?.reason ?? "", /^serviceProfile: invalid embedded:serviceProfile .*: \(top\): /);
    // The path is the argument's value: never quoted (an explicit provider's argument may be a secret).
    for (const { reason } of [...missing.failures, ...bad.failures])
      assert.ok(!reason.includes("nonexistent") && !reason.includes("ca.pem"), reason);
  });

  it("two providers with the same credentials and different profiles get different clients", () => {
    const env = {};
    const source = (profile?: string) => (name: string) =>
      ({ ...valid, ...(profile ? { serviceProfile: profile } : {}) })[name as keyof typeof valid];
    const builtIn = getClient(toClientSettings(resolveSettings(source(), env)));
    const documented = getClient(toClientSettings(resolveSettings(source(EXAMPLE), env)));
    assert.notEqual(builtIn, documented);
    assert.equal(resolveSettings(source(EXAMPLE), env).profile?.name, "documented-conventions");
  });
});
