// The nightly drift loop as a team runs it (docs/fleets.md, "The nightly loop"), under the real
// engine, on 4 sub-accounts of 2 customers (fleet-drift-fixture.ts): a field changed by hand in
// two sub-accounts and a connector added by hand in a third; the acknowledged file accepts one
// field of one resource (its other fields still exit 2) and holds an expired entry (exit 2, named);
// the accounts file lists a sub-account no stack has; the history records every drift as `new`
// and a loopback receiver gets them; then the drift is repaired, the hand-added connector
// removed and the acknowledgement widened: the next run exits 0, its events are `resolved`
// (and `unchanged` for the acknowledged), and the receiver gets the resolved. No value of a
// field, no secret and no webhook path in any output, report or notification. Finally
// `--history backend` keeps it beside the checkpoints, which stay byte-identical.
//
// FLEET_DRIFT_SEED replays the values written by hand.
import { strict as assert } from "node:assert";
import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { FleetReport, StackReport } from "../../cli/fleet/report";
import { CATALOGUE } from "../../service/seed/catalogue";
import { assertNoSecret, repoRoot } from "./harness";
import { runCli } from "./fleet-cli";
import { setUpFleetDrift, type FleetDrift } from "./fleet-drift-fixture";

const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");
const HOOK_PATH = `/hooks/T0KEN-${SEED}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Receiver {
  url: string;
  bodies: { events: { event: string; stack: string; field: string; type: string }[] }[];
  raw: string[];
  close(): Promise<void>;
}

/** A webhook on loopback that answers 503 to its first call (the fleet retries) and 200 after. */
async function receiver(): Promise<Receiver> {
  const raw: string[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      calls += 1;
      if (calls === 1) return void res.writeHead(503).end();
      raw.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${HOOK_PATH}`,
    raw,
    get bodies() {
      return raw.map((b) => JSON.parse(b) as Receiver["bodies"][number]);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const file = path.join(e.parentPath, e.name);
      out[path.relative(dir, file)] = createHash("sha256")
        .update(await fs.readFile(file))
        .digest("hex");
    }
  return out;
}

describe("e2e: the nightly drift loop: acknowledged, unmanaged, history, notify", function () {
  this.timeout(20 * 60_000);
  let f: FleetDrift;
  let hook: Receiver;
  const byHand: string[] = [];
  const stack = (r: FleetReport, name: string): StackReport => r.stacks.find((s) => s.stack === name) as StackReport;

  before(async function () {
    console.log(`fleet drift loop e2e: seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    f = await setUpFleetDrift({ stacks: 4, seed: SEED, label: "fleet-drift-loop" });
    hook = await receiver();
    f.env.EMBEDDED_FLEET_NOTIFY_BACKOFF_MS = "50";
  });

  after(async function () {
    await hook?.close();
    await f?.teardown();
  });

  const changeField = async (name: string, change: "field" | "two fields" = "field") => {
    const { customer, accountId } = f.accountOf.get(name)!;
    for (let pick = 0; pick < Object.keys(f.spec).length; pick++)
      if (await f.changeOutOfBand(customer, accountId, change, pick)) {
        byHand.push(`by-hand-${SEED}-${pick}`);
        return;
      }
    assert.fail(`no Text field to change in ${name}'s sub-account`);
  };
  const unmanagedId = CATALOGUE.find((c) => c.supportedType === "Destination")!.connectorId;
  const noStackAccount = "0a1b2c3d4e5f6071";

  it("first night: new drift, one field acknowledged beside open ones, an expired entry, a connector and a sub-account no stack has", async () => {
    const quiet = await f.fleet(["drift", "--history", f.out("history.json"), "--notify", hook.url]);
    assert.equal(quiet.code, 0, quiet.output);
    assert.equal(hook.raw.length, 0, "no event, no notification");

    await changeField("d001", "two fields");
    await changeField("d003");
    const d002 = f.accountOf.get("d002")!;
    await f.clients[d002.customer].add(d002.accountId, [unmanagedId]);

    // What the team sees first, then writes down what it accepts.
    await f.fleet(["drift", "--json", f.out("seen.json")]);
    const seen = await f.report("seen.json");
    const [changed1] = stack(seen, "d001").resources;
    const [changed3] = stack(seen, "d003").resources;
    const digests = (c: typeof changed1) => c.properties.filter((p) => p.startsWith("fieldDigests."));
    const [digest, other] = digests(changed1);
    assert.ok(digest && other, JSON.stringify(changed1));
    const typeOf = (c: typeof changed1) => c.type.slice(c.type.lastIndexOf(":") + 1);
    const entry = (s: string, c: typeof changed1, field: string, expires: string) =>
      `- stack: ${s}\n  type: ${typeOf(c)}\n  resource: ${c.name}\n  field: ${field}\n  reason: OPS-214 migration\n  expires: ${expires}\n`;
    await fs.writeFile(
      path.join(f.workDir, "acknowledged.yaml"),
      entry("d001", changed1, digest, day(30)) +
        digests(changed3)
          .map((p) => entry("d003", changed3, p, day(-1)))
          .join(""),
    );
    await fs.writeFile(f.out("accounts.csv"), `accountId,customer,stack\n${noStackAccount},acme,acme-new\n`);

    const night = await f.fleet([
      "drift",
      ...["--history", f.out("history.json"), "--notify", hook.url, "--accounts", f.out("accounts.csv")],
      ...["--json", f.out("night1.json"), "--markdown", f.out("night1.md"), "--html", f.out("night1.html")],
    ]);
    assert.equal(night.code, 2, night.output);
    const r = await f.report("night1.json");
    const s1 = stack(r, "d001");
    assert.equal(s1.status, "drifted", `the other fields of the resource still drift (${other})`);
    assert.deepEqual(
      s1.resources[0].acknowledged?.map((a) => a.field),
      [digest],
    );
    const s3 = stack(r, "d003");
    assert.equal(s3.status, "drifted");
    assert.deepEqual(
      s3.resources[0].expired?.map((a) => [a.field, a.expires]),
      digests(changed3).map((p) => [p, day(-1)]),
      "the expired entry is named",
    );
    const s2 = stack(r, "d002");
    assert.equal(s2.status, "unmanaged", night.output);
    assert.deepEqual(
      s2.unmanaged?.map((u) => [u.accountId, u.connectorId]),
      [[d002.accountId, unmanagedId]],
    );
    assert.equal(stack(r, "d004").status, "clean");
    assert.ok(r.drift?.discovery.enabled);
    if (r.drift?.discovery.enabled)
      assert.deepEqual(r.drift.discovery.subAccountsWithoutStack, [
        { accountId: noStackAccount, customer: "acme", stack: "acme-new" },
      ]);
    const news = r.drift!.events.filter((e) => e.event === "new");
    assert.equal(news.length, r.drift!.events.length, "everything is new the first night");
    assert.deepEqual([...new Set(news.map((e) => e.stack))].sort(), ["d001", "d002", "d003"]);
    assert.deepEqual(r.drift!.notify, {
      to: new URL(hook.url).origin,
      events: news.length,
      delivered: true,
      attempts: 2,
    });
    assert.equal(hook.bodies.length, 1);
    assert.deepEqual(
      hook.bodies[0].events.map((e) => [e.event, e.stack, e.field]),
      news.map((e) => [e.event, e.stack, e.field]),
    );
    const md = await fs.readFile(f.out("night1.md"), "utf8");
    f.outputs.push(md);
    assert.match(md, /unmanaged connector/);
    assert.match(md, new RegExp(`acknowledged until ${day(30)}`));
    assert.match(night.output, /TYPE +RESOURCE/);
    assert.match(md, /### The estate by customer/);
    const page = await fs.readFile(f.out("night1.html"), "utf8");
    f.outputs.push(page);
    for (const name of ["d001", "d002", "d003", "d004"]) assert.match(page, new RegExp(`data-stack="${name}"`));
  });

  it("next night: repaired, removed and acknowledged: exit 0, resolved and unchanged events, the resolved notified", async () => {
    const seen = await f.report("night1.json");
    const c1 = stack(seen, "d001").resources[0];
    const type = c1.type.slice(c1.type.lastIndexOf(":") + 1);
    await fs.writeFile(
      path.join(f.workDir, "acknowledged.yaml"),
      c1.properties
        .filter((p) => p.startsWith("fieldDigests.")) // `drift` and `lastUpdated` follow them
        .map(
          (p) =>
            `- stack: d001\n  type: ${type}\n  resource: ${c1.name}\n  field: ${p}\n  reason: OPS-214\n  expires: ${day(30)}\n`,
        )
        .join(""),
    );
    // The repair command as the report printed it (npx: the package's own CLI, as after a local install).
    const printed = stack(seen, "d003").repair ?? "";
    assert.match(printed, /^npx pulumi-embedded-connectors fleet up --dir \S+ --stacks d003$/);
    const repair = await runCli(printed.split(" ").slice(2), { env: f.env, cwd: repoRoot });
    f.outputs.push(repair.output);
    assert.equal(repair.code, 0, repair.output);
    const d002 = f.accountOf.get("d002")!;
    await f.clients[d002.customer].remove(d002.accountId, unmanagedId);

    const night = await f.fleet([
      "drift",
      "--history",
      f.out("history.json"),
      "--notify",
      hook.url,
      "--json",
      f.out("night2.json"),
    ]);
    assert.equal(night.code, 0, night.output);
    const r = await f.report("night2.json");
    assert.equal(stack(r, "d001").status, "acknowledged");
    assert.ok(stack(r, "d001").resources[0].since, "how long it has stood");
    assert.deepEqual(
      r.stacks.map((s) => s.status),
      ["acknowledged", "clean", "clean", "clean"],
    );
    const kinds = (stackName: string) => [
      ...new Set(r.drift!.events.filter((e) => e.stack === stackName).map((e) => e.event)),
    ];
    assert.deepEqual(kinds("d001"), ["unchanged"]);
    assert.deepEqual(kinds("d002"), ["resolved"]);
    assert.deepEqual(kinds("d003"), ["resolved"]);
    assert.equal(hook.bodies.length, 2);
    assert.deepEqual([...new Set(hook.bodies[1].events.map((e) => e.event))], ["resolved"]);
  });

  it("docs/fleets.md's nightly command as written: --history backend beside the checkpoints, which stay byte-identical; no value anywhere", async () => {
    const docText = await fs.readFile(path.join(repoRoot, "docs", "fleets.md"), "utf8");
    const body = docText.slice(docText.indexOf("\n## The nightly drift loop\n")).split(/\n## /)[1];
    const command = /```sh\n([\s\S]*?)```/.exec(body)?.[1]?.trim() ?? "";
    assert.match(command, /^npx pulumi-embedded-connectors fleet drift /, "the section shows the night's command");
    const args = command
      .split(/\s+/)
      .slice(2) // "npx pulumi-embedded-connectors"
      .map((a) => (a === '"$DRIFT_WEBHOOK_URL"' ? hook.url : a));
    // Every sub-account of the accounts file has its stack here.
    const rows = [...f.accountOf].map(
      ([s, { customer, accountId }]) => `${accountId},${customer ? "globex" : "acme"},${s}`,
    );
    await fs.writeFile(path.join(f.workDir, "accounts.csv"), `accountId,customer,stack\n${rows.join("\n")}\n`);
    const stacksDir = path.join(f.engine.backendDir, ".pulumi", "stacks");
    const before = await hashes(stacksDir);
    const run = await runCli(args, { env: f.env, cwd: f.workDir });
    f.outputs.push(run.output);
    assert.equal(run.code, 0, run.output);
    const report = JSON.parse(await fs.readFile(path.join(f.workDir, "drift.json"), "utf8")) as FleetReport;
    f.outputs.push(JSON.stringify(report), await fs.readFile(path.join(f.workDir, "drift.md"), "utf8"));
    assert.deepEqual(report.drift?.history, {
      kept: true,
      where: `file://${f.engine.backendDir}/.pulumi/embedded-fleet/drift-history/embedded-fleet.json`,
    });
    assert.equal(hook.bodies.length, 3, "a new history: the acknowledged drift is new to it, and notified");
    assert.deepEqual(await hashes(stacksDir), before, "no checkpoint touched");
    const kept = path.join(f.engine.backendDir, ".pulumi", "embedded-fleet", "drift-history", "embedded-fleet.json");
    const doc = JSON.parse(await fs.readFile(kept, "utf8")) as { stacks: Record<string, unknown[]> };
    assert.deepEqual(Object.keys(doc.stacks), ["d001"]);
    // Discovery costs no request beyond the check: it reuses the listing the check's reads made.
    const requests = async () =>
      Object.values((await f.service.stats()).byRoute).reduce(
        (n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0),
        0,
      );
    const r0 = await requests();
    assert.equal((await f.fleet(["drift", "--no-discovery"])).code, 0);
    const r1 = await requests();
    assert.equal((await f.fleet(["drift"])).code, 0);
    const r2 = await requests();
    assert.equal(r2 - r1, r1 - r0, `requests with discovery ${r2 - r1}, without ${r1 - r0}`);
    const everything = [
      ...f.outputs,
      ...hook.raw,
      await fs.readFile(f.out("history.json"), "utf8"),
      JSON.stringify(doc),
    ];
    for (const text of everything) {
      assertNoSecret(text, f.benchSecret, "fleet output, report, history or notification");
      for (const value of byHand) assertNoSecret(text, value, "a value written by hand");
      assertNoSecret(text, `T0KEN-${SEED}`, "the webhook's path");
    }
  });
});
