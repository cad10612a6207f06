// docs/service-profile.md is true: its example is the committed profiles/example.yaml, every
// YAML block in it is a valid profile, its error example is what a bad file gives, it documents
// every key, and the example profile drives the client against a service in its conventions.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PROFILE, loadProfile, parseProfileText, resolveProfile } from "../../contract/profile";
import { collect, EmbeddedClient, NotFoundError } from "../../provider/client";
import { resolveSettings } from "../../provider/settings/resolve";
import { ACCOUNT, answer, CONNECTOR, ScriptedTransport, tokenAnswer, viewA } from "../support/client-fakes";
import { servePage } from "../support/profile-fake";

const ROOT = join(__dirname, "../../..");
const doc = readFileSync(join(ROOT, "docs/service-profile.md"), "utf8");
const blocks = (lang: string) =>
  [...doc.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);

describe("docs/service-profile.md", () => {
  it("shows profiles/example.yaml as it is committed, and every YAML block in it is a valid profile", () => {
    const yaml = blocks("yaml");
    assert.equal(yaml[0], readFileSync(join(ROOT, "profiles/example.yaml"), "utf8"));
    for (const [i, block] of yaml.entries()) resolveProfile(parseProfileText(block, `block-${i}.yaml`), `block-${i}`);
    const other = resolveProfile(parseProfileText(yaml[1], "b.yaml"), "b");
    assert.equal(other.operations.listAddedConnectors.path, "/es/v2/accounts/{accountId}/connectors/added");
    assert.equal(other.operations.configure.fields.secretConfig, "sourceConfig");
  });

  it("its error example is what a bad file gives", () => {
    const dir = mkdtempSync(join(tmpdir(), "profile-doc-"));
    writeFileSync(join(dir, "p.yaml"), "operations:\n  listConnectors:\n    paging: { style: pages }\n");
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const env = { EMBEDDED_BASE_URL: "http://127.0.0.1:1", EMBEDDED_CLIENT_ID: "i", EMBEDDED_CLIENT_SECRET: "s" };
      assert.throws(
        () => resolveSettings(() => undefined, { ...env, EMBEDDED_SERVICE_PROFILE: "p.yaml" }),
        (error: Error) => error.message === blocks("text")[0].trim(),
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it("documents every key", () => {
    const op = DEFAULT_PROFILE.operations.listConnectors;
    const keys = [
      ...["name", "description", "defaults", "operations", "semantics", "method", "path", "success"],
      ...Object.keys(op.query).map((k) => `query.${k}`),
      ...["style", "page", "pageSize", "offset", "size", "maxSize"].map((k) => `paging.${k}`),
      ...Object.keys(op.list).map((k) => `list.${k}`),
      ...Object.keys(op.envelope).map((k) => `envelope.${k}`),
      ...Object.keys(op.fields).map((k) => `fields.${k}`),
      ...Object.keys(DEFAULT_PROFILE.semantics),
      ...Object.keys(DEFAULT_PROFILE.operations),
    ];
    for (const key of keys) assert.ok(doc.includes(`\`${key}\``), `docs/service-profile.md names ${key}`);
  });

  it("the example profile drives the client against a service in its conventions", async () => {
    const profile = loadProfile(join(ROOT, "profiles/example.yaml"));
    const items = Array.from({ length: 230 }, (_, i) => viewA(`c${i.toString().padStart(15, "0")}`));
    const serving = { envelope: true, bare: true, total: false, cap: 100 };
    const transport = new ScriptedTransport((request) => {
      if (request.target.includes("/oauth/")) return tokenAnswer();
      if (request.method === "GET" && request.target.startsWith("/es/v2/connectors/added"))
        return servePage(profile.operations.listAddedConnectors, items, serving, request);
      if (request.method === "GET") return answer(200, { code: 404, message: "not found", response: null });
      return answer(200, "");
    });
    const client = EmbeddedClient.create(
      { baseUrl: "http://127.0.0.1:1", clientId: "c", clientSecret: "s", profile },
      { transport },
    );
    assert.equal((await collect(client.listAddedConnectors(ACCOUNT))).length, 230);
    const targets = transport.requests
      .filter((r) => r.target.startsWith("/es/v2/connectors/added"))
      .map((r) => r.target);
    assert.deepEqual(
      targets,
      [0, 100, 200, 230].map((offset) => `/es/v2/connectors/added?accountId=${ACCOUNT}&offset=${offset}&size=100`),
    );
    assert.ok((await client.getConnector(ACCOUNT, CONNECTOR).catch((e: unknown) => e)) instanceof NotFoundError);
    assert.equal((await client.addConnectors(ACCOUNT, [CONNECTOR])).alreadyAdded, undefined);
    await client.removeConnector(ACCOUNT, CONNECTOR);
  });
});
