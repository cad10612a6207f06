// The first-`up` promise, under the real engine, on both hosts, for each wire
// the local service can speak that the built-in profile does not: each shipped profile
// (profiles/*.yaml) and a third wire of this test's own making (test/e2e/hostile-wires.ts). As a
// new user would, from an EMPTY sub-account: `doctor` (no profile; for a wire with other paths,
// the profile of its "docs", methods and paths only); `doctor --write-profile p.json
// --write-check --account-id <scratch>`; `doctor --profile p.json`, which must exit 0. Then, with
// `embedded:serviceProfile` set to p.json, the README example (S3 configured, Facebook added) on
// each host: `up`; a clean drift check; a field changed out of band (through the wire itself)
// named by the drift check; `destroy` refused by the delete guard while a connection uses both
// connectors; `destroy` once it is gone, nothing left. Five engine runs per wire and host.
// docs/hosted-service.md, "The first up", is this recipe.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { doctor, type DoctorFlags } from "../../provider/doctor/command";
import { WireClient } from "../../provider/doctor/wire-client";
import { itemsOf } from "../../provider/doctor/shapes";
import { E2EStack, ENGINE_TIMEOUT_MS } from "./harness";
import { e2eSuite, FACEBOOK, S3, storageFields } from "./fixtures";
import { assertNoValue, assertQuiet, fieldsMarkedChanged, withoutStackOutputs } from "./drift-display";
import { assertNoCanary, exampleStack, hostileCanary, HOSTILE_SEED, HOSTS } from "./hostile-support";
import { firstUpRecipe, wires } from "./hostile-wires";

const S3_FIELDS = ["bucket", "accessKeyId", "secretAccessKey", "region"];
/** docs/hosted-service.md's three doctor commands: read, write the profile (with the write check), check it. */
const [READ, WRITE, CHECK] = firstUpRecipe();

/** A recipe command's flags, its files in `dir` and its scratch sub-account `scratch`. */
function flagsOf(args: string[], dir: string, scratch: string): Partial<DoctorFlags> {
  const flags: Partial<DoctorFlags> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--write-check") flags.writeCheck = true;
    else if (arg === "--write-profile") flags.writeProfile = path.join(dir, args[++i]);
    else if (arg === "--profile") flags.profile = path.join(dir, args[++i]);
    else if (arg === "--account-id" && args[++i] === '"$SCRATCH_ACCOUNT_ID"') flags.accountId = scratch;
    else throw new Error(`docs/hosted-service.md's first-up recipe has a flag this test does not run: ${arg}`);
  }
  return flags;
}

for (const wire of wires()) {
  describe(`e2e: the first up against the ${wire.name} wire: doctor from an empty sub-account, then the README example on both hosts`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const clientSecret = hostileCanary("Client");
    const canaries = { clientSecret, s3Key: hostileCanary("Key"), bucket: hostileCanary("Bucket") };
    const dir = mkdtempSync(path.join(tmpdir(), `first-up-${wire.name}-`));
    const written = flagsOf(WRITE ?? [], dir, "").writeProfile as string;
    const docs = path.join(dir, "docs.json");
    const stacks = new Map<string, E2EStack>();
    let connectionId: string | undefined;
    let client: WireClient;
    const e2e = e2eSuite({
      service: { profile: wire.served, firstCustomer: { clientSecret } },
      setUp: async ({ svc }) => {
        console.log(`first up (${wire.name}): seed ${HOSTILE_SEED} (replay with HOSTILE_SEED=${HOSTILE_SEED})`);
        client = new WireClient(wire.truth, { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret });
        if (wire.docs) writeFileSync(docs, JSON.stringify(wire.docs, null, 2));
        const secrets = { s3Key: canaries.s3Key, bucket: canaries.bucket };
        for (const host of HOSTS) {
          const config = { "embedded:serviceProfile": written };
          stacks.set(host, await exampleStack(host, svc, `first-up-${wire.name}-${host}`, secrets, config));
        }
      },
      tearDown: async ({ svc }) => {
        if (connectionId) await svc.service.deleteConnection(connectionId).catch(() => undefined);
        for (const stack of stacks.values()) await stack.dispose();
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });

    async function addedIds(accountId = e2e.svc.accountId): Promise<string[]> {
      const answer = await client.call("listAddedConnectors", { params: { accountId } });
      return (itemsOf(answer.body) ?? []).map((i) => (i as { connectorId: string }).connectorId).sort();
    }

    /** `doctor` as the user runs it (settings in flags here; --no-stack), its output checked for canaries. */
    async function runDoctor(flags: Partial<DoctorFlags>): Promise<{ code: number; text: string }> {
      let text = "";
      const code = await doctor(
        {
          baseUrl: e2e.svc.baseUrl,
          clientId: e2e.svc.clientId,
          clientSecret,
          accountId: e2e.svc.accountId,
          stack: false,
          pulumi: "pulumi",
          ...flags,
        },
        (t) => (text += t),
      );
      assertNoCanary(text, canaries, "doctor's output");
      return { code, text };
    }

    it(`doctor ${wire.docs ? "with the profile of the wire's docs (methods and paths)" : "with no profile"}, on the empty sub-account: it runs and says what differs`, async () => {
      assert.deepEqual(await addedIds(), [], "the sub-account starts empty");
      assert.deepEqual(READ, [], "the recipe's first doctor reads with the built-in profile");
      const { code, text } = await runDoctor(wire.docs ? { profile: docs } : {});
      assert.equal(code, 1, `the built-in reading does not fit this wire:\n${text}`);
      assert.match(text, /profile keys to change|could not tell/);
    });

    it("doctor --write-profile p.json --write-check --account-id <scratch>: writes the profile, leaves the scratch sub-account as it was", async () => {
      const scratch = e2e.svc.service.customers[0].subAccountIds[2];
      const { text } = await runDoctor({ ...(wire.docs ? { profile: docs } : {}), ...flagsOf(WRITE, dir, scratch) });
      assert.match(text, /wrote the suggested profile/, text);
      assert.deepEqual(await addedIds(scratch), [], "the write check left nothing behind");
      assertNoCanary(readFileSync(written, "utf8"), canaries, "the written profile");
    });

    it("doctor --profile p.json: exit 0, the profile reads every route", async () => {
      const flags = flagsOf(CHECK, dir, "");
      assert.equal(flags.profile, written, "the recipe checks the profile it wrote");
      const { code, text } = await runDoctor(flags);
      assert.equal(code, 0, text);
      assert.deepEqual(await addedIds(), [], "doctor wrote nothing to the stack's sub-account");
    });

    for (const host of HOSTS) {
      describe(`${host} host, embedded:serviceProfile = p.json`, () => {
        const stack = () => stacks.get(host) as E2EStack;

        it("up adds both connectors and configures S3 through the wire", async () => {
          const up = await stack().up();
          assert.equal(up.summary.result, "succeeded");
          assert.deepEqual(await addedIds(), [S3, FACEBOOK].sort());
        });

        it("right after up, the drift check is clean", async () => {
          assertQuiet((await stack().preview({ refresh: true, diff: true })).stdout, "the first drift check");
        });

        it("a field changed out of band is named by the drift check, with no value", async () => {
          const params = { accountId: e2e.svc.accountId, connectorId: S3 };
          const view = await client.call("getConfiguration", { params });
          const payload = (view.body as Record<string, unknown>)[
            wire.truth.operations.getConfiguration.envelope.payload
          ];
          const configurationId = (payload as { secretConfig: { configurationId: string }[] }).secretConfig[0]
            ?.configurationId;
          const secretConfig = storageFields({ bucket: "changed-out-of-band", secretAccessKey: canaries.s3Key });
          const changed = await client.call("configure", { params, body: { configurationId, secretConfig } });
          assert.ok(changed.status < 300, `out-of-band configure: ${changed.status}`);
          const stdout = withoutStackOutputs((await stack().preview({ refresh: true, diff: true })).stdout);
          assert.deepEqual(fieldsMarkedChanged(stdout, S3_FIELDS), ["bucket"], stdout);
          assertNoValue(stdout, ["changed-out-of-band"], "the drift check");
          assertNoCanary(stdout, canaries, "the drift check");
        });

        it("destroy while a connection uses both connectors: the delete guard's message, nothing removed", async () => {
          connectionId = await e2e.svc.service.createConnection(e2e.svc.accountId, S3, FACEBOOK);
          const text = await stack().expectFailure((s) => s.destroy());
          assert.ok(text.includes(S3) && text.includes(FACEBOOK), "names both connectors");
          assert.match(text, /srcConnections\D{0,3}1\b/);
          assert.match(text, /delete (those|the) connections/i);
          assert.deepEqual(await addedIds(), [S3, FACEBOOK].sort());
        });

        it("once the connection is gone, destroy empties the sub-account; no canary anywhere", async () => {
          assert.ok(connectionId);
          await e2e.svc.service.deleteConnection(connectionId);
          connectionId = undefined;
          assert.equal((await stack().destroy()).summary.result, "succeeded");
          assert.deepEqual(await addedIds(), []);
          assert.deepEqual(await stack().resources(), []);
          assertNoCanary(stack().engineOutput(), canaries, "the engine's output");
          assertNoCanary(await stack().exportText(), canaries, "pulumi stack export");
        });
      });
    }
  });
}
