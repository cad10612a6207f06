// bench/stack-keys.ts: the awskms:// URL of moto's key, read for GenerateDataKey.
import { strict as assert } from "node:assert";
import { kmsUrlParts } from "./stack-keys";

describe("bench: generated stacks' keys (stack-keys.ts)", () => {
  it("reads the key id, region and endpoint of an awskms:// URL as harness/moto.ts writes it", () => {
    const url = `awskms://1234abcd-12ab?region=eu-west-1&endpoint=${encodeURIComponent("http://127.0.0.1:5000")}`;
    assert.deepEqual(kmsUrlParts(url), {
      keyId: "1234abcd-12ab",
      region: "eu-west-1",
      endpoint: "http://127.0.0.1:5000",
    });
    assert.deepEqual(kmsUrlParts("awskms://alias/fleet"), {
      keyId: "alias/fleet",
      region: "us-east-1",
      endpoint: undefined,
    });
    assert.throws(() => kmsUrlParts("gcpkms://x"), /not an awskms/);
  });
});
