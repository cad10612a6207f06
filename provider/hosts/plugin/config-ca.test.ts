// CheckConfig parses embedded:caCertificate: `pulumi preview` refuses a
// value that is not a certificate, naming the setting, instead of a TLS error at the first request.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isolateEnvironment, Plugin, resetRuntime } from "../../../test/support/plugin-harness";

const CA = readFileSync(join(__dirname, "../../../../test/support/fixtures/client/ca.pem"), "utf8");
const BROKEN = `-----BEGIN CERTIFICATE-----\n${"QUJDREVGR0g".repeat(8)}\n-----END CERTIFICATE-----\n`;

describe("plugin: CheckConfig of caCertificate", () => {
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

  it("accepts a PEM certificate", async () => {
    assert.deepEqual((await plugin.checkConfig({ ...valid, caCertificate: CA })).failures, []);
  });

  it("refuses text that is not PEM, and a certificate that does not parse, without quoting either", async () => {
    for (const [caCertificate, reason] of [
      ["/etc/ssl/private-ca.pem", /expected the PEM text of a certificate/],
      [BROKEN, /its certificate cannot be parsed as X\.509/],
    ] as const) {
      const { failures } = await plugin.checkConfig({ ...valid, caCertificate });
      assert.equal(failures.length, 1, JSON.stringify(failures));
      assert.equal(failures[0].property, "");
      assert.match(failures[0].reason, /^caCertificate: invalid embedded:caCertificate \(or EMBEDDED_CA_CERTIFICATE\)/);
      assert.match(failures[0].reason, reason);
      for (const quoted of ["private-ca.pem", "QUJDREVGR0g"])
        assert.ok(!failures[0].reason.includes(quoted), failures[0].reason);
    }
  });

  it("refuses plain http to a name under .localhost", async () => {
    const { failures } = await plugin.checkConfig({ ...valid, baseUrl: "http://anything.localhost:8080" });
    assert.deepEqual(
      failures.map((f) => [f.property, f.reason.split(":")[0]]),
      [["", "baseUrl"]],
    );
  });
});
