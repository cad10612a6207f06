// The fleet's state in Azure Blob Storage (Azurite on
// loopback, which the Pulumi CLI itself uses for the same stacks). Three stacks over two
// customers under the passphrase (no Key Vault emulator runs here: azurekeyvault:// stacks go to
// the engine). The fast path reads each checkpoint from the container and must agree with
// `pulumi refresh --preview-only` per stack, resource and field (fleet-drift-fixture.ts).
import { randomBytes } from "node:crypto";
import { sharedAzurite } from "../../harness/azurite";
import { assertAgreement, setUpFleetDrift, type FleetDrift } from "./fleet-drift-fixture";

const SEED = process.env.FLEET_DRIFT_SEED ?? randomBytes(4).toString("hex");

describe("e2e: fleet drift on an azblob:// backend (Azurite)", function () {
  this.timeout(20 * 60_000);
  let f: FleetDrift;

  before(async function () {
    console.log(`fleet drift azblob e2e: 3 stacks, seed ${SEED} (replay with FLEET_DRIFT_SEED=${SEED})`);
    const azurite = await sharedAzurite();
    const backendUrl = await azurite.backendUrl(`fleet-${SEED}`);
    f = await setUpFleetDrift({
      stacks: 3,
      seed: SEED,
      label: "fleet-drift-azblob",
      env: { ...azurite.env, PULUMI_BACKEND_URL: backendUrl },
      destroy: false, // the container is this test's alone, and the service stops with it
    });
  });

  after(async function () {
    await f?.teardown();
  });

  it("random out-of-band changes: the fast path and refresh --preview-only agree per stack, resource and field", async () => {
    await assertAgreement(f, SEED);
  });
});
