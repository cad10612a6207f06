// gs://: the fast path reads a gs:// backend as the CLI lays it out and
// reaches it (STORAGE_EMULATOR_HOST, the CLI's credentials order, gcsblob's URL parameters),
// against fake-gcs-server on loopback (harness/gcs.ts). A parameter, a credential or an
// emulator host it does not reproduce sends the stacks to the engine with the reason, never a guess.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { gcsBucket, gsStore, parseGsUrl } from "../../../../../cli/fleet/drift/gs-store";
import { stackStore } from "../../../../../cli/fleet/drift/store";
import type { CheckpointRead } from "../../../../../cli/fleet/drift/checkpoint";
import { sharedFakeGcs, type FakeGcs } from "../../../../../harness/gcs";

const deployment = (marker: string) =>
  JSON.stringify({ version: 3, checkpoint: { latest: { resources: [{ urn: marker, type: "pulumi:pulumi:Stack" }] } } });
const urnOf = (read: CheckpointRead) => ("checkpoint" in read ? read.checkpoint.resources[0]?.urn : read.reason);
/** A private key's stand-in that must never reach a reason. */
const CANARY = "-----BEGIN PRIVATE KEY-----gs-canary-key";

describe("fleet drift: a gs:// backend, read as the CLI reads it (fake-gcs-server)", function () {
  this.timeout(60_000);
  let gcs: FakeGcs;
  let n = 0;
  /** A new bucket holding `objects`; its backend URL. */
  const bucketWith = async (objects: Record<string, string | Buffer>) => {
    const url = await gcs.backendUrl(`layout-${process.pid}-${++n}`);
    const bucket = url.slice("gs://".length);
    for (const [key, body] of Object.entries(objects)) await gcs.put(bucket, key, body);
    return url;
  };
  const read = async (url: string, env: NodeJS.ProcessEnv = gcs.env, stack = "s1") => {
    const opened = await gsStore(url, env);
    if ("reason" in opened) return opened.reason;
    return urnOf(await stackStore(opened.store).readCheckpoint("fleet", stack));
  };

  before(async () => {
    gcs = await sharedFakeGcs();
  });

  it("the project layout, plain or gzipped, in the bucket, a directory of it or under prefix=", async () => {
    const meta = { ".pulumi/meta.yaml": "version: 1\n" };
    assert.equal(
      await read(await bucketWith({ ...meta, ".pulumi/stacks/fleet/s1.json": deployment("plain") })),
      "plain",
    );
    const gz = await bucketWith({ ...meta, ".pulumi/stacks/fleet/s1.json.gz": gzipSync(deployment("gzipped")) });
    assert.equal(await read(gz), "gzipped");
    const inDir = await bucketWith({
      "team/a/.pulumi/meta.yaml": "version: 1\n",
      "team/a/.pulumi/stacks/fleet/s1.json": deployment("in a dir"),
    });
    assert.equal(await read(`${inDir}/team/a`), "in a dir");
    assert.equal(await read(`${inDir}?prefix=team/a/`), "in a dir");
    assert.match((await read(inDir)) ?? "", /holds no checkpoint of the stack/);
    // Another project's stack of the same name is not this one's; the legacy layout is read.
    const other = await bucketWith({ ...meta, ".pulumi/stacks/other/s1.json": deployment("other") });
    assert.match((await read(other)) ?? "", /holds no checkpoint of the stack/);
    assert.equal(await read(await bucketWith({ ".pulumi/stacks/s1.json": deployment("legacy") })), "legacy");
  });

  it("the run's STORAGE_EMULATOR_HOST, not this process's, picks the endpoint", async () => {
    const url = await bucketWith({
      ".pulumi/meta.yaml": "version: 1\n",
      ".pulumi/stacks/fleet/s1.json": deployment("run"),
    });
    const saved = process.env.STORAGE_EMULATOR_HOST;
    process.env.STORAGE_EMULATOR_HOST = "127.0.0.1:9"; // nothing listens there
    try {
      assert.equal(await read(url), "run");
      assert.equal(process.env.STORAGE_EMULATOR_HOST, "127.0.0.1:9", "this process's environment is left as it was");
    } finally {
      if (saved === undefined) delete process.env.STORAGE_EMULATOR_HOST;
      else process.env.STORAGE_EMULATOR_HOST = saved;
    }
  });

  it("gcsblob's parameters: the CLI's are taken, an unknown or malformed one goes to the engine", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fleet-gs-"));
    try {
      const keyFile = path.join(dir, "key.pem");
      writeFileSync(keyFile, CANARY);
      const url = await bucketWith({
        ".pulumi/meta.yaml": "version: 1\n",
        ".pulumi/stacks/fleet/s1.json": deployment("ok"),
      });
      const signing = `access_id=fleet@p.iam.gserviceaccount.com&private_key_path=${keyFile}&universe_domain=googleapis.com`;
      assert.equal(await read(`${url}?${signing}`), "ok");
      assert.match((await read(`${url}?colour=blue`)) ?? "", /unknown parameter colour/);
      assert.match((await read(`${url}?anonymous=maybe`)) ?? "", /anonymous is not a boolean/);
      assert.match((await read(`${url}?private_key_path=${dir}/none.pem`)) ?? "", /private_key_path names no file/);
      assert.match((await read(`${url}?key=x`)) ?? "", /names a single key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the CLI's credentials order; a source it does not reproduce goes to the engine, naming no secret", () => {
    const credentials = JSON.stringify({ type: "service_account", client_email: "a@p", private_key: CANARY });
    const parsed = (url: string, env: NodeJS.ProcessEnv) => {
      const got = parseGsUrl(url, env);
      if ("reason" in got) assert.ok(!got.reason.includes(CANARY), got.reason);
      return "ok" in got ? got.ok.options : got.reason;
    };
    const both = {
      GOOGLE_CREDENTIALS: credentials,
      GOOGLE_OAUTH_ACCESS_TOKEN: "t",
      GOOGLE_APPLICATION_CREDENTIALS: "/f",
    };
    assert.deepEqual(parsed("gs://b", both), { credentials: JSON.parse(credentials) as unknown });
    assert.deepEqual(parsed("gs://b", { GOOGLE_OAUTH_ACCESS_TOKEN: "t", GOOGLE_APPLICATION_CREDENTIALS: "/f" }), {
      accessToken: "t",
    });
    assert.deepEqual(parsed("gs://b", { GOOGLE_APPLICATION_CREDENTIALS: "/f" }), { keyFilename: "/f" });
    assert.deepEqual(parsed("gs://b", {}), {}); // the SDK's own Application Default Credentials
    assert.match(String(parsed("gs://b", { GOOGLE_CREDENTIALS: `${CANARY}{` })), /GOOGLE_CREDENTIALS does not parse/);
    assert.match(String(parsed("gs://b?anonymous=true", { GOOGLE_CREDENTIALS: credentials })), /anonymous access/);
    assert.match(String(parsed("gs://b?access_id=-", {})), /anonymous access/);
    // The emulator overrides every credential; gocloud prepends http:// to its host itself.
    const emulated = { STORAGE_EMULATOR_HOST: "127.0.0.1:4443", GOOGLE_OAUTH_ACCESS_TOKEN: "t" };
    assert.deepEqual(parsed("gs://b?anonymous=true", emulated), { apiEndpoint: "http://127.0.0.1:4443" });
    const schemed = { STORAGE_EMULATOR_HOST: "http://127.0.0.1:4443" };
    assert.match(String(parsed("gs://b", schemed)), /STORAGE_EMULATOR_HOST is not a bare host:port/);
    // Without any credentials the CLI refuses the backend, emulator or not: so does the fast path.
    const bare = { STORAGE_EMULATOR_HOST: "127.0.0.1:4443", HOME: tmpdir() };
    assert.match(String(parsed("gs://b", bare)), /the CLI would find no Google credentials/);
    const missingFile = { ...bare, GOOGLE_APPLICATION_CREDENTIALS: path.join(tmpdir(), "no-such-adc.json") };
    assert.match(String(parsed("gs://b", missingFile)), /the CLI would find no Google credentials/);
  });

  it("a bare access token (GOOGLE_OAUTH_ACCESS_TOKEN) is what the SDK's client sends, as the CLI sends it", async () => {
    const location = parseGsUrl("gs://b", { GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.canary-token" });
    assert.ok("ok" in location);
    const { storage } = await gcsBucket(location.ok);
    const headers = new Headers(await storage.authClient.getRequestHeaders("https://storage.googleapis.com/b"));
    assert.equal(headers.get("authorization"), "Bearer ya29.canary-token");
  });

  it("a bucket that is not there: a reason naming the HTTP status, never the credentials", async () => {
    const env = { ...gcs.env, GOOGLE_CREDENTIALS: JSON.stringify({ type: "service_account", private_key: CANARY }) };
    const reason = (await read(`gs://no-such-bucket-${process.pid}`, env)) ?? "";
    assert.match(reason, /gs:\/\/no-such-bucket-\d+\/ could not be read: a listing .* failed: HTTP 404/);
    assert.ok(!reason.includes(CANARY), reason);
  });
});
