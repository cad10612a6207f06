// provider/settings/resolve.ts: config first, then environment, then defaults; errors name both.
import assert from "node:assert/strict";
import {
  checkBaseUrl,
  configSourceFromGetter,
  noConfig,
  resolveAccountId,
  resolveSettings,
  SettingsError,
  toClientSettings,
} from "./resolve";

const full = {
  EMBEDDED_BASE_URL: "https://connectors.example.com/",
  EMBEDDED_CLIENT_ID: "env-client",
  EMBEDDED_CLIENT_SECRET: "env-secret",
};

describe("provider settings", () => {
  it("reads the environment when no stack config is set, with defaults", () => {
    const settings = resolveSettings(noConfig, full);
    assert.deepEqual(settings, {
      baseUrl: "https://connectors.example.com",
      clientId: "env-client",
      clientSecret: "env-secret",
      accountId: undefined,
      timeoutMs: 30000,
      maxRetries: 5,
      retryTimeoutMs: 600_000,
      concurrency: 8,
      addWindowMs: 500,
      caCertificate: undefined,
      digestKey: undefined,
    });
  });

  it("prefers stack config (as configure() hands it) over the environment", () => {
    const config = configSourceFromGetter({
      get: (key) => ({ "embedded:clientId": "config-client", "embedded:maxRetries": 2 })[key],
    });
    const settings = resolveSettings(config, full);
    assert.equal(settings.clientId, "config-client");
    assert.equal(settings.maxRetries, 2);
    assert.equal(toClientSettings(settings).retry?.maxAttempts, 3);
  });

  it("names the config key and the environment variable of a missing setting, without its value", () => {
    const { EMBEDDED_CLIENT_SECRET: _secret, ...partial } = full;
    assert.throws(
      () => resolveSettings(noConfig, partial),
      (error: Error) => {
        assert.ok(error instanceof SettingsError);
        assert.match(error.message, /missing embedded:clientSecret \(or EMBEDDED_CLIENT_SECRET\)/);
        assert.match(error.message, /--secret/);
        return true;
      },
    );
  });

  it("refuses plain http except to loopback", () => {
    assert.equal(checkBaseUrl("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    assert.equal(checkBaseUrl("http://localhost:1/"), "http://localhost:1");
    assert.throws(
      () => checkBaseUrl("http://connectors.example.com"),
      (error: Error) =>
        /embedded:baseUrl .*refusing plain http:\/\/ to a host that is not loopback.*Use https/.test(error.message) &&
        !error.message.includes("connectors.example"),
    );
    assert.throws(() => checkBaseUrl("not a url"), /embedded:baseUrl \(or EMBEDDED_BASE_URL\)/);
  });

  it("rejects a non-numeric knob, naming it", () => {
    assert.throws(
      () => resolveSettings(noConfig, { ...full, EMBEDDED_TIMEOUT_MS: "soon" }),
      /embedded:timeoutMs \(or EMBEDDED_TIMEOUT_MS\)/,
    );
    assert.throws(
      () => resolveSettings(noConfig, { ...full, EMBEDDED_ADD_WINDOW_MS: "-1" }),
      /embedded:addWindowMs \(or EMBEDDED_ADD_WINDOW_MS\): expected an integer >= 0/,
    );
    assert.equal(resolveSettings(noConfig, { ...full, EMBEDDED_ADD_WINDOW_MS: "0" }).addWindowMs, 0);
  });

  it("resolves the sub-account from the argument, then the default", () => {
    assert.equal(resolveAccountId("explicit", noConfig, { EMBEDDED_ACCOUNT_ID: "env" }), "explicit");
    assert.equal(resolveAccountId(undefined, noConfig, { EMBEDDED_ACCOUNT_ID: "env" }), "env");
    assert.throws(() => resolveAccountId(undefined, noConfig, {}), /embedded:accountId \(or EMBEDDED_ACCOUNT_ID\)/);
  });
});
