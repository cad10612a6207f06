// The package paths that users' stack states name (every version's): the dynamic resources'
// serialized provider require()s them by name in the dynamic-provider process, on refresh and
// delete of a resource created long ago. Moving or renaming one breaks every existing stack while
// every test that writes a fresh state still passes; so they are written out here, once, as
// states hold them, and never derived from the code.
import assert from "node:assert/strict";

const STATE_PATHS = {
  "pulumi-embedded-connectors/dist/provider/resources/added-connector-impl.js": [
    "check",
    "diff",
    "create",
    "read",
    "update",
    "remove",
    "configureFromRequest",
  ],
  "pulumi-embedded-connectors/dist/provider/resources/connector-configuration-impl.js": [
    "check",
    "diff",
    "create",
    "read",
    "update",
    "remove",
    "configureFromRequest",
  ],
  "pulumi-embedded-connectors/dist/provider/resources/report-once.js": ["reportOnce", "isProgrammingError"],
} as const;

describe("the package paths users' states name", () => {
  for (const [statePath, operations] of Object.entries(STATE_PATHS)) {
    it(`${statePath.replace("pulumi-embedded-connectors/", "")} loads by the package's name and has ${operations.join(", ")}`, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded = require(statePath) as Record<string, unknown>;
      for (const operation of operations) {
        assert.equal(typeof loaded[operation], "function", `${statePath} exports ${operation}`);
      }
    });
  }
});
