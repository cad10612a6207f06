// Two providers of different customers (demo-client and other-client of the seeded service):
// each must act with its own credentials and default sub-account. The engine runs one plugin
// process per provider; the provider's state (settings, caches, client) is process-wide
// (provider/runtime/runtime.ts), so two servers in ONE process cannot be told apart:
// the first block shows that limit, the second runs two real plugin processes (the bundled
// dist/plugin/embedded-start.js and the bundle it runs, as the engine runs them) side by side.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { SETTINGS } from "../../settings/resolve";
import { stableId } from "../../../service/domain/ids";
import { startLocalService, type LocalService, type SeededCustomer } from "../../../harness/local-service";
import {
  grpcError,
  isolateEnvironment,
  Plugin,
  resetRuntime,
  secret,
  urnOf,
  type Props,
} from "../../../test/support/plugin-harness";

const LIST = "embedded:index:listAddedConnectors";
const S3 = stableId("connector", "Amazon S3");
const SEGMENT = stableId("connector", "Segment");
const BUNDLE = path.resolve(__dirname, "../../../plugin/embedded-start.js");

function settingsOf(service: LocalService, customer: SeededCustomer): Props {
  return {
    baseUrl: service.baseUrl,
    clientId: customer.clientId,
    clientSecret: secret(customer.clientSecret),
    accountId: customer.subAccountIds[0],
  };
}

async function addConnector(plugin: Plugin, connectorId: string): Promise<void> {
  const urn = urnOf("AddedConnector", connectorId);
  await plugin.create(urn, (await plugin.check(urn, { connectorId })).inputs);
}

async function listed(plugin: Plugin): Promise<{ accountId: unknown; connectorIds: unknown[] }> {
  const { result, failures } = await plugin.invoke(LIST, {});
  assert.deepEqual(failures, []);
  return { accountId: result?.accountId, connectorIds: (result?.connectors as Props[]).map((c) => c.connectorId) };
}

describe("plugin: two customers", () => {
  let service: LocalService;
  let restore: () => void;
  let demo: SeededCustomer;
  let other: SeededCustomer;
  before(async () => {
    restore = isolateEnvironment();
    service = await startLocalService();
    [demo, other] = service.customers;
    assert.equal(demo.clientId, "demo-client");
    assert.equal(other.clientId, "other-client");
  });
  beforeEach(async () => {
    await service.reset();
    await resetRuntime();
  });
  after(async () => {
    await resetRuntime();
    await service.stop();
    restore();
  });

  describe("in one process", () => {
    let a: Plugin;
    let b: Plugin;
    beforeEach(async () => {
      a = await Plugin.start();
      b = await Plugin.start();
    });
    afterEach(() => {
      a.close();
      b.close();
    });

    it("one server at a time: each customer lists its own sub-account", async () => {
      await a.configure(settingsOf(service, demo));
      await addConnector(a, S3);
      assert.deepEqual(await listed(a), { accountId: demo.subAccountIds[0], connectorIds: [S3] });
      await b.configure(settingsOf(service, other));
      await addConnector(b, SEGMENT);
      assert.deepEqual(await listed(b), { accountId: other.subAccountIds[0], connectorIds: [SEGMENT] });
    });

    it("LIMIT: the settings are process-wide, so the last Configure is what both servers use", async () => {
      await a.configure(settingsOf(service, demo));
      await b.configure(settingsOf(service, other));
      // What a user of two providers in one process would see: A acts as the other customer.
      assert.equal((await listed(a)).accountId, other.subAccountIds[0]);
      const error = await grpcError(a.invoke(LIST, { accountId: demo.subAccountIds[0] }));
      assert.match(error.details, /403|forbidden|not .*(yours|found|accessible)|access/i);
    });
  });

  describe("one plugin process per provider (as the engine runs it)", () => {
    const children: ChildProcess[] = [];
    const plugins: Plugin[] = [];

    /** Runs the bundled plugin as the engine does, and connects to the port it prints. */
    async function startProcess(): Promise<Plugin> {
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const setting of Object.values(SETTINGS)) delete env[setting.env];
      const child = spawn(process.execPath, [BUNDLE], { env, stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the plugin printed no port in 20 s; stderr: ${stderr}`)),
          20_000,
        );
        createInterface({ input: child.stdout! }).once("line", (line) => {
          clearTimeout(timer);
          resolve(Number(line.trim()));
        });
        child.once("exit", (code) =>
          reject(new Error(`the plugin exited (${code}) before printing its port; stderr: ${stderr}`)),
        );
      });
      assert.ok(Number.isInteger(port) && port > 0, `not a port: ${port}`);
      const plugin = Plugin.connect(port);
      plugins.push(plugin);
      return plugin;
    }

    before(() => {
      // A missing bundle is a broken build, not a reason to skip (and pass) the only test of two plugin processes.
      assert.ok(
        existsSync(BUNDLE),
        `the plugin bundle ${BUNDLE} is missing: run \`npm run build\` (scripts/bundle-plugin.js)`,
      );
    });
    afterEach(() => {
      for (const plugin of plugins.splice(0)) plugin.close();
      for (const child of children.splice(0))
        if (child.pid !== undefined && child.exitCode === null) child.kill("SIGTERM");
    });

    it("two providers configured at once each list their own sub-account, interleaved", async () => {
      const [a, b] = await Promise.all([startProcess(), startProcess()]);
      assert.equal(await a.version(), "0.1.0");
      await a.configure(settingsOf(service, demo));
      await b.configure(settingsOf(service, other));
      await addConnector(a, S3);
      await addConnector(b, SEGMENT);
      assert.deepEqual(await listed(a), { accountId: demo.subAccountIds[0], connectorIds: [S3] });
      assert.deepEqual(await listed(b), { accountId: other.subAccountIds[0], connectorIds: [SEGMENT] });
      // Each provider's credentials reach only its own customer's sub-accounts.
      await grpcError(a.invoke(LIST, { accountId: other.subAccountIds[0] }));
      await grpcError(b.invoke(LIST, { accountId: demo.subAccountIds[0] }));
      assert.deepEqual((await listed(a)).connectorIds, [S3]);
    });
  });
});
