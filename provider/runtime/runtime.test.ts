// provider/runtime/runtime.ts currentClient(): every operation asks for its client; the
// answer is kept while the settings stay the same (a refresh asks hundreds of times), and a
// changed setting or closed clients give a new one.
import assert from "node:assert/strict";
import { closeClients } from "../client";
import { configureRuntime, currentClient } from "./runtime";
import { configSourceFromGetter, noConfig, rawSettingsKey, SETTINGS, type SettingName } from "../settings/resolve";

const ENV = {
  EMBEDDED_BASE_URL: "http://127.0.0.1:9",
  EMBEDDED_CLIENT_ID: "client-one",
  EMBEDDED_CLIENT_SECRET: "secret-one",
  EMBEDDED_ACCOUNT_ID: "acct_runtime_test",
};

describe("provider runtime: the client of an operation", () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const [key, value] of Object.entries(ENV)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    configureRuntime(noConfig);
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    configureRuntime(noConfig);
    await closeClients();
  });

  it("is the same client while the settings stay the same", () => {
    const first = currentClient();
    const second = currentClient();
    assert.equal(second.client, first.client);
    assert.equal(second.settings.clientId, "client-one");
  });

  it("follows a setting changed between two operations", () => {
    const first = currentClient();
    process.env.EMBEDDED_CLIENT_ID = "client-two";
    const second = currentClient();
    assert.notEqual(second.client, first.client);
    assert.equal(second.settings.clientId, "client-two");
    process.env.EMBEDDED_ACCOUNT_ID = "acct_other";
    assert.equal(currentClient().settings.accountId, "acct_other");
  });

  it("is a new client once the process's clients were closed", async () => {
    const first = currentClient();
    await closeClients();
    assert.notEqual(currentClient().client, first.client);
  });

  it("still refuses a missing setting at every call", () => {
    delete process.env.EMBEDDED_CLIENT_SECRET;
    assert.throws(() => currentClient(), /embedded:clientSecret/);
    assert.throws(() => currentClient(), /embedded:clientSecret/);
  });

  it("resolves again when any setting changes, whether from stack config or the environment", () => {
    const names = Object.keys(SETTINGS) as SettingName[];
    const base = rawSettingsKey(noConfig, {});
    for (const name of names) {
      const fromConfig = configSourceFromGetter({ get: (key) => (key === SETTINGS[name].key ? "1" : undefined) });
      assert.notEqual(rawSettingsKey(fromConfig, {}), base, `${name} from stack config`);
      assert.notEqual(rawSettingsKey(noConfig, { [SETTINGS[name].env]: "1" }), base, `${name} from the environment`);
    }
  });
});
