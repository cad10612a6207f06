// The service profile (contract/profile.ts): the built-in default is today's route table, a
// file overrides it key by key, and a bad file is refused naming the key and what was expected.
import { strict as assert } from "node:assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PROFILE, loadProfile, OPERATIONS, ProfileError, resolveProfile } from "./profile";
import { ROUTES } from "./routes";

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "profile-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("service profile", () => {
  it("the default is the route table: every operation's method and path", () => {
    for (const op of OPERATIONS) {
      assert.equal(DEFAULT_PROFILE.operations[op].method, ROUTES[op].method);
      assert.equal(DEFAULT_PROFILE.operations[op].path, ROUTES[op].path);
    }
    assert.deepEqual(resolveProfile({}, "built-in"), DEFAULT_PROFILE);
  });

  it("a YAML file overrides per operation, over `defaults`, and keeps the rest", () => {
    const profile = loadProfile(
      file(
        "hosted.yaml",
        [
          "name: hosted",
          "defaults:",
          "  paging: { style: offset }",
          "  list: { items: '', total: null }",
          "operations:",
          "  listAddedConnectors:",
          "    path: /es/v2/accounts/{accountId}/connectors",
          "    query: { accountId: account_id }",
          "  configure:",
          "    method: POST",
          "    fields: { secretConfig: sourceConfig }",
          "semantics: { addReportsAlreadyAdded: false }",
        ].join("\n"),
      ),
    );
    const added = profile.operations.listAddedConnectors;
    assert.equal(added.path, "/es/v2/accounts/{accountId}/connectors");
    assert.equal(added.query.accountId, "account_id");
    assert.deepEqual(added.paging, { style: "offset", offset: "offset", size: "size", maxSize: 200 });
    assert.deepEqual(added.list, { items: "", total: null, next: null });
    // `defaults`' paging is for lists: a single-connector route keeps none.
    assert.deepEqual(profile.operations.getConnector.paging, { style: "none" });
    assert.equal(profile.operations.configure.method, "POST");
    assert.equal(profile.operations.configure.fields.secretConfig, "sourceConfig");
    assert.equal(profile.operations.configure.fields.configurationId, "configurationId");
    assert.equal(profile.semantics.addReportsAlreadyAdded, false);
    assert.equal(profile.semantics.conflictCounts, true);
  });

  it("a JSON file is read as JSON", () => {
    const profile = loadProfile(file("p.json", JSON.stringify({ operations: { getConnector: { method: "POST" } } })));
    assert.equal(profile.operations.getConnector.method, "POST");
  });

  it("a bad key is named with what was expected", () => {
    const bad = file(
      "bad.yaml",
      "operations:\n  listConnectors:\n    paging: { style: pages }\n    envelope: { mode: 3 }\n",
    );
    assert.throws(
      () => loadProfile(bad),
      (error: unknown) =>
        error instanceof ProfileError &&
        error.message.includes(bad) &&
        error.message.includes("operations.listConnectors.paging.style") &&
        error.message.includes("operations.listConnectors.envelope.mode"),
    );
    assert.throws(() => resolveProfile({ operations: { listConnector: {} } }, "x.yaml"), /x\.yaml: .*listConnector/);
    assert.throws(
      () => resolveProfile({ operations: { getConnector: { path: "/c/{connector}" } } }, "y.yaml"),
      /operations\.getConnector\.path: \{connector\} is not a parameter of Get Connector; expected \{accountId\} or \{connectorId\}/,
    );
    assert.throws(() => loadProfile(file("broken.json", "{")), /broken\.json: not valid JSON/);
    assert.throws(() => loadProfile(file("broken.yaml", "a: [")), /broken\.yaml: not valid YAML/);
    assert.throws(() => loadProfile("/nonexistent/p.yaml"), /cannot read the file \(ENOENT\)/);
  });
});
