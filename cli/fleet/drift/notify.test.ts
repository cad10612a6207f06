// --notify against a receiver on loopback: the events as JSON, names only; retried after a 503
// and a timeout; a refusal (4xx) not retried; the URL's path and query (a webhook's credential)
// never in a message.
import { strict as assert } from "node:assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { notify, shownUrl, type Notification } from "./notify";

const BODY: Notification = {
  schemaVersion: 1,
  kind: "fleet-drift-events",
  project: "embedded-fleet",
  runAt: "2026-12-02T02:00:00.000Z",
  events: [
    {
      event: "new",
      stack: "acme-eu",
      resource: "urn:pulumi:acme-eu::embedded-fleet::embedded:index:ConnectorConfiguration::s3",
      type: "ConnectorConfiguration",
      name: "s3",
      field: "fieldDigests.bucket",
      acknowledged: false,
      firstSeen: "2026-12-02T02:00:00.000Z",
      lastSeen: "2026-12-02T02:00:00.000Z",
    },
  ],
};

async function receiver(answers: (number | "hang")[]): Promise<{ url: string; got: string[]; close(): Promise<void> }> {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push(body);
      const answer = answers.shift() ?? 200;
      if (answer === "hang") return; // never answers: the client's timeout
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T0KEN-secret-path?sig=abc`,
    got,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("fleet drift --notify", () => {
  it("posts the events as JSON, after a 503 and a timeout", async () => {
    const r = await receiver([503, "hang", 200]);
    const delivery = await notify(r.url, BODY, { backoffMs: 10, timeoutMs: 300 });
    await r.close();
    assert.deepEqual(delivery, { to: new URL(r.url).origin, events: 1, delivered: true, attempts: 3 });
    assert.equal(r.got.length, 3);
    assert.deepEqual(JSON.parse(r.got[2]), BODY);
  });

  it("a refusal is not retried; failure names the origin only", async () => {
    const r = await receiver([403]);
    const delivery = await notify(r.url, BODY, { backoffMs: 10 });
    await r.close();
    assert.equal(delivery.delivered, false);
    assert.equal(delivery.attempts, 1);
    assert.match(delivery.error ?? "", /answered HTTP 403/);
    assert.doesNotMatch(JSON.stringify(delivery), /T0KEN|sig=abc/);
  });

  it("gives up after its attempts, saying so", async () => {
    const r = await receiver([500, 500, 500]);
    const delivery = await notify(r.url, BODY, { backoffMs: 10 });
    await r.close();
    assert.equal(delivery.delivered, false);
    assert.match(delivery.error ?? "", /HTTP 500 \(after 3 attempts\)/);
  });

  it("shows a URL by its origin only", () => {
    assert.equal(shownUrl("https://user:pw@hooks.example.com/services/T0KEN?x=1"), "https://hooks.example.com");
  });
});
