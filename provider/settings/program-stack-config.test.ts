// The program's warnings of its stack config print once per program process, whichever copy of
// the package a resource comes from (a program can load its own copy and a dependency's).
import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";

const MODULE = require.resolve("./program-stack-config");
const WARNED = Symbol.for("pulumi-embedded-connectors/program-warnings");

/** A fresh copy of the module, as a second copy of the package in node_modules loads it. */
function freshCopy(): typeof import("./program-stack-config") {
  delete require.cache[MODULE];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(MODULE) as typeof import("./program-stack-config");
}

describe("settings/program-stack-config: each warning once per program process", () => {
  const warned: string[] = [];
  const warn = pulumi.log.warn;
  beforeEach(() => {
    warned.length = 0;
    delete (globalThis as Record<symbol, unknown>)[WARNED];
    pulumi.log.warn = async (message: string) => void warned.push(message);
  });
  afterEach(() => {
    pulumi.log.warn = warn;
    delete (globalThis as Record<symbol, unknown>)[WARNED];
  });

  it("no embedded:digestKey: one warning for every ConnectorConfiguration of two copies of the package", () => {
    const [first, second] = [freshCopy(), freshCopy()];
    assert.notEqual(first, second, "two copies");
    for (const copy of [first, second, first, second]) copy.warnOfNoDigestKey();
    assert.equal(warned.length, 1, warned.join("\n"));
    assert.match(warned[0], /embedded:digestKey is not set/);
  });
});
