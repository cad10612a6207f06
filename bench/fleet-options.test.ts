// bench/fleet-options.ts: `npm run bench:fleet`'s options and the command line each record names.
import { strict as assert } from "node:assert";
import { fleetBenchCommand, parseFleetBenchArgs } from "./fleet-options";

describe("bench: bench:fleet's options (fleet-options.ts)", () => {
  it("defaults to the issue's scale: 1,000 generated stacks on S3, the loop on 50, the passphrase", () => {
    const o = parseFleetBenchArgs([], 50);
    assert.deepEqual(
      { ...o },
      {
        stacks: 50,
        connectors: 10,
        large: 1000,
        loopStacks: 50,
        repeat: 3,
        rateLimit: 0,
        largeRateLimit: 50,
        backend: "s3",
        secrets: "passphrase",
        engineRows: true,
        cpuProf: undefined,
        results: undefined,
      },
    );
    assert.equal(
      fleetBenchCommand(o),
      "npm run bench:fleet -- --stacks 50 --connectors 10 --large 1000 --loop-stacks 50 --large-rate-limit 50 --repeat 3 --rate-limit 0 --backend s3",
    );
  });

  it("gives back every option that changes what is measured, and none that does not", () => {
    const argv = ["--stacks", "20", "--large", "1000", "--large-rate-limit", "0", "--secrets", "awskms"];
    const o = parseFleetBenchArgs([...argv, "--no-engine-rows", "--cpu-prof", "/tmp/p", "--results", "r.json"], 50);
    const command = fleetBenchCommand(o);
    assert.match(command, /--secrets awskms --no-engine-rows$/);
    assert.doesNotMatch(command, /cpu-prof|results/);
    assert.deepEqual(parseFleetBenchArgs(command.split(" ").slice(3), 50), {
      ...o,
      cpuProf: undefined,
      results: undefined,
    });
  });

  it("loops on no more stacks than it generates, and refuses what it cannot run", () => {
    assert.equal(parseFleetBenchArgs(["--large", "10"], 50).loopStacks, 10);
    assert.equal(parseFleetBenchArgs(["--large", "0"], 50).loopStacks, 0);
    assert.doesNotMatch(fleetBenchCommand(parseFleetBenchArgs(["--large", "0"], 50)), /loop-stacks/);
    assert.throws(() => parseFleetBenchArgs(["--secrets", "vault"], 50), /--secrets must be one of passphrase, awskms/);
    assert.throws(() => parseFleetBenchArgs(["--backend", "gs"], 50), /--backend must be one of/);
    assert.throws(() => parseFleetBenchArgs(["--stacks", "0"], 50), /--stacks must be an integer of at least 1/);
    assert.throws(() => parseFleetBenchArgs(["--repeat", "0"], 50), /--repeat must be an integer of at least 1/);
    assert.doesNotMatch(fleetBenchCommand(parseFleetBenchArgs(["--repeat", "1"], 50)), /--repeat/);
  });
});
