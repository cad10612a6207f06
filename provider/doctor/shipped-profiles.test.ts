// `doctor` against the local service under each shipped profile. With the
// right profile it exits 0; with a wrong one it exits 1 and names the mismatched keys; the
// profile it writes reads the service (exit 0 on a second run); --write-check reports Add's
// and Remove's semantics; canaries (the client secret, secret and plain configuration values)
// never show in its output or its trace.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_PROFILE, loadProfile } from "../../contract/profile";
import { doctor, resolveDoctorSettings, type DoctorFlags } from "./command";
import { WireClient } from "./wire-client";
import { closeClients, collect, getClient } from "../client";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { CATALOGUE } from "../../service/seed/catalogue";

const PROFILES = path.resolve(__dirname, "../../../profiles");
// Every profile in profiles/ (the package ships them), each against the wire it describes.
const SHIPPED = ["default", "documented-conventions.yaml", "account-in-path.yaml", "example.yaml"] as const;
const fileOf = (name: string) => (name === "default" ? undefined : path.join(PROFILES, name));
const SEGMENT = CATALOGUE.find((c) => c.name === "Segment");

/** What each profile gets wrong about the others' services (keys that must be named). */
const EXPECTED_KEYS: Record<string, Record<string, RegExp[]>> = {
  "documented-conventions.yaml": {
    default: [
      /operations\.listConnectors\.paging/,
      /operations\.listConnectors\.list\.total/,
      /semantics\.errorStatusIn/,
      /semantics\.configurationBeforeAdd/,
    ],
  },
  "account-in-path.yaml": { default: [/operations\.getToken\.path/] },
  default: {
    "documented-conventions.yaml": [
      /operations\.listConnectors\.paging/,
      /operations\.listConnectors\.list\.items/,
      /semantics\.errorStatusIn/,
    ],
  },
};

interface Served {
  service: LocalService;
  secret: string;
  account: string;
  canaries: string[];
}

async function serve(profileName: string): Promise<Served> {
  const secret = `canary-secret-${randomBytes(8).toString("hex")}`;
  const file = fileOf(profileName);
  const service = await startLocalService({
    firstCustomer: { clientSecret: secret },
    ...(file ? { profile: file } : {}),
  });
  const customer = service.customers[0];
  const account = customer.subAccountIds[0];
  // One added, configured connector, so that doctor reads a configuration: its values are canaries.
  const apiKey = `canary-password-${randomBytes(8).toString("hex")}`;
  const workspace = `canary-text-${randomBytes(8).toString("hex")}`;
  const client = new WireClient(file ? loadProfile(file) : DEFAULT_PROFILE, {
    baseUrl: service.baseUrl,
    clientId: customer.clientId,
    clientSecret: secret,
  });
  assert.ok(SEGMENT);
  await client.call("addConnectors", { params: { accountId: account }, body: { connectorIds: [SEGMENT.connectorId] } });
  const configured = await client.call("configure", {
    params: { accountId: account, connectorId: SEGMENT.connectorId },
    body: {
      configurationId: SEGMENT.secretConfiguration.configurationId,
      secretConfig: { apiKey, workspace, dataCenter: "EU", batchSize: 10, eventTypes: ["track"] },
    },
  });
  assert.ok(configured.status < 300, `set-up configure: ${configured.status}`);
  await client.close();
  return { service, secret, account, canaries: [secret, apiKey, workspace] };
}

async function run(s: Served, flags: Partial<DoctorFlags>): Promise<{ code: number; text: string }> {
  const customer = s.service.customers[0];
  let text = "";
  const code = await doctor(
    {
      baseUrl: s.service.baseUrl,
      clientId: customer.clientId,
      clientSecret: s.secret,
      accountId: s.account,
      stack: false,
      pulumi: "pulumi",
      ...flags,
    },
    (t) => (text += t),
  );
  return { code, text };
}

function assertNoCanary(s: Served, text: string, where: string): void {
  for (const canary of s.canaries) assert.ok(!text.includes(canary), `a canary in doctor's ${where}`);
}

for (const served of SHIPPED) {
  describe(`doctor: the local service under the ${served} profile`, function () {
    this.timeout(60_000);
    let s: Served;
    let dir: string;
    before(async () => {
      s = await serve(served);
      dir = mkdtempSync(path.join(tmpdir(), "doctor-"));
    });
    after(async () => {
      await s.service.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("with its own profile: exit 0, every route read, no canary in the output or the trace", async () => {
      const trace = path.join(dir, "trace.txt");
      const { code, text } = await run(s, { profile: fileOf(served), trace });
      assert.equal(code, 0, text);
      assert.match(text, /result: the profile reads every route/);
      for (const op of [
        "getToken",
        "listConnectors",
        "getConnector",
        "listAddedConnectors",
        "listSupportedConnectors",
        "getConfiguration",
      ]) {
        assert.match(text, new RegExp(`^[A-Z]+ /\\S+ +${op} +\\d+ +\\d+ ms +reads( |$)`, "m"), op);
      }
      const transcript = readFileSync(trace, "utf8");
      assertNoCanary(s, text, "output");
      assertNoCanary(s, transcript, "trace");
      assert.doesNotMatch(transcript, /authorization|Bearer /i);
      assert.doesNotMatch(transcript, new RegExp(s.account), "the sub-account is replaced in paths");
      assert.match(transcript, /status 200 in \d+ ms/);
    });

    for (const [wrong, keys] of Object.entries(EXPECTED_KEYS[served] ?? {})) {
      it(`with the ${wrong} profile: exit 1 naming the mismatched keys; the profile it writes reads the service`, async () => {
        const written = path.join(dir, `suggested-${wrong}.yaml`);
        const { code, text } = await run(s, { profile: fileOf(wrong), writeProfile: written });
        assert.equal(code, 1, text);
        for (const key of keys) assert.match(text, key);
        assertNoCanary(s, text, "output");
        if (served === "account-in-path.yaml") return; // paths cannot be found by asking
        const again = await run(s, { profile: written });
        assert.equal(again.code, 0, again.text);
      });
    }

    if (served === "account-in-path.yaml") {
      it("with its paths alone (the rest the default): the other keys named, and the profile written works end to end", async () => {
        const full = loadProfile(path.join(PROFILES, served));
        const operations = Object.fromEntries(
          Object.values(full.operations).map((op) => [
            op.operation,
            { method: op.method, path: op.path, ...(op.operation === "configure" ? { fields: op.fields } : {}) },
          ]),
        );
        const pathsOnly = path.join(dir, "paths-only.json");
        writeFileSync(pathsOnly, JSON.stringify({ name: "paths-only", operations }));
        const written = path.join(dir, "suggested-from-paths.json");
        const first = await run(s, { profile: pathsOnly, writeProfile: written });
        assert.equal(first.code, 1, first.text);
        assert.match(first.text, /operations\.listConnectors\.envelope\.payload/);
        assert.match(first.text, /operations\.listConnectors\.paging/);
        const again = await run(s, { profile: written });
        assert.equal(again.code, 0, again.text);
        // The routes doctor does not call take the envelope every route it read agrees on.
        for (const op of ["addConnectors", "configure", "removeConnector"] as const) {
          assert.equal(loadProfile(written).operations[op].envelope.payload, "data", op);
        }
        // The provider's client with the written profile: the routes doctor does not call work too.
        const { clientId } = s.service.customers[0];
        const client = getClient({
          baseUrl: s.service.baseUrl,
          clientId,
          clientSecret: s.secret,
          profile: loadProfile(written),
        });
        const account = s.service.customers[0].subAccountIds[2] as string;
        const s3 = CATALOGUE.find((c) => c.name === "Amazon S3")?.connectorId as string;
        try {
          await client.addConnectors(account, [s3]);
          assert.deepEqual(
            (await collect(client.listAddedConnectors(account))).map((c) => c.connectorId),
            [s3],
          );
          await client.removeConnector(account, s3);
          assert.deepEqual(await collect(client.listAddedConnectors(account)), []);
        } finally {
          await closeClients();
        }
      });
    }

    it("--write-check adds, reads back and removes one connector, and reports Add's and Remove's semantics", async () => {
      const { code, text } = await run(s, { profile: fileOf(served), writeCheck: true });
      assert.match(text, /Add: status 200/);
      assert.match(text, /read back: listed as added/);
      // example.yaml describes the documented-conventions wire too (its name says so).
      const reports = served !== "documented-conventions.yaml" && served !== "example.yaml";
      assert.match(text, reports ? /alreadyAdded reported/ : /alreadyAdded not reported/);
      assert.match(text, /read again: no longer listed/);
      assert.match(text, /Remove again: status 404 \(404 after Remove\)/);
      // The local service replaces the whole configuration on Configure, as the built-in profile says.
      assert.match(text, /configureWrites: whole \(a Configure without the \S+ field \w+ cleared it\)/);
      assert.equal(code, 0, text);
      assertNoCanary(s, text, "output");
    });
  });
}

describe("doctor --write-check: a service whose Configure keeps the fields it leaves out", function () {
  this.timeout(60_000);
  let service: LocalService;
  let dir: string;
  before(async () => {
    const profile = {
      ...DEFAULT_PROFILE,
      semantics: { ...DEFAULT_PROFILE.semantics, configureWrites: "given" as const },
    };
    service = await startLocalService({ profile });
    dir = mkdtempSync(path.join(tmpdir(), "doctor-given-"));
  });
  after(async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds it on its scratch connector with a field the service returns, never a Password, and writes the key", async () => {
    const customer = service.customers[0];
    const s: Served = { service, secret: customer.clientSecret, account: customer.subAccountIds[1], canaries: [] };
    const written = path.join(dir, "given.json");
    const { code, text } = await run(s, { writeCheck: true, writeProfile: written });
    assert.match(text, /configureWrites: given \(a Configure without the (\S+) field \w+ kept it\)/);
    assert.doesNotMatch(text, /without the Password field/);
    assert.match(text, /semantics\.configureWrites/);
    assert.equal(code, 1, text);
    assert.equal(loadProfile(written).semantics.configureWrites, "given");
    const again = await run(s, { profile: written, writeCheck: true });
    assert.equal(again.code, 0, again.text);
    // The scratch connector and its configuration are gone again.
    const client = getClient({
      baseUrl: service.baseUrl,
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
    });
    try {
      assert.deepEqual(await collect(client.listAddedConnectors(s.account)), []);
    } finally {
      await closeClients();
    }
  });
});

describe("doctor: its settings (the stack's config, then the environment; a flag wins)", () => {
  let dir: string;
  const cwd = process.cwd();
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "doctor-stack-"));
    // A stand-in for `pulumi config --json --show-secrets`: the stack's config as the CLI prints it.
    const fake = path.join(dir, "fake-pulumi");
    writeFileSync(
      fake,
      `#!/bin/sh\necho '${JSON.stringify({
        "embedded:baseUrl": { value: "https://stack.example", secret: false },
        "embedded:clientId": { value: "stack-client", secret: false },
        "embedded:clientSecret": { value: "stack-secret", secret: true },
        "embedded:serviceProfile": { value: path.join(PROFILES, "account-in-path.yaml"), secret: false },
      })}'\n`,
    );
    chmodSync(fake, 0o755);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    process.chdir(dir);
  });
  after(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the stack's config first, the environment next, and a flag over both", () => {
    const env = {
      EMBEDDED_BASE_URL: "https://env.example",
      EMBEDDED_ACCOUNT_ID: "env-account",
      EMBEDDED_CLIENT_ID: "env-client",
    };
    const fake = path.join(dir, "fake-pulumi");
    const s = resolveDoctorSettings({ pulumi: fake, clientId: "flag-client" }, env);
    assert.equal(s.baseUrl, "https://stack.example");
    assert.equal(s.clientId, "flag-client");
    assert.equal(s.clientSecret, "stack-secret");
    assert.equal(s.accountId, "env-account");
    assert.equal(s.profile.name, "account-in-path");
    const noStack = resolveDoctorSettings({ pulumi: fake, stack: false }, { ...env, EMBEDDED_CLIENT_SECRET: "x" });
    assert.equal(noStack.baseUrl, "https://env.example");
    assert.equal(noStack.profile.source, "built-in");
    assert.throws(
      () => resolveDoctorSettings({ pulumi: fake, stack: false }, {}),
      /baseUrl \(embedded:baseUrl, EMBEDDED_BASE_URL, or --base-url\)/,
    );
  });
});
