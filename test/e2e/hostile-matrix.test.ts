// The README example's stack on each host, pointed at a
// hostile proxy in front of the local service (test/e2e/hostile-proxy.ts), its mode switched
// between engine commands. Refusals inside a 2xx that quote the sent values in six forms,
// redirects to another origin, capped pages echoing the pageSize asked, pages counted from 0, a
// 404 inside a 200 on each list, endless big pages, lost answers: under `up`, `refresh` and
// `destroy`. After each: no canary in any form in the engine's output or `pulumi stack export`;
// every connector the service still has is still in the state; nothing reached the redirect's
// origin; nothing wrote to the connector the stack does not own (added out of band, configured).
import { strict as assert } from "node:assert";
import { E2EStack, ENGINE_TIMEOUT_MS } from "./harness";
import { e2eSuite, FACEBOOK, MIXPANEL, S3, apiKeyFields, type E2EService } from "./fixtures";
import { routesOf, READ_MODES, startHostileProxy, TOKEN, WRITES, type HostileProxy } from "./hostile-proxy";
import { assertNoCanary, exampleStack, hostileCanary, HOSTILE_SEED, HOSTS } from "./hostile-support";

const clientSecret = hostileCanary("Client");
const canaries = {
  clientSecret,
  s3Key: hostileCanary("Pass"),
  bucket: hostileCanary("Text"),
  s3KeyChanged: hostileCanary("Pass2"),
  unownedKey: hostileCanary("Unowned"),
};
const NOT_TOKEN_WRITES = (method: string, path: string) => WRITES(method, path) && !TOKEN(method, path);

describe("e2e: a hostile service, under up, refresh and destroy (both hosts)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let proxy: HostileProxy;
  const stacks = new Map<string, E2EStack>();
  const e2e = e2eSuite({
    service: { firstCustomer: { clientSecret } },
    setUp: async ({ svc }) => {
      console.log(`hostile matrix: seed ${HOSTILE_SEED} (replay with HOSTILE_SEED=${HOSTILE_SEED})`);
      proxy = await startHostileProxy(svc.baseUrl);
      for (const host of HOSTS) {
        // One sub-account per host; in each, a connector the stack does not own, added and configured out of band.
        const accountId = accountOf(host);
        await svc.outOfBand.add(accountId, [MIXPANEL]);
        await svc.outOfBand.configure(accountId, MIXPANEL, apiKeyFields({ apiKey: canaries.unownedKey }));
        const viaProxy: E2EService = { ...svc, baseUrl: proxy.baseUrl, accountId };
        const secrets = { s3Key: canaries.s3Key, bucket: canaries.bucket };
        stacks.set(host, await exampleStack(host, viaProxy, `hostile-${host}`, secrets));
      }
    },
    tearDown: async () => {
      proxy.setMode({ kind: "pass" });
      for (const stack of stacks.values()) await stack.dispose();
      await proxy.close();
    },
  });

  const accountOf = (host: string) => (host === "dynamic" ? e2e.svc.accountId : e2e.svc.otherAccountId);

  /** Every resource type in the state, by the connector id it manages. */
  async function stateIds(stack: E2EStack): Promise<string[]> {
    const kinds: [string, string][] = [
      [":AddedConnector", "added"],
      [":ConnectorConfiguration", "config"],
    ];
    return (await stack.resources())
      .flatMap((r) =>
        kinds
          .filter(([suffix]) => r.type.endsWith(suffix))
          .map(([, kind]) => `${kind}:${String(r.outputs?.connectorId)}`),
      )
      .sort();
  }

  /** The checks after each step: `since` is where the step's engine output starts. */
  async function checkAfter(stack: E2EStack, host: string, since: number, where: string): Promise<void> {
    proxy.setMode({ kind: "pass" });
    const owned = [S3, FACEBOOK];
    assertNoCanary(stack.engineOutput().slice(since), canaries, `the engine's output, ${where}`);
    assertNoCanary(await stack.exportText(), canaries, `pulumi stack export, ${where}`);
    assertNoCanary(await stack.backendText(), canaries, `the backend's files, ${where}`);
    // No resource leaves the state while its item is still on the service.
    const live = await e2e.svc.outOfBand.addedIds(accountOf(host));
    const inState = await stateIds(stack);
    for (const id of owned.filter((c) => live.includes(c))) {
      assert.ok(
        inState.includes(`added:${id}`),
        `${where}: ${id} is still added but left the state: ${inState.join(", ")}`,
      );
    }
    assert.deepEqual(routesOf(proxy.trapped.splice(0)), [], `${where}: a request reached the redirect's other origin`);
    const unowned = proxy.writes.splice(0).filter((w) => w.path.includes(MIXPANEL) || w.body.includes(MIXPANEL));
    assert.deepEqual(routesOf(unowned), [], `${where}: a write to the connector the stack does not own`);
    assert.ok(live.includes(MIXPANEL), `${where}: the connector the stack does not own is still added`);
  }

  for (const host of HOSTS) {
    describe(`${host} host`, () => {
      const stack = () => stacks.get(host) as E2EStack;
      let since = 0;
      const check = (where: string) => checkAfter(stack(), host, since, where);
      beforeEach(() => {
        since = stack().engineOutput().length;
      });

      it("up through the proxy, passing answers on: both connectors added, S3 configured", async () => {
        proxy.setMode({ kind: "pass" });
        assert.equal((await stack().up()).summary.result, "succeeded");
        await check("after the first up");
        assert.equal((await stateIds(stack())).length, 3);
      });

      it("up of a changed secret, refused inside a 200 that quotes it in six forms: fails, no canary anywhere", async () => {
        await stack().setConfig({}, { secretValues: { s3Key: canaries.s3KeyChanged, bucket: canaries.bucket } });
        proxy.setMode({ kind: "quote", on: NOT_TOKEN_WRITES });
        await stack().expectFailure((s) => s.up());
        assert.ok((proxy.rewritten.quote ?? 0) > 0, "the proxy refused the Configure");
        await check("after the refused up");
      });

      /**
       * After a step that lost track of a connector (a failure already reported), the stack is
       * put back so that the next mode is tried on its own: the lost connectors are removed out
       * of band and `up` adds them again. Costs nothing while every step passes.
       */
      async function repair(): Promise<void> {
        const full = ["added:" + S3, "added:" + FACEBOOK, "config:" + S3].sort();
        const inState = await stateIds(stack());
        if (JSON.stringify(inState) === JSON.stringify(full)) return;
        proxy.setMode({ kind: "pass" });
        for (const id of [S3, FACEBOOK].filter((c) => !inState.includes(`added:${c}`))) {
          await e2e.svc.outOfBand.remove(accountOf(host), id).catch(() => undefined);
        }
        await stack().up();
        since = stack().engineOutput().length;
      }

      for (const [what, mode] of READ_MODES) {
        it(`refresh against ${what}: nothing leaves the state, no canary`, async function () {
          this.timeout(4 * 60_000);
          await repair();
          const before = await stateIds(stack());
          proxy.setMode(mode);
          await stack()
            .refresh()
            .catch(() => undefined);
          proxy.setMode({ kind: "pass" });
          assert.deepEqual(await stateIds(stack()), before, `the state after a refresh against ${what}`);
          await check(`after a refresh against ${what}`);
        });
      }

      it("destroy against capped pages: what leaves the state is gone from the service", async () => {
        await repair();
        proxy.setMode({ kind: "cappedPages", cap: 1 });
        await stack()
          .destroy()
          .catch(() => undefined);
        await check("after a destroy against capped pages");
      });

      it("destroy whose answers are lost after the service removed: the state follows the service; then nothing left", async () => {
        proxy.setMode({ kind: "lostAnswers", on: NOT_TOKEN_WRITES });
        await stack()
          .destroy()
          .catch(() => undefined);
        await check("after a destroy whose answers were lost");
        assert.equal((await stack().destroy()).summary.result, "succeeded");
        await check("after the last destroy");
        assert.deepEqual(await stateIds(stack()), []);
        const live = await e2e.svc.outOfBand.addedIds(accountOf(host));
        assert.deepEqual(
          live.filter((id) => id !== MIXPANEL),
          [],
          "the stack's connectors are gone",
        );
      });
    });
  }

  describe("at the end", () => {
    it("the connector the stacks do not own kept its configuration, in each sub-account", async () => {
      for (const host of HOSTS) {
        const view = await e2e.svc.outOfBand.getConfiguration(accountOf(host), MIXPANEL);
        assert.equal(view.configured, true, host);
      }
    });
  });
});
