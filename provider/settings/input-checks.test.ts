// Settings refused when they are read, not at the first request: a private CA that is not a
// certificate and a plain-http base URL to a name that only looks local.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closeClients } from "../client";
import { configureFromRequest, configureRuntime, currentClient } from "../runtime/runtime";
import { checkBaseUrl, noConfig, resolveSettings, SettingsError, settingsProblems } from "./resolve";

const fixtures = join(__dirname, "../../../test/support/fixtures/client");
const CA = readFileSync(join(fixtures, "ca.pem"), "utf8");
const SELF_SIGNED = readFileSync(join(__dirname, "../../../test/support/fixtures/security/self-signed.pem"), "utf8");
const full = {
  EMBEDDED_BASE_URL: "https://connectors.example.com",
  EMBEDDED_CLIENT_ID: "id",
  EMBEDDED_CLIENT_SECRET: "secret",
};

/** A certificate block whose body is not DER: looks like PEM, parses as nothing. */
const BROKEN = `-----BEGIN CERTIFICATE-----\n${"TUlJQ0JBRE5Ca".repeat(8)}\n-----END CERTIFICATE-----\n`;
const NOT_PEM = "./certs/ca.pem"; // a path where the PEM text belongs

function refusal(pem: string): string {
  try {
    resolveSettings(noConfig, { ...full, EMBEDDED_CA_CERTIFICATE: pem });
  } catch (error) {
    assert.ok(error instanceof SettingsError, String(error));
    return error.message;
  }
  assert.fail("the caCertificate was accepted");
}

describe("provider settings: caCertificate is parsed when the settings are read", () => {
  it("accepts a PEM certificate, and a bundle of two", () => {
    assert.equal(resolveSettings(noConfig, { ...full, EMBEDDED_CA_CERTIFICATE: CA }).caCertificate, CA);
    const bundle = `${CA}\n${SELF_SIGNED}`;
    assert.equal(resolveSettings(noConfig, { ...full, EMBEDDED_CA_CERTIFICATE: bundle }).caCertificate, bundle);
  });

  it("refuses text that holds no PEM certificate, naming the setting and how to pass a file", () => {
    const message = refusal(NOT_PEM);
    assert.match(
      message,
      /invalid embedded:caCertificate \(or EMBEDDED_CA_CERTIFICATE\): expected the PEM text of a certificate/,
    );
    assert.match(message, /\$\(cat ca\.pem\)/);
    assert.ok(!message.includes(NOT_PEM), message);
  });

  it("refuses a certificate block that does not parse, without quoting the PEM", () => {
    const message = refusal(BROKEN);
    assert.match(
      message,
      /invalid embedded:caCertificate \(or EMBEDDED_CA_CERTIFICATE\): its certificate cannot be parsed as X\.509/,
    );
    assert.ok(!message.includes("TUlJQ0JBRE5Ca"), message);
    assert.match(refusal(`${CA}\n${BROKEN}`), /certificate 2 of 2 cannot be parsed/);
  });

  it("is one of the problems CheckConfig lists", () => {
    const problems = settingsProblems(noConfig, { ...full, EMBEDDED_CA_CERTIFICATE: NOT_PEM });
    assert.deepEqual(
      problems.map((p) => p.name),
      ["caCertificate"],
    );
  });

  describe("in the dynamic provider", () => {
    const saved = Object.entries(process.env).filter(([key]) => key.startsWith("EMBEDDED_"));
    before(() => {
      for (const [key] of saved) delete process.env[key];
    });
    after(async () => {
      for (const [key, value] of saved) process.env[key] = value;
      configureRuntime(noConfig);
      await closeClients();
    });

    it("the first operation after configure() fails naming the setting, before any request", () => {
      const config: Record<string, string> = {
        "embedded:baseUrl": "http://127.0.0.1:9",
        "embedded:clientId": "id",
        "embedded:clientSecret": "secret",
        "embedded:caCertificate": BROKEN,
      };
      configureFromRequest({ config: { get: (key: string) => config[key] } });
      assert.throws(
        () => currentClient(),
        /invalid embedded:caCertificate \(or EMBEDDED_CA_CERTIFICATE\): its certificate cannot be parsed/,
      );
      config["embedded:caCertificate"] = CA;
      assert.equal(currentClient().settings.caCertificate, CA);
    });
  });
});

describe("provider settings: plain http only to a loopback host", () => {
  it("refuses a name under .localhost, which any resolver may send elsewhere", () => {
    for (const baseUrl of ["http://anything.localhost:8080", "http://api.localhost/"]) {
      assert.throws(
        () => checkBaseUrl(baseUrl),
        /invalid embedded:baseUrl .*refusing plain http:\/\/ to a host that is not loopback/,
        baseUrl,
      );
    }
    assert.equal(checkBaseUrl("https://api.localhost"), "https://api.localhost");
  });

  it("still accepts localhost, 127.0.0.0/8 and ::1", () => {
    for (const baseUrl of ["http://localhost:8080", "http://127.0.0.1:8080", "http://127.9.9.9", "http://[::1]:8080"]) {
      assert.doesNotThrow(() => checkBaseUrl(baseUrl), baseUrl);
    }
  });
});
