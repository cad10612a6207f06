// The fast path reads an s3:// backend as the CLI lays it out and an
// awskms:// stack's data key, against moto's server on loopback (harness/moto.ts), and an
// azblob:// backend against Azurite (harness/azurite.ts). Layouts: the
// project-scoped one (meta.yaml version 1), the legacy one (no meta.yaml), a gzipped checkpoint,
// a directory in the bucket; a meta.yaml version, a URL parameter or a secrets provider it does
// not know sends the stack to the engine with the reason, never a guess.
import { strict as assert } from "node:assert";
import { createCipheriv, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { GenerateDataKeyCommand, KMSClient } from "@aws-sdk/client-kms";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { parseS3Url, s3Store } from "../../../../../cli/fleet/drift/s3-store";
import { fileStore, stackStore } from "../../../../../cli/fleet/drift/store";
import { keySources } from "../../../../../cli/fleet/drift/secrets-providers";
import type { CheckpointRead } from "../../../../../cli/fleet/drift/checkpoint";
import { sharedMoto, type Moto } from "../../../../../harness/moto";
import { sharedAzurite } from "../../../../../harness/azurite";
import { azblobStore, parseAzblobUrl } from "../../../../../cli/fleet/drift/azblob-store";

const deployment = (marker: string) =>
  JSON.stringify({ version: 3, checkpoint: { latest: { resources: [{ urn: marker, type: "pulumi:pulumi:Stack" }] } } });
const urnOf = (read: CheckpointRead) => ("checkpoint" in read ? read.checkpoint.resources[0]?.urn : read.reason);

describe("fleet drift: an s3:// backend, read as the CLI lays it out (moto)", function () {
  this.timeout(60_000);
  let moto: Moto;
  let s3: S3Client;
  let n = 0;
  /** A new bucket holding `objects`; its backend URL with `extra` parameters. */
  const bucketWith = async (objects: Record<string, string | Buffer>, extra = "", dir = "") => {
    const url = await moto.backendUrl(`layout-${process.pid}-${++n}`);
    const bucket = /^s3:\/\/([^?]+)/.exec(url)![1];
    for (const [key, body] of Object.entries(objects))
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${dir}${key}`, Body: body }));
    return url.replace("?", `${dir ? `/${dir.replace(/\/$/, "")}` : ""}?`) + extra;
  };
  const read = async (url: string, stack = "s1") => {
    const opened = await s3Store(url, moto.env);
    if ("reason" in opened) return opened.reason;
    return urnOf(await stackStore(opened.store).readCheckpoint("fleet", stack));
  };

  before(async () => {
    moto = await sharedMoto();
    s3 = new S3Client(moto.sdkConfig);
  });
  after(() => s3.destroy());

  it("the project layout (meta.yaml version 1), plain or gzipped, in the bucket or a directory of it", async () => {
    const meta = { ".pulumi/meta.yaml": "version: 1\n" };
    assert.equal(
      await read(await bucketWith({ ...meta, ".pulumi/stacks/fleet/s1.json": deployment("plain") })),
      "plain",
    );
    const gz = { ...meta, ".pulumi/stacks/fleet/s1.json.gz": gzipSync(deployment("gzipped")) };
    assert.equal(await read(await bucketWith(gz)), "gzipped");
    const inDir = await bucketWith({ ...meta, ".pulumi/stacks/fleet/s1.json": deployment("in a dir") }, "", "team/a/");
    assert.match(inDir, /^s3:\/\/[^/?]+\/team\/a\?/);
    assert.equal(await read(inDir), "in a dir");
    // Another project's stack of the same name is not this one's.
    const other = await bucketWith({ ...meta, ".pulumi/stacks/other/s1.json": deployment("other") });
    assert.match((await read(other)) ?? "", /holds no checkpoint of the stack/);
  });

  it("the legacy layout (no meta.yaml); a meta.yaml version it does not know goes to the engine", async () => {
    assert.equal(await read(await bucketWith({ ".pulumi/stacks/s1.json": deployment("legacy") })), "legacy");
    const v2 = await bucketWith({
      ".pulumi/meta.yaml": "version: 2\n",
      ".pulumi/stacks/fleet/s1.json": deployment("x"),
    });
    assert.match((await read(v2)) ?? "", /meta\.yaml version is 2; the fast path reads 0 and 1/);
  });

  it("URL parameters: the CLI's are honoured, an unknown one or an assumed role goes to the engine", async () => {
    const objects = { ".pulumi/meta.yaml": "version: 1\n", ".pulumi/stacks/fleet/s1.json": deployment("ok") };
    const url = await bucketWith(objects, "&awssdk=v2&use_path_style=true&rate_limiter_capacity=5");
    assert.equal(await read(url), "ok");
    assert.match((await read(`${url}&colour=blue`)) ?? "", /unknown parameter colour/);
    assert.match((await read(`${url}&role=arn:aws:iam::1:role/r`)) ?? "", /parameter role is not read/);
    assert.match((await read(`${url}&disable_https=maybe`)) ?? "", /disable_https is not a boolean/);
    // The CLI's completion of a bare endpoint; the environment's region when the URL has none.
    const bare = parseS3Url("s3://b?endpoint=127.0.0.1:9&disableSSL=true", { AWS_DEFAULT_REGION: "eu-west-3" });
    assert.ok("ok" in bare);
    assert.equal(bare.ok.settings.endpoint, "http://127.0.0.1:9");
    assert.equal(bare.ok.settings.region, "eu-west-3");
  });

  it("a bucket that is not there: a reason naming the error, never the credentials", async () => {
    const url = `s3://no-such-bucket-${process.pid}?endpoint=${moto.endpoint}&s3ForcePathStyle=true&region=us-east-1`;
    const reason = (await read(url)) ?? "";
    assert.match(reason, /could not be read: .*NoSuchBucket/);
    assert.ok(!reason.includes(moto.env.AWS_SECRET_ACCESS_KEY), reason);
  });

  it("of a plain and a gzipped checkpoint, the newer plain one wins only when it is newer (file:// store)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fleet-layout-"));
    try {
      mkdirSync(path.join(dir, ".pulumi", "stacks", "fleet"), { recursive: true });
      writeFileSync(path.join(dir, ".pulumi", "meta.yaml"), "version: 1\n");
      const plain = path.join(dir, ".pulumi", "stacks", "fleet", "s1.json");
      writeFileSync(plain, deployment("plain"));
      writeFileSync(`${plain}.gz`, gzipSync(deployment("gzipped")));
      const when = (file: string, s: number) => utimesSync(file, s, s);
      when(plain, 1000);
      when(`${plain}.gz`, 1000);
      assert.equal(urnOf(await stackStore(fileStore(dir)).readCheckpoint("fleet", "s1")), "gzipped");
      when(plain, 2000);
      assert.equal(urnOf(await stackStore(fileStore(dir)).readCheckpoint("fleet", "s1")), "plain");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("fleet drift: an awskms:// stack's data key, decrypted by KMS once (moto)", function () {
  this.timeout(60_000);

  it("decrypts the client secret under the stack's data key; another provider goes to the engine", async () => {
    const moto = await sharedMoto();
    const kmsUrl = await moto.kmsKeyUrl();
    const keyId = decodeURIComponent(/^awskms:\/\/([^?]+)/.exec(kmsUrl)![1]);
    const kms = new KMSClient(moto.sdkConfig);
    const dataKey = await kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: "AES_256" }));
    kms.destroy();
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(dataKey.Plaintext!), nonce);
    const sealed = Buffer.concat([cipher.update(JSON.stringify("client-secret")), cipher.final(), cipher.getAuthTag()]);
    const encryptedKey = Buffer.from(dataKey.CiphertextBlob!).toString("base64");
    const sources = keySources(undefined, moto.env);
    const source = sources({ type: "cloud", url: kmsUrl, encryptedKey });
    assert.ok("open" in source, JSON.stringify(source));
    const decrypter = await source.open();
    assert.equal(decrypter.decrypt(`v1:${nonce.toString("base64")}:${sealed.toString("base64")}`), '"client-secret"');
    // A data key KMS refuses: the reason names KMS's error, not the key.
    const bad = sources({ type: "cloud", url: kmsUrl, encryptedKey: randomBytes(64).toString("base64") });
    assert.ok("open" in bad);
    await assert.rejects(bad.open(), (e: Error) => /AWS KMS did not decrypt the stack's data key/.test(e.message));
    for (const url of ["azurekeyvault://v.vault.azure.net/keys/k", "gcpkms://projects/p/keys/k", "hashivault://k"]) {
      const other = sources({ type: "cloud", url, encryptedKey });
      assert.match("reason" in other ? other.reason : "", /opens the passphrase and awskms:\/\/ only/, url);
    }
    const noPassphrase = sources({ type: "passphrase", salt: "v1:x" });
    assert.match("reason" in noPassphrase ? noPassphrase.reason : "", /PULUMI_CONFIG_PASSPHRASE/);
  });
});

describe("fleet drift: an azblob:// backend, read as the CLI reads it (Azurite)", function () {
  this.timeout(60_000);

  it("the account, service URL and credentials from the URL and the environment; a checkpoint read", async () => {
    const azurite = await sharedAzurite();
    const url = await azurite.backendUrl(`layout-${process.pid}`);
    const { ContainerClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
    const container = new ContainerClient(
      `${azurite.endpoint}/${azurite.env.AZURE_STORAGE_ACCOUNT}/layout-${process.pid}`,
      new StorageSharedKeyCredential(azurite.env.AZURE_STORAGE_ACCOUNT, azurite.env.AZURE_STORAGE_KEY),
    );
    for (const [key, body] of Object.entries({
      "team/.pulumi/meta.yaml": "version: 1\n",
      "team/.pulumi/stacks/fleet/s1.json.gz": gzipSync(deployment("azure")),
    }))
      await container.getBlockBlobClient(key).upload(body, body.length);
    const read = async (at: string, env: NodeJS.ProcessEnv = azurite.env) => {
      const opened = await azblobStore(at, env);
      return "reason" in opened ? opened.reason : urnOf(await stackStore(opened.store).readCheckpoint("fleet", "s1"));
    };
    assert.equal(await read(url.replace("?", "/team?")), "azure");
    assert.match((await read(url)) ?? "", /holds no checkpoint of the stack/);
    assert.match((await read(`${url}&colour=blue`)) ?? "", /unknown parameter colour/);
    assert.match((await read(url, {})) ?? "", /no storage account is named \(AZURE_STORAGE_ACCOUNT\)/);
    const ad = await read(url, { AZURE_STORAGE_ACCOUNT: "devstoreaccount1" });
    assert.match(ad ?? "", /would be Azure AD's/);
    const cloud = parseAzblobUrl("azblob://c/dir", { AZURE_STORAGE_ACCOUNT: "acct", AZURE_STORAGE_SAS_TOKEN: "sv=x" });
    assert.ok("ok" in cloud);
    assert.equal(cloud.ok.serviceUrl, "https://acct.blob.core.windows.net");
    assert.equal(cloud.ok.prefix, "dir/");
  });
});
