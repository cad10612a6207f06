// `doctor` (in this process, as `npx pulumi-embedded-connectors doctor` runs it)
// against the hostile proxy in front of the local service, one mode at a time. It never certifies
// a service it cannot read (exit 1), never re-sends anything to a redirect's origin, prints and
// traces no canary in any quoted form, and its --write-check never removes or rewrites a
// connector the scratch sub-account already had (added out of band), whatever the
// added list looks like or whether Add's answer arrives.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { doctor, type DoctorFlags } from "../../provider/doctor/command";
import { CATALOGUE } from "../../service/seed/catalogue";
import { startService, type E2EService } from "./fixtures";
import { routesOf, READ_MODES, startHostileProxy, TOKEN, WRITES, type HostileProxy } from "./hostile-proxy";
import { assertNoCanary, hostileCanary, HOSTILE_SEED } from "./hostile-support";

const clientSecret = hostileCanary("Client");
const canaries = { clientSecret, keptKey: hostileCanary("Kept") };
/** The catalogue's first two connectors by name, as the lists sort them. */
const [FIRST, SECOND] = [...CATALOGUE]
  .sort((a, b) => a.name.localeCompare(b.name) || a.connectorId.localeCompare(b.connectorId))
  .slice(0, 2)
  .map((c) => c.connectorId);
const ADDED_LIST = (method: string, p: string) => method === "GET" && /\/added/.test(p);

describe("e2e: doctor against a hostile service", function () {
  this.timeout(5 * 60_000);
  let svc: E2EService;
  let proxy: HostileProxy;
  let dir: string;
  let scratch: string;

  before(async () => {
    console.log(`hostile doctor: seed ${HOSTILE_SEED} (replay with HOSTILE_SEED=${HOSTILE_SEED})`);
    svc = await startService({ firstCustomer: { clientSecret } });
    proxy = await startHostileProxy(svc.baseUrl);
    dir = mkdtempSync(path.join(tmpdir(), "hostile-doctor-"));
    scratch = svc.service.customers[0].subAccountIds[2];
  });
  after(async () => {
    await proxy?.close();
    await svc?.service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(flags: Partial<DoctorFlags>): Promise<{ code: number; text: string }> {
    let text = "";
    const trace = path.join(dir, "trace.txt");
    const code = await doctor(
      {
        baseUrl: proxy.baseUrl,
        clientId: svc.clientId,
        clientSecret,
        accountId: svc.accountId,
        stack: false,
        pulumi: "pulumi",
        trace,
        ...flags,
      },
      (t) => (text += t),
    ).catch((err: unknown) => {
      text += String(err instanceof Error ? err.message : err);
      return -1;
    });
    assertNoCanary(text, canaries, "doctor's output");
    assertNoCanary(readFileSync(trace, "utf8"), canaries, "doctor's trace");
    return { code, text };
  }

  it("through the proxy passing answers on: exit 0", async () => {
    proxy.setMode({ kind: "pass" });
    const { code, text } = await run({});
    assert.equal(code, 0, text);
  });

  for (const [what, mode] of READ_MODES) {
    it(`against ${what}: exit 1, nothing sent to another origin, no canary`, async () => {
      proxy.setMode(mode);
      const { code, text } = await run({});
      proxy.setMode({ kind: "pass" });
      assert.equal(code, 1, `doctor's exit code against ${what}:\n${text}`);
      const trapped = routesOf(proxy.trapped.splice(0));
      assert.deepEqual(trapped, [], "a request reached the redirect's other origin");
    });
  }

  describe("--write-check on a scratch sub-account that already holds two connectors", () => {
    before(async () => {
      await svc.outOfBand.add(scratch, [FIRST, SECOND]);
    });

    async function assertKept(where: string): Promise<void> {
      const live = await svc.outOfBand.addedIds(scratch);
      assert.ok(live.includes(FIRST) && live.includes(SECOND), `${where}: the connectors it had are still added`);
      const unowned = proxy.writes
        .splice(0)
        .filter((w) => [FIRST, SECOND].some((id) => w.path.includes(id) || w.body.includes(id)));
      assert.deepEqual(routesOf(unowned), [], `${where}: doctor wrote to a connector the sub-account already had`);
    }

    it("with its added list capped to one item a page: it removes nothing the sub-account had", async () => {
      proxy.setMode({ kind: "cappedPages", cap: 1, on: ADDED_LIST });
      const { code, text } = await run({ writeCheck: true, accountId: scratch });
      proxy.setMode({ kind: "pass" });
      assert.equal(code, 1, text);
      await assertKept("a capped added list");
    });

    it("with Add's answer lost: it removes only what it added and says what it left, by id", async () => {
      const before = await svc.outOfBand.addedIds(scratch);
      proxy.setMode({ kind: "lostAnswers", on: (m, p) => WRITES(m, p) && !TOKEN(m, p) && m === "POST" });
      const { code, text } = await run({ writeCheck: true, accountId: scratch });
      proxy.setMode({ kind: "pass" });
      assert.equal(code, 1, text);
      await assertKept("a lost Add answer");
      const left = (await svc.outOfBand.addedIds(scratch)).filter((id) => !before.includes(id));
      for (const id of left)
        assert.ok(text.includes(id), `doctor names the connector it left behind (${id}):\n${text}`);
    });
  });
});
