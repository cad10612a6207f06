// The plugin's wire format (wire.ts): secrets unwrapped on the way in (and remembered per
// top-level property), wrapped again on the way out; undefined dropped; the stack of a URN.
// Also the type token of a URN (resources.ts), which picks the resource implementation.
import assert from "node:assert/strict";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { fromStruct, ownerOfUrn, toStruct } from "./wire";
import { resourceTypeOf, typeOfUrn, withInputs } from "./resources";
import { isSecret, raw, secret, SECRET_SIG, SIG_KEY, struct, UNKNOWN } from "../../../test/support/plugin-harness";

describe("plugin wire: Struct <-> plain values", () => {
  it("unwraps nested secrets and reports only the top-level key as secret", () => {
    const { props, secrets } = fromStruct(
      struct({
        connectorId: "abc",
        secretConfig: { apiKey: secret("k"), workspace: "acme", tags: ["a", secret("b")] },
        whole: secret({ inner: secret(1) }),
        plain: { a: [1, 2] },
      }),
    );
    assert.deepEqual(props, {
      connectorId: "abc",
      secretConfig: { apiKey: "k", workspace: "acme", tags: ["a", "b"] },
      whole: { inner: 1 },
      plain: { a: [1, 2] },
    });
    assert.deepEqual([...secrets].sort(), ["secretConfig", "whole"]);
  });

  it("an absent Struct is no properties", () => {
    const { props, secrets } = fromStruct(undefined);
    assert.deepEqual(props, {});
    assert.equal(secrets.size, 0);
  });

  it("keeps unknown values (preview) as the sentinel string", () => {
    assert.deepEqual(fromStruct(struct({ accountId: UNKNOWN })).props, { accountId: UNKNOWN });
  });

  it("wraps the named keys as secrets, with Pulumi's signature, and only when they hold a value", () => {
    const out = raw(toStruct({ a: "x", b: { c: 1 }, n: null, plain: "p" }, ["a", "b", "n", "missing"]));
    assert.deepEqual(out.a, { [SIG_KEY]: SECRET_SIG, value: "x" });
    assert.deepEqual(out.b, { [SIG_KEY]: SECRET_SIG, value: { c: 1 } });
    assert.equal(out.n, null, "null is not wrapped");
    assert.equal(out.plain, "p");
    assert.ok(!("missing" in out));
  });

  it("drops undefined from objects and turns it into null in lists (Struct refuses undefined)", () => {
    const out = raw(toStruct({ a: undefined, b: { c: undefined, d: 1 }, list: [1, undefined, { e: undefined }] }));
    assert.deepEqual(out, { b: { d: 1 }, list: [1, null, {}] });
    assert.ok(!("a" in out));
  });

  it("round-trips: what was secret on the way in leaves as secret", () => {
    const incoming = fromStruct(struct({ name: secret("n"), other: 2 }));
    const out = raw(toStruct(incoming.props, incoming.secrets));
    assert.ok(isSecret(out.name));
    assert.equal(out.other, 2);
    assert.deepEqual(raw(Struct.fromJavaScript({})), {});
  });
});

describe("plugin URNs", () => {
  it("ownerOfUrn: project/stack of a resource URN; empty when it is not one", () => {
    assert.equal(ownerOfUrn("urn:pulumi:dev::proj::embedded:index:AddedConnector::s3"), "proj/dev");
    assert.equal(ownerOfUrn("urn:pulumi:prod-eu::my-app::pulumi:providers:embedded::default_0_1_0"), "my-app/prod-eu");
    assert.equal(ownerOfUrn("urn:pulumi:dev::proj::parent$embedded:index:AddedConnector::s3"), "proj/dev");
    assert.equal(ownerOfUrn("embedded:index:AddedConnector"), "");
    assert.equal(ownerOfUrn(""), "");
  });

  it("typeOfUrn: the type token, also under a parent; the resource type it picks", () => {
    assert.equal(typeOfUrn("urn:pulumi:dev::proj::embedded:index:AddedConnector::s3"), "embedded:index:AddedConnector");
    assert.equal(
      typeOfUrn("urn:pulumi:dev::proj::my:component:Thing$embedded:index:ConnectorConfiguration::c"),
      "embedded:index:ConnectorConfiguration",
    );
    assert.equal(
      resourceTypeOf("urn:pulumi:dev::proj::embedded:index:AddedConnector::s3").definition.name,
      "AddedConnector",
    );
    assert.deepEqual([...resourceTypeOf("", "embedded:index:ConnectorConfiguration").secrets].sort(), [
      "__digestSalt",
      "digestSalt",
      "secretConfig",
    ]);
  });

  it("an unknown type is refused, naming the known ones", () => {
    assert.throws(
      () => resourceTypeOf("urn:pulumi:dev::proj::embedded:index:Nope::x"),
      (error: Error) =>
        error.message.includes('"embedded:index:Nope"') &&
        error.message.includes("embedded:index:AddedConnector") &&
        error.message.includes("embedded:index:ConnectorConfiguration"),
    );
  });

  it("withInputs echoes every input but the engine's own (__*), outputs winning", () => {
    assert.deepEqual(withInputs({ a: 1, b: 2, __provider: "p" }, { b: 3, c: 4 }), { a: 1, b: 3, c: 4 });
  });
});
