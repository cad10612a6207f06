// Every host the same: the same scenarios on the dynamic provider and on the plugin from
// TypeScript, Python, Go and YAML (host-matrix-hosts.ts), one stack per host on one service,
// each message asserted apart from the language's framing. The refusals at preview run on the
// empty stack; then `up`, and what needs resources: a secret accountId refused by preview and
// destroy, and the delete guard (a refused destroy leaves the service and the state as they were).
// The wall time of each host is printed.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parse, stringify } from "yaml";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, type ProgramConfigValue } from "./harness";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { FACEBOOK, mutatingCalls, S3, serviceSettings, startService, storageFields, type E2EService } from "./fixtures";
import { engineFailure } from "./plugin-fixtures";
import { MATRIX_HOSTS, type MatrixCase, type MatrixHost } from "./host-matrix-hosts";

/** What every host says, whatever its language adds around it. */
const SAYS = {
  // Named by the lookup and its arguments (the engine frames it under the Stack, or after a traceback).
  lookupTypo: [
    /findConnector\(name, supportedType\): no connector named "Amazon S4" with supportedType Source/,
    /near matches: "Amazon S3"/,
    /the name must be the catalogue's, exactly \(listConnectors lists them\)/,
  ],
  secretAccountId: [
    /accountId is a secret, but it is (part of|the default accountId of every resource, part of) the resource's id/,
    /an id cannot be secret/,
    /pulumi config set embedded:accountId <id>/,
  ],
  wrongSecret: [/the service refused the client credentials: check embedded:clientId and embedded:clientSecret/],
  basePath: [/ends with \/es\/v2, which every route of the service already starts with/, /set embedded:baseUrl/],
  numberOutOfRange: [/maxFileSizeMb/, /must be at most 5120/],
  unknownField: [/has no field "bogus"; its fields are: /],
  // What: each connector by name and id, the sub-account, both counts; what to do.
  deleteGuard: [
    /Facebook Custom Audiences/,
    new RegExp(FACEBOOK),
    /srcConnections\D{0,3}0\b/,
    /destConnections\D{0,3}1\b/,
    /delete (those|the) connections/i,
    /retainOnDelete/,
  ],
  // The configured connector's ConnectorConfiguration refuses first (the engine deletes it before
  // its AddedConnector), for the same reason: nothing deleted, in the service or the state.
  deleteGuardFirst: [
    /cannot remove connector "?Amazon S3/,
    /ConnectorConfiguration refused first/,
    new RegExp(S3),
    /srcConnections\D{0,3}1\b/,
    /delete (those|the) connections/i,
    /retainOnDelete/,
    /nothing was deleted/,
  ],
};

type Holds = (
  accountId: string,
  connectorId: string,
  fields: Record<string, string>,
) => Promise<Record<string, boolean>>;

/**
 * The local service's `holds` when it runs with `consolePasswords` (a Password's type spelled
 * `password`, its value masked `********`, as many consoles do): undefined in a tree whose local
 * service has no such switch.
 */
function consolePasswords(svc: E2EService): Holds | undefined {
  const holds = (svc.service as unknown as { holds?: Holds }).holds;
  return typeof holds === "function" ? holds.bind(svc.service) : undefined;
}

/** Program config as mappings in the stack file (the CLI keeps them as they are when it rewrites the file). */
async function writeObjects(stack: E2EStack, project: string, objects: Record<string, object>): Promise<void> {
  const file = path.join(stack.workDir, `Pulumi.${stack.name}.yaml`);
  const doc = (parse(await fs.readFile(file, "utf8")) ?? {}) as { config?: Record<string, unknown> };
  doc.config ??= {};
  for (const [key, value] of Object.entries(objects)) doc.config[`${project}:${key}`] = value;
  await fs.writeFile(file, stringify(doc));
}

function assertSays(printed: string, patterns: RegExp[], row: string): void {
  for (const pattern of patterns) assert.match(printed, pattern, `${row}: ${pattern} in:\n${printed}`);
}

describe("e2e: every host the same (the host matrix)", function () {
  this.timeout(ENGINE_TIMEOUT_MS * 4);
  replayCanariesOnFailure();
  let svc: E2EService;
  const password = canary("matrix-password");
  const valid: MatrixCase = { lookupName: "Amazon S3", fields: storageFields(), password };

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    await ensureEngine();
    // A Password spelled `password` and masked, where the local service has the switch.
    svc = await startService({ consolePasswords: true } as Parameters<typeof startService>[0]);
    if (!consolePasswords(svc)) {
      console.error(
        "      (8) skipped: this tree's local service has no consolePasswords switch (branch secret-fields)",
      );
    }
  });
  after(async () => {
    await svc?.service.stop();
  });

  for (const host of MATRIX_HOSTS) describeHost(host);

  function describeHost(host: MatrixHost): void {
    describe(host.name, function () {
      let stack: E2EStack;
      let started = 0;
      const asked = async (c: Partial<MatrixCase>): Promise<void> => {
        const { config, secretConfig, objects } = host.config({ ...valid, ...c });
        await stack.setConfig(config, secretConfig);
        if (objects) await writeObjects(stack, host.program, objects);
      };
      const previewFails = async (c: Partial<MatrixCase> = {}): Promise<string> => {
        await asked(c);
        return (await engineFailure(() => stack.preview())).printed;
      };

      before(async function () {
        this.timeout(30 * 60_000); // a cold toolchain (the Go build cache, a virtualenv)
        const env = (await host.env?.()) ?? {};
        started = Date.now();
        await svc.service.reset(); // what an earlier host left, were it to fail
        const { config, secretConfig, objects } = host.config(valid);
        stack = await E2EStack.create({
          program: host.program,
          name: `matrix-${host.program}`,
          service: serviceSettings(svc),
          config,
          secretConfig,
          env,
        });
        if (objects) await writeObjects(stack, host.program, objects);
        await host.adapt?.(stack.workDir, env);
      });
      after(async () => {
        await stack?.dispose();
        console.error(`      ${host.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      });

      it("(1) a lookup typo names what was asked and its near matches", async () => {
        assertSays(await previewFails({ lookupName: "Amazon S4" }), SAYS.lookupTypo, "lookup typo");
      });

      it("(2) a secret accountId is refused on an empty stack", async () => {
        await asked({});
        await stack.cli(["config", "set", "--secret", "embedded:accountId", svc.accountId]);
        try {
          assertSays((await engineFailure(() => stack.preview())).printed, SAYS.secretAccountId, "secret accountId");
        } finally {
          await stack.setConfig({}); // embedded:* as they were
        }
      });

      it("(3) a wrong client secret", async () => {
        await asked({});
        await stack.stack.setConfig("embedded:clientSecret", { value: canary("wrong-client-secret"), secret: true });
        try {
          assertSays((await engineFailure(() => stack.preview())).printed, SAYS.wrongSecret, "wrong client secret");
        } finally {
          await stack.setConfig({});
        }
      });

      it("(4) a baseUrl ending in /es/v2", async () => {
        await asked({});
        await stack.stack.setConfig("embedded:baseUrl", { value: `${svc.baseUrl}/es/v2` });
        try {
          assertSays((await engineFailure(() => stack.preview())).printed, SAYS.basePath, "baseUrl /es/v2");
        } finally {
          await stack.setConfig({});
        }
      });

      it("(5, 6) a Number out of range and an unknown field, in one refusal", async () => {
        const fields: Record<string, ProgramConfigValue> = storageFields({ maxFileSizeMb: 99999, bogus: "x" });
        const before = mutatingCalls(await svc.service.stats());
        const printed = await previewFails({ fields });
        assertSays(printed, SAYS.numberOutOfRange, "Number out of range");
        assertSays(printed, SAYS.unknownField, "unknown field");
        assert.equal(mutatingCalls(await svc.service.stats()), before, "the service saw no mutating call");
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
      });

      it("(2) with resources: a secret accountId is refused by preview and by destroy", async () => {
        await asked({});
        await stack.up();
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3, FACEBOOK].sort());
        await stack.cli(["config", "set", "--secret", "embedded:accountId", svc.accountId]);
        try {
          assertSays((await engineFailure(() => stack.preview())).printed, SAYS.secretAccountId, "preview");
          assertSays((await engineFailure(() => stack.destroy())).printed, SAYS.secretAccountId, "destroy");
          assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3, FACEBOOK].sort(), "nothing removed");
        } finally {
          await stack.setConfig({});
        }
      });

      it("(8) a Password spelled otherwise and masked: an update of a Text field keeps the real Password", async function () {
        if (!consolePasswords(svc)) {
          // The local service's switch `consolePasswords` (branch secret-fields) is not in this tree.
          this.skip();
        }
        await asked({ fields: storageFields({ bucket: "acme-exports-renamed" }) });
        await stack.up();
        const holds = await consolePasswords(svc)?.(svc.accountId, S3, { secretAccessKey: password });
        assert.deepEqual(holds, { secretAccessKey: true }, "the service still holds the real Password");
        // A refresh reads the masked value back: no drift, nothing to write.
        await stack.preview({ refresh: true, expectNoChanges: true });
      });

      it("(7) the delete guard: destroy while a connection uses the connectors changes nothing", async () => {
        const held = (await stack.resources()).map((r) => r.urn).sort();
        const connection = await svc.service.createConnection(svc.accountId, S3, FACEBOOK);
        try {
          const refused = (await engineFailure(() => stack.destroy())).printed;
          assertSays(refused, SAYS.deleteGuardFirst, "delete guard");
          assert.ok(refused.includes(svc.accountId), "the delete guard names the sub-account");
          assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3, FACEBOOK].sort(), "nothing removed");
          // Not the state either: the configurations (deleted first by the engine) are still held.
          assert.deepEqual((await stack.resources()).map((r) => r.urn).sort(), held, "the state is as it was");
          const again = await stack.up();
          const changed = Object.keys(again.summary.resourceChanges ?? {}).filter((kind) => kind !== "same");
          assert.deepEqual(changed, [], `the next up is a no-change: ${JSON.stringify(again.summary.resourceChanges)}`);
          // The AddedConnectors' own guard (the service's Remove refuses): a destroy of them alone.
          // Facebook's: no configuration depends on it, so it can be destroyed alone.
          const facebook = (await stack.resources()).filter(
            (r) => r.type.includes("AddedConnector") && r.outputs?.connectorId === FACEBOOK,
          );
          assert.equal(facebook.length, 1, "one AddedConnector of Facebook");
          const guarded = (await engineFailure(() => stack.destroy({ target: [facebook[0].urn] }))).printed;
          assertSays(guarded, SAYS.deleteGuard, "the AddedConnectors' delete guard");
          assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), [S3, FACEBOOK].sort(), "nothing removed");
        } finally {
          await svc.service.deleteConnection(connection);
        }
        await stack.destroy();
        assert.deepEqual(await svc.outOfBand.addedIds(svc.accountId), []);
        assertNoLeak(stack.engineOutput(), password, "the engine's output");
      });
    });
  }
});
