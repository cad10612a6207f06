// gs://, under the real engine: the fleet's state in Google Cloud Storage
// (fake-gcs-server on loopback through STORAGE_EMULATOR_HOST, which the Pulumi CLI itself uses
// for the same stacks). Three stacks over two customers, each made by `pulumi stack init` on the
// gs:// backend, under the passphrase (no Cloud KMS emulator runs here: gcpkms:// stacks go to
// the engine). The fast path reads each checkpoint from the bucket and must agree with
// `pulumi refresh --preview-only` per stack, resource and field (fleet-drift-fixture.ts).
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { readProject } from "../../cli/fleet/project";
import { sharedFakeGcs, type FakeGcs } from "../../harness/gcs";
import { assertAgreement, setUpFleetDrift, type FleetDrift } from "./fleet-drift-fixture";

const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");

describe("e2e: fleet drift on a gs:// backend (fake-gcs-server)", function () {
  this.timeout(20 * 60_000);
  let f: FleetDrift;
  let gcs: FakeGcs;
  let bucket: string;

  before(async function () {
    console.log(`fleet drift gs e2e: 3 stacks, seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    gcs = await sharedFakeGcs();
    bucket = `fleet-${SEED}`;
    const backendUrl = await gcs.backendUrl(bucket);
    f = await setUpFleetDrift({
      stacks: 3,
      seed: SEED,
      label: "fleet-drift-gs",
      env: { ...gcs.env, PULUMI_BACKEND_URL: backendUrl },
      destroy: false, // the bucket is this test's alone, and the service stops with it
      beforeUp: async (fixture) => {
        for (const stack of fixture.accountOf.keys()) await fixture.pulumi(["stack", "init", stack]);
      },
    });
  });

  after(async function () {
    await f?.teardown();
  });

  it("the CLI keeps each stack's checkpoint in the bucket", async () => {
    const project = (await readProject(f.workDir)).name;
    for (const stack of f.accountOf.keys()) {
      const key = encodeURIComponent(`.pulumi/stacks/${project}/${stack}.json`);
      const res = await fetch(`${gcs.endpoint}/storage/v1/b/${bucket}/o/${key}?alt=media`);
      assert.equal(res.status, 200, stack);
      const state = (await res.json()) as { checkpoint: { latest: { resources?: unknown[] } } };
      assert.ok((state.checkpoint.latest.resources ?? []).length > 1, `${stack} holds its resources`);
    }
  });

  it("random out-of-band changes: the fast path and refresh --preview-only agree per stack, resource and field", async () => {
    await assertAgreement(f, SEED);
  });
});
