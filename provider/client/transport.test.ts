// Transport security: a self-signed https service is refused by default
// (verification on) and accepted only through embedded:caCertificate; plain http is refused
// except to loopback, by the settings and the client alike, for any host name.
// (provider/client/http.test.ts covers the pool with a CA-signed certificate; this goes through the provider.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { getClient, parseBaseUrl } from "./";
import * as added from "../added-connector/steps";
import { configureRuntime } from "../runtime/runtime";
import { checkBaseUrl, configSourceFromGetter, SETTINGS } from "../settings/resolve";
import { viewA } from "../../test/support/client-fakes";
import { rejection } from "../../test/support/provider-fixtures";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const fixtures = join(__dirname, "../../../test/support/fixtures/security");
const CERT = readFileSync(join(fixtures, "self-signed.pem"), "utf8");
const ACCOUNT = "a1b2c3d4e5f60718";
const CONNECTOR = "0123456789abcdef";

function useProvider(baseUrl: string, extra: Record<string, string> = {}): void {
  const config: Record<string, string> = {
    "embedded:baseUrl": baseUrl,
    "embedded:clientId": "tls-client",
    "embedded:clientSecret": "tls-secret-canary",
    "embedded:accountId": ACCOUNT,
    "embedded:maxRetries": "1",
    ...extra,
  };
  configureRuntime(configSourceFromGetter({ get: (key) => config[key] }));
}

describe("security: TLS verification through the provider", () => {
  let server: Server;
  let origin: string;
  let answered = 0;
  before(async () => {
    for (const setting of Object.values(SETTINGS)) delete process.env[setting.env];
    server = createServer({ key: readFileSync(join(fixtures, "self-signed.key")), cert: CERT }, (req, res) => {
      answered++;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      if ((req.url ?? "").startsWith("/es/v2/oauth/client-token")) {
        res.end(JSON.stringify({ accessToken: "tls-token", tokenType: "Bearer", expiry: 3600 }));
      } else if ((req.url ?? "").startsWith("/es/v2/connectors/added")) {
        // The listing a create makes before its Add (an empty sub-account).
        res.end(
          JSON.stringify({
            statusCode: 200,
            statusMessage: "OK",
            response: { items: [], page: 1, pageSize: 200, total: 0 },
          }),
        );
      } else {
        res.end(
          JSON.stringify({
            statusCode: 200,
            statusMessage: "OK",
            response: { added: [viewA(CONNECTOR)], alreadyAdded: [] },
          }),
        );
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a self-signed certificate by default: no request is answered, the error is final", async () => {
    useProvider(origin);
    const error = await rejection(added.create({ connectorId: CONNECTOR, accountId: ACCOUNT }));
    assert.match(error.message, /POST \/es\/v2\/oauth\/client-token|certificate|SELF_SIGNED/i);
    assert.match(error.message, /SELF_SIGNED|certificate/i);
    assert.doesNotMatch(error.message, /tls-secret-canary/);
    assert.equal(answered, 0, "no request got past the handshake");
  });

  it("accepts it when embedded:caCertificate trusts it", async () => {
    useProvider(origin, { "embedded:caCertificate": CERT });
    const result = await added.create({ connectorId: CONNECTOR, accountId: ACCOUNT });
    assert.equal(result.id, `${ACCOUNT}/${CONNECTOR}`);
    assert.ok(answered >= 2);
  });

  it("a client trusting the CA is never reused for a caller that did not ask for it", async () => {
    const settings = {
      baseUrl: origin,
      clientId: "tls-reuse",
      clientSecret: "tls-reuse-secret",
      retry: { maxAttempts: 1 },
    };
    const trusting = getClient({ ...settings, caCertificate: CERT });
    await trusting.getConnector(ACCOUNT, CONNECTOR).catch(() => undefined); // the fake's answer is not view G; the TLS worked
    const plain = getClient(settings);
    assert.notEqual(plain, trusting);
    const error = await rejection(plain.getConnector(ACCOUNT, CONNECTOR));
    assert.match(error.message, /SELF_SIGNED|certificate/i);
  });
});

describe("security: plain http only to loopback, for any host", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  const loopback = fc.constantFrom("127.0.0.1", "127.1.2.3", "localhost", "[::1]");
  const remote = fc.oneof(
    fc.domain(),
    fc.ipV4().filter((ip) => !ip.startsWith("127.")),
    fc.constantFrom(
      "127.attacker.example",
      "localhost.attacker.example",
      "127.0.0.1.nip.io",
      "0.0.0.0",
      "[::ffff:10.0.0.1]",
      "anything.localhost",
    ),
  );

  it("settings and client both refuse http to a remote host, and accept it to loopback", () => {
    fc.assert(
      fc.property(remote, fc.integer({ min: 1, max: 65535 }), (host, port) => {
        const url = `http://${host}:${port}`;
        assert.throws(() => checkBaseUrl(url), /refusing plain http:\/\/.*Use https/);
        assert.throws(() => parseBaseUrl(url), /refusing plain http|https/);
        assert.doesNotThrow(() => checkBaseUrl(`https://${host}:${port}`));
      }),
      propertyRuns(100),
    );
    fc.assert(
      fc.property(loopback, fc.integer({ min: 1, max: 65535 }), (host, port) => {
        assert.doesNotThrow(() => checkBaseUrl(`http://${host}:${port}`));
        assert.doesNotThrow(() => parseBaseUrl(`http://${host}:${port}`));
      }),
      propertyRuns(20),
    );
  });
});
