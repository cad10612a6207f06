// Doctor against a service that misbehaves, on a loopback stub. It follows no
// redirect (the client secret is never re-sent; only the target's origin is shown); --write-check
// reads the whole added list first, adds only what that list lacks and removes nothing it did not
// add; and no form of the client secret or the token reaches its output, trace or written profile.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { printSeedOnFailure, seedFrom, seededRandom } from "../../test/support/seed";
import { runDoctor, startStub, type Stub, type StubOptions, type Target } from "../../test/support/doctor-stub";

const seed = seedFrom("CANARY_SEED");
const random = seededRandom(seed.toString(16).padStart(8, "0"));
const canary = (label: string) =>
  `${label}-${Array.from({ length: 16 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(random() * 36)]).join("")}`;

/** Every form a service could echo a value in: the test's own list, not doctor's. */
function forms(value: string): string[] {
  return [
    value,
    value.toUpperCase(),
    value.toLowerCase(),
    Buffer.from(value).toString("base64"),
    Buffer.from(value).toString("base64url"),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
    value.slice(0, 12),
    value.slice(-12),
  ];
}

function assertNoForm(text: string, value: string, where: string): void {
  for (const form of forms(value)) {
    assert.ok(
      !text.toLowerCase().includes(form.toLowerCase()),
      `a form of a canary in ${where} (replay with CANARY_SEED=${seed})`,
    );
  }
}

describe(`doctor against a misbehaving service (CANARY_SEED=${seed})`, function () {
  this.timeout(30_000);
  printSeedOnFailure("CANARY_SEED", seed);
  let dir: string;
  const stubs: Stub[] = [];
  const secret = canary("secret");
  const stub = async (options: StubOptions = {}) => {
    const s = await startStub(options);
    stubs.push(s);
    return {
      stub: s,
      target: { baseUrl: s.baseUrl, clientId: "stub-client", clientSecret: secret, accountId: "acct" } as Target,
    };
  };
  before(() => (dir = mkdtempSync(path.join(tmpdir(), "doctor-safety-"))));
  after(async () => {
    for (const s of stubs) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a 307 on the token route: reported with the target's origin only, nothing re-sent there, exit 1", async () => {
    const { stub: sink } = await stub();
    const { target } = await stub({
      intercept: (r) =>
        r.path === "/es/v2/oauth/client-token"
          ? { status: 307, headers: { location: `${sink.baseUrl}/collect/${secret}?next=/x` } }
          : undefined,
    });
    const { code, text } = await runDoctor(target);
    assert.equal(code, 1, text);
    assert.match(text, /^POST \S+ +getToken +307 +\d+ ms +redirected /m);
    assert.ok(text.includes(`redirected (307) to ${sink.baseUrl}: doctor follows no redirect`), text);
    assert.doesNotMatch(text, /collect|next=/, "the origin only");
    assert.equal(sink.requests.length, 0, "nothing was sent to the redirect's target");
    assertNoForm(text, secret, "the output");
  });

  it("a 302 on a list route: that route is reported, exit 1", async () => {
    const { stub: sink } = await stub();
    const { stub: s, target } = await stub({
      intercept: (r) =>
        r.path === "/es/v2/connectors/added"
          ? { status: 302, headers: { location: `${sink.baseUrl}/added` } }
          : undefined,
    });
    const { code, text } = await runDoctor(target);
    assert.equal(code, 1, text);
    assert.match(text, /listAddedConnectors\n(.*\n)*? {2}note: redirected \(302\) to http:\/\/127\.0\.0\.1:\d+:/);
    assert.match(
      text,
      /^GET \/es\/v2\/connectors\/added +listAddedConnectors +302 +\d+ ms +redirected +redirected \(302\) to http:\/\/127\.0\.0\.1:\d+$/m,
      "its row in the table",
    );
    assert.equal(sink.requests.length, 0);
    assert.ok(s.requests.length > 0);
  });

  it("--write-check reads every page of the added list first, and adds only a connector it lacks", async () => {
    // Pages of 2 unless asked: c2 is on the second page. Add reports alreadyAdded.
    const { stub: s, target } = await stub({ added: ["c0", "c1", "c2"], defaultPageSize: 2 });
    const { code, text } = await runDoctor(target, { writeCheck: true });
    assert.match(text, /the added list, read whole: 3 connector\(s\)/);
    assert.deepEqual([...s.added].sort(), ["c0", "c1", "c2"], "what the sub-account had, it still has");
    const writes = s.requests.filter((r) => r.method !== "GET" && !r.path.includes("token"));
    assert.ok(writes.length > 0, text);
    for (const w of writes)
      assert.ok(!/c[012]\b/.test(`${w.path} ${w.body}`), `no write to a connector it had: ${w.method} ${w.path}`);
    assert.equal(code, 0, text);
  });

  it("--write-check never removes a connector whose Add answered alreadyAdded", async () => {
    // The list never shows c0, but the sub-account has it.
    const { stub: s, target } = await stub({ added: ["c0"], hidden: ["c0"] });
    const { code, text } = await runDoctor(target, { writeCheck: true });
    assert.match(text, /Add answered alreadyAdded for c0, which the complete list lacked: doctor removes nothing/);
    assert.ok(s.added.has("c0"));
    assert.ok(!s.requests.some((r) => r.method === "DELETE"), "no Remove");
    assert.equal(code, 1, text);
  });

  it("--write-check refuses, writing nothing, when the added list cannot be proven whole", async () => {
    const { stub: s, target } = await stub({
      added: ["c0", "c1", "c2"],
      // The added list ignores paging: every page is the same two items, with a total of 3.
      intercept: (r) =>
        r.path === "/es/v2/connectors/added"
          ? {
              status: 200,
              body: { statusCode: 200, response: { items: [{ connectorId: "c0" }, { connectorId: "c1" }], total: 3 } },
            }
          : undefined,
    });
    const { code, text } = await runDoctor(target, { writeCheck: true });
    assert.match(
      text,
      /refused: the added list could not be read whole \(GET \/es\/v2\/connectors\/added: page 2 repeats/,
    );
    assert.ok(!s.requests.some((r) => r.method === "POST" && r.path === "/es/v2/connectors"), "no Add");
    assert.equal(code, 1, text);
  });

  it("--write-check probes the added list's paging while its connector is added, when the other lists disagree", async () => {
    // The catalogue pages by page/pageSize, the supported list by size/offset; the added list is empty.
    const { target } = await stub({ offsetPaged: ["/es/v2/connectors/supported"] });
    const profile = path.join(dir, "supported-offset.json");
    writeFileSync(
      profile,
      JSON.stringify({
        operations: { listSupportedConnectors: { paging: { style: "offset", offset: "offset", size: "size" } } },
      }),
    );
    const readOnly = await runDoctor(target, { profile });
    assert.match(readOnly.text, /could not tell the paging of listAddedConnectors; run doctor --write-check/);
    assert.equal(readOnly.code, 1, readOnly.text);
    const probed = await runDoctor(target, { profile, writeCheck: true });
    assert.match(
      probed.text,
      /listAddedConnectors\n(.*\n)*? {2}paging honoured: page\/pageSize \(with no paging asked: 1 items\)/,
    );
    assert.equal(probed.code, 0, probed.text);
  });

  it("a request that gets no answer ends at --timeout, naming the route", async () => {
    const { target } = await stub({ intercept: (r) => (r.path.endsWith("/added") ? { status: 0 } : undefined) });
    await assert.rejects(
      runDoctor(target, { timeout: "0.5" }),
      /List Added Connectors \(GET \/es\/v2\/connectors\/added\): no answer from http:\/\/127\.0\.0\.1:\d+ \(timed out\)/,
    );
  });

  it("a token that is not a header value: never sent, never printed", async () => {
    const token = `${canary("token")} x\n`;
    const { stub: s, target } = await stub({ accessToken: token });
    const trace = path.join(dir, "bad-token-trace.txt");
    const { code, text } = await runDoctor(target, { trace });
    assert.equal(code, 1, text);
    assert.match(text, /the accessToken is not a valid header value/);
    assert.equal(s.requests.length, 1, "nothing after the token");
    assertNoForm(text, token.slice(0, -3), "the output");
    assertNoForm(readFileSync(trace, "utf8"), token.slice(0, -3), "the trace");
  });

  it("service text quoting the secret and the token, in any form: none in the output, trace or written profile", async () => {
    const token = canary("token");
    const echo = (value: string) => Object.fromEntries(forms(value).map((f) => [f, 1]));
    const { target } = await stub({
      accessToken: token,
      intercept: (r) => {
        const headers = {
          "x-request-id": Buffer.from(secret).toString("base64"),
          "content-type": `application/json; q=${token}`,
        };
        if (r.path === "/es/v2/oauth/client-token") {
          return { status: 200, headers, body: { accessToken: token, ...echo(secret) } };
        }
        if (r.path === "/es/v2/connectors/added") {
          return {
            status: 200,
            headers,
            body: { statusCode: 200, response: { items: [], total: 0, ...echo(token), ...echo(secret) } },
          };
        }
        return undefined;
      },
    });
    const trace = path.join(dir, "echo-trace.txt");
    const written = path.join(dir, "echo-profile.yaml");
    const { text, progress } = await runDoctor(target, { trace, writeProfile: written });
    assert.match(
      progress,
      /^doctor: GET \/es\/v2\/connectors\/added \(listAddedConnectors\): 200$/m,
      "a line per request",
    );
    for (const [where, content] of [
      ["the output", text],
      ["the progress lines", progress],
      ["the trace", readFileSync(trace, "utf8")],
      ["the written profile", readFileSync(written, "utf8")],
    ] as const) {
      assertNoForm(content, secret, where);
      assertNoForm(content, token, where);
    }
  });
  it("F4 the token echoed as hex, base64 of `Bearer <token>` or reversed, in a header and a key: not in the output or trace", async () => {
    const token = canary("token");
    const echoes = [
      Buffer.from(token).toString("hex"),
      Buffer.from(`Bearer ${token}`).toString("base64"),
      [...token].reverse().join(""),
    ];
    const { target } = await stub({
      accessToken: token,
      intercept: (r) =>
        r.path === "/es/v2/connectors/added"
          ? {
              status: 200,
              headers: { "x-request-id": echoes.join("-") },
              body: {
                statusCode: 200,
                response: { items: [], total: 0, ...Object.fromEntries(echoes.map((e) => [e, 1])) },
              },
            }
          : undefined,
    });
    const trace = path.join(dir, "encoded-echo-trace.txt");
    const { text, progress } = await runDoctor(target, { trace });
    const traced = readFileSync(trace, "utf8");
    assert.match(traced, /x-request-id: …/, "the header is named, its value is not shown");
    for (const echo of echoes) {
      for (const [where, content] of [
        ["the output", text],
        ["the progress lines", progress],
        ["the trace", traced],
      ]) {
        assert.ok(!content.includes(echo), `an encoded token in ${where} (replay with CANARY_SEED=${seed})`);
      }
    }
  });

  it("F5 --account-id `..` with {accountId} in a profile's path: refused before it is sent, naming the parameter", async () => {
    const { stub: s, target } = await stub();
    const profile = path.join(dir, "account-in-path.json");
    writeFileSync(
      profile,
      JSON.stringify({ operations: { listAddedConnectors: { path: "/es/v2/accounts/{accountId}/connectors/added" } } }),
    );
    await assert.rejects(
      runDoctor({ ...target, accountId: ".." }, { profile }),
      /accountId goes into the request path/,
    );
    assert.ok(
      !s.requests.some((r) => r.path.endsWith("/added")),
      s.requests.map((r) => `${r.method} ${r.path}`).join("\n"),
    );
  });
});
