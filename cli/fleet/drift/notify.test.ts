// --notify against a receiver on loopback: the events as JSON, names only; retried after a 503
// and a timeout; a refusal (4xx) not retried; the URL's path and query (a webhook's credential)
// never in a message.
import { strict as assert } from "node:assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkNotifyUrl, notify, shownUrl, type Notification } from "./notify";
import { fileHistory } from "./history-store";
import { emptyHistory } from "./history";
import { finishDrift, prepareDrift } from "./outcome";
import type { FleetProject } from "../project";
import { buildReport, type StackReport } from "../report";

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

const DRIFTED: StackReport = {
  stack: "acme-eu",
  status: "drifted",
  durationMs: 1,
  resources: [
    {
      urn: BODY.events[0].resource,
      type: "embedded:index:ConnectorConfiguration",
      name: "s3",
      operation: "update",
      properties: ["fieldDigests.bucket"],
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

  it("shows a URL by its origin only; refuses one with a user name or password", () => {
    assert.equal(shownUrl("https://user:pw@hooks.example.com/services/T0KEN?x=1"), "https://hooks.example.com");
    assert.throws(
      () => checkNotifyUrl("https://user:pw-canary@hooks.example.com/x"),
      (e: Error) => /carries a user name or password/.test(e.message) && !e.message.includes("canary"),
    );
    checkNotifyUrl("https://hooks.example.com/services/T0KEN");
  });

  it("a notification not delivered leaves the history as it was: the next run tells the same events", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-notify-"));
    const file = path.join(dir, "history.json");
    const project = { dir, name: "embedded-fleet", runtime: "nodejs", stacks: ["acme-eu"] } as FleetProject;
    const drifted = DRIFTED;
    const night = async (answer: number) => {
      const r = await receiver([answer]);
      const prepared = {
        flags: { notify: r.url, discovery: false },
        stackFiles: new Map(),
        history: fileHistory(file, project.name),
        notifyOptions: { backoffMs: 1 },
      };
      const done = await finishDrift(project, prepared, [drifted], new Map(), (s) => s, new Date());
      await r.close();
      const report = buildReport("drift", project.name, "every stack", new Date(), done.stacks, done.sections);
      assert.equal(report.exitCode, answer === 200 ? 2 : 1, "nobody told fails the run; told, the drift exits 2");
      return done.sections;
    };
    const refused = await night(403);
    assert.equal(refused.notify?.delivered, false);
    assert.deepEqual(
      refused.events.map((e) => e.event),
      ["new"],
    );
    assert.deepEqual(JSON.parse(await fs.readFile(file, "utf8")).stacks, {}, "the history as it was: empty");
    const delivered = await night(200);
    assert.equal(delivered.notify?.delivered, true);
    assert.deepEqual(
      delivered.events.map((e) => e.event),
      ["new"],
      "told again",
    );
    assert.equal(JSON.parse(await fs.readFile(file, "utf8")).stacks["acme-eu"].length, 1);
    await fs.rm(dir, { recursive: true });
  });

  it("a history that cannot be written tells nobody, says which flag, and the run still reports", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-notify-"));
    const project = { dir, name: "embedded-fleet", runtime: "nodejs", stacks: ["acme-eu"] } as FleetProject;
    const r = await receiver([200]);
    // A backend the drift job may read but not write (its read-only credentials).
    const readOnly = {
      where: "s3://fleet-state/.pulumi/embedded-fleet/drift-history/embedded-fleet.json",
      read: async () => emptyHistory(project.name),
      write: async () => {
        throw Object.assign(new Error("Access Denied"), { name: "AccessDenied" });
      },
    };
    const prepared = {
      flags: { notify: r.url, discovery: false, history: "backend" },
      stackFiles: new Map(),
      history: readOnly,
      notifyOptions: { backoffMs: 1 },
    };
    const drifted = { ...DRIFTED, stack: "acme-eu" };
    const done = await finishDrift(project, prepared, [drifted], new Map(), (s) => s, new Date());
    await r.close();
    assert.equal(r.got.length, 0, "nobody told: the next run that keeps the history tells these events");
    assert.equal(done.sections.notify, undefined);
    const report = buildReport("drift", project.name, "every stack", new Date(), done.stacks, done.sections);
    assert.equal(report.exitCode, 1, "drifted, but the history not kept fails the run");
    assert.ok(!done.sections.history.kept && done.sections.history.writeFailed);
    if (!done.sections.history.kept)
      assert.match(
        done.sections.history.because,
        /^--history backend: s3:\/\/fleet-state\/\S+ could not be written \(AccessDenied\); nobody was notified/,
      );
    assert.deepEqual(
      done.sections.events.map((e) => e.event),
      ["new"],
    );
    await fs.rm(dir, { recursive: true });
  });

  it("--notify with a history that cannot be kept is refused before any check", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "drift-notify-"));
    const project = { dir, name: "embedded-fleet", runtime: "nodejs", stacks: [] } as unknown as FleetProject;
    await assert.rejects(
      prepareDrift(
        project,
        { notify: "https://hooks.example.test/x", history: "backend" },
        {
          PULUMI_BACKEND_URL: "https://api.pulumi.com",
        },
      ),
      /^Error: --notify tells what changed since the last run, so the history must be kept: --history backend: /,
    );
    await fs.rm(dir, { recursive: true });
  });
});
