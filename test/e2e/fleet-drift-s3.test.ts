// The fleet's state in S3 and its keys in AWS KMS
// (moto's server on loopback, which the Pulumi CLI itself uses for the same stacks). Three
// stacks over two customers: two under an `awskms://` secrets provider, one under the
// passphrase. The fast path reads each checkpoint from the bucket, opens each stack's key (a data
// key decrypted by KMS, or the passphrase's), and must agree with `pulumi refresh --preview-only`
// per stack, resource and field (fleet-drift-fixture.ts), every stack read from its checkpoint.
// Then the read-only proof (fleet-read-only.ts) on the bucket's objects.
import { strict as assert } from "node:assert";
import { createHash, randomBytes } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { readProject } from "../../cli/fleet/project";
import { sharedMoto, type Moto } from "../../harness/moto";
import { assertAgreement, setUpFleetDrift, type FleetDrift } from "./fleet-drift-fixture";
import { assertReadOnly } from "./fleet-read-only";

const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");
const KMS_STACKS = ["d001", "d002"];

describe("e2e: fleet drift on an S3 backend with awskms:// and passphrase stacks (moto)", function () {
  this.timeout(20 * 60_000);
  let f: FleetDrift;
  let moto: Moto;
  let bucket: string;

  before(async function () {
    console.log(`fleet drift S3 e2e: 3 stacks, seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    moto = await sharedMoto();
    bucket = `fleet-${SEED}`;
    const backendUrl = await moto.backendUrl(bucket);
    const kmsUrl = await moto.kmsKeyUrl();
    f = await setUpFleetDrift({
      stacks: 3,
      seed: SEED,
      label: "fleet-drift-s3",
      env: { ...moto.env, PULUMI_BACKEND_URL: backendUrl },
      destroy: false, // the bucket is this test's alone, and the service stops with it
      // Two stacks made with the KMS provider first; `fleet up` makes the third (the passphrase).
      beforeUp: async (fixture) => {
        for (const stack of KMS_STACKS) await fixture.pulumi(["stack", "init", stack, "--secrets-provider", kmsUrl]);
      },
    });
  });

  after(async function () {
    await f?.teardown();
  });

  it("the CLI keeps each stack's checkpoint in the bucket, under its own secrets provider", async () => {
    const project = (await readProject(f.workDir)).name;
    const s3 = new S3Client(moto.sdkConfig);
    for (const stack of f.accountOf.keys()) {
      const got = await s3.send(
        new GetObjectCommand({ Bucket: bucket, Key: `.pulumi/stacks/${project}/${stack}.json` }),
      );
      const state = JSON.parse(await got.Body!.transformToString()) as {
        checkpoint: { latest: { secrets_providers: { type: string; state: { url?: string } } } };
      };
      const provider = state.checkpoint.latest.secrets_providers;
      if (KMS_STACKS.includes(stack)) assert.match(provider.state.url ?? "", /^awskms:\/\//, stack);
      else assert.equal(provider.type, "passphrase", stack);
    }
    s3.destroy();
  });

  it("random out-of-band changes: the fast path and refresh --preview-only agree per stack, resource and field", async () => {
    await assertAgreement(f, SEED);
  });

  it("read-only, proven on S3: with faults injected, drift, preview and doctor leave every object of the bucket byte-identical", async () => {
    const s3 = new S3Client(moto.sdkConfig);
    const hashes = async () => {
      const found = new Map<string, string>();
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
      assert.ok(!listed.IsTruncated, "one page holds this bucket's objects");
      for (const { Key } of listed.Contents ?? []) {
        const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
        found.set(
          Key!,
          createHash("sha256")
            .update(await got.Body!.transformToByteArray())
            .digest("hex"),
        );
      }
      return found;
    };
    try {
      await assertReadOnly(f, hashes, SEED);
    } finally {
      s3.destroy();
    }
  });
});
