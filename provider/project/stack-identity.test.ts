// The identity a pending-Add or pending-Configure record names its stack by.
// `project/stack` alone is shared by a same-named stack of another backend, organisation's
// secrets provider or machine; the identity is not, and two spellings of one backend agree.
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { AddJournal } from "../runtime/pending-writes";
import { stackIdentity, type Whereabouts } from "./stack-identity";

describe("the stack identity of pending records", () => {
  let project: string;
  let home: string;
  beforeEach(() => {
    const root = mkdtempSync(path.join(tmpdir(), "stack-identity-"));
    project = path.join(root, "program");
    home = path.join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: proj\nruntime: yaml\n");
    writeFileSync(path.join(project, "Pulumi.dev.yaml"), "encryptionsalt: v1:c2FsdA==:v1:aaa:bbb\n");
  });
  afterEach(() => rmSync(path.dirname(project), { recursive: true, force: true }));

  const at = (backend: string, extra: Partial<Whereabouts> = {}) =>
    stackIdentity("proj/dev", {
      env: { PULUMI_BACKEND_URL: backend, PULUMI_HOME: home },
      cwd: project,
      host: "runner-1",
      ...extra,
    }).key;

  it("differs for a stack of the same names in another backend, secrets provider or machine", () => {
    const mine = at("file:///srv/state-one");
    assert.notEqual(at("file:///srv/state-two"), mine, "another file backend");
    assert.notEqual(at("s3://bucket-one"), mine, "another kind of backend");
    assert.notEqual(at("file:///srv/state-one", { host: "runner-2" }), mine, "another machine");
    writeFileSync(path.join(project, "Pulumi.dev.yaml"), "encryptionsalt: v1:b3RoZXI=:v1:ccc:ddd\n");
    assert.notEqual(at("file:///srv/state-one"), mine, "another passphrase salt (another stack init)");
    writeFileSync(path.join(project, "Pulumi.dev.yaml"), "secretsprovider: awskms://alias/other\nencryptedkey: AQID\n");
    assert.notEqual(at("file:///srv/state-one"), mine, "another secrets provider");
    assert.notEqual(stackIdentity("proj/prod", { env: { PULUMI_BACKEND_URL: "file:///srv/state-one" } }).key, mine);
  });

  it("agrees for two spellings of one backend, whichever way the CLI was told it", () => {
    const mine = at(`file://${project}/state`);
    assert.equal(at("file://./state"), mine, "relative to the project");
    assert.equal(at(`file://${project}/state/`), mine, "a trailing slash");
    // The same backend named by Pulumi.yaml, or by the login, instead of the environment.
    writeFileSync(
      path.join(project, "Pulumi.yaml"),
      "name: proj\r\nruntime: yaml\r\nbackend: { url: 'file://./state' }\r\n",
    );
    assert.equal(at(""), mine, "Pulumi.yaml's backend.url");
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: proj\nruntime: yaml\n");
    writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: `file://${project}/state` }));
    assert.equal(at(""), mine, "the login's");
    assert.equal(at("s3://bucket-one/"), at("s3://bucket-one"), "a trailing slash of another scheme");
    // A URL's credentials are not part of which backend it is.
    assert.equal(at("postgres://fleet:pw-one@db/state"), at("postgres://db/state"));
  });

  it("a same-named stack's records never replace or settle this stack's", () => {
    const journalDir = path.join(path.dirname(project), "records");
    const mine = stackIdentity("proj/dev", { env: { PULUMI_BACKEND_URL: "file:///srv/one" }, cwd: project });
    const theirs = stackIdentity("proj/dev", { env: { PULUMI_BACKEND_URL: "file:///srv/two" }, cwd: project });
    new AddJournal(journalDir, mine).begin("http://svc", "acct", "configuration:c1"); // killed mid-write
    const other = new AddJournal(journalDir, theirs);
    assert.equal(other.pending("http://svc", "acct", "configuration:c1"), undefined, "not theirs to claim");
    other.begin("http://svc", "acct", "configuration:c1");
    other.settle("http://svc", "acct", "configuration:c1");
    const next = new AddJournal(journalDir, mine).pending("http://svc", "acct", "configuration:c1");
    assert.equal(next?.owner, "proj/dev", "this stack's record is still there for its next run");
  });

  it("reads the secrets provider from stackConfigDir when the project sets one", () => {
    const before = at("file:///srv/state-one");
    mkdirSync(path.join(project, "stacks"));
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: proj\nruntime: yaml\nstackConfigDir: stacks\n");
    writeFileSync(path.join(project, "stacks", "Pulumi.dev.yaml"), "encryptionsalt: v1:c3RhY2tz:v1:e:f\n");
    const there = at("file:///srv/state-one");
    assert.notEqual(there, before);
    writeFileSync(path.join(project, "stacks", "Pulumi.dev.yaml"), "encryptionsalt: v1:c3RhY2tz:v1:e:g\n");
    assert.notEqual(at("file:///srv/state-one"), there);
  });
});
