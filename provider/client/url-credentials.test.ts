// The one credential rule (url-credentials.ts): no URL's password and no credential parameter
// reaches a message, whatever the password holds (an `@`, `/`, `?`, `#`, `%`), in the forms an
// engine's text carries it (plain, JSON-escaped, percent-encoded inside another URL); and what
// holds no credential is left as it was.
import assert from "node:assert/strict";
import fc from "fast-check";
import { scrubCredentials, withoutCredentials } from "./url-credentials";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

/** What users put in passwords, `@` and the URL's own delimiters included (no whitespace or quote). */
const PASSWORD_CHARS = "abcXYZ019@:/?#&=+!$*,;~-._%[]()".split("");
/** A password that holds no `=x://` (a URL nested in a query, which this rule cannot tell apart). */
const password = fc
  .string({ unit: fc.constantFrom(...PASSWORD_CHARS), minLength: 6, maxLength: 24 })
  .filter((p) => !/[=&;,(][a-z0-9+.-]*:\/\//i.test(p) && /[a-z0-9]{2}/i.test(p));
const user = fc.string({ unit: fc.constantFrom(..."abcdefuser_-.".split("")), minLength: 1, maxLength: 10 });
const host = fc.constantFrom("db.internal", "127.0.0.1:5432", "[::1]:5432", "backend.example.com");

/** The forms of a password that must never show. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), encodeURIComponent(encodeURIComponent(secret))];
}

function assertHidden(out: string, secret: string): void {
  for (const form of forms(secret)) assert.ok(!out.includes(form), `${JSON.stringify(form)} shows in ${out}`);
}

describe("url-credentials: the one rule for a URL's credentials", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);

  it("a password holding @: hidden to the last @, the host and database still shown", () => {
    const text = `could not open postgres://user:p@ss@host/db: dial tcp: connection refused`;
    assert.equal(scrubCredentials(text), "could not open postgres://[redacted]@host/db: dial tcp: connection refused");
    assert.equal(withoutCredentials("postgres://user:p@ss@host/db"), "postgres://host/db");
  });

  it("a credential in Go's JSON escapes, a quoted connection-string value and a DSN without a scheme", () => {
    const canary = "Canary-SIG-7f3a";
    for (const text of [
      `{"error":"open https://b.blob.core.windows.net/c?sv=2021\\u0026sig=${canary}\\u0026se=1"}`,
      `{"error":"GET https://b.s3.amazonaws.com/k?X-Amz-Date=1\\u0026X-Amz-Signature\\u003d${canary}"}`,
      `connect to host=db user=x password='${canary} with spaces' failed`,
      `dsn: "fleet:${canary}@tcp(127.0.0.1:3306)/state"`,
      `azblob://c?account_key=${canary}`,
    ]) {
      const out = scrubCredentials(text);
      assert.ok(!out.toLowerCase().includes(canary.toLowerCase()), out);
      assert.match(out, /\[redacted\]/);
    }
    assert.equal(
      scrubCredentials(`{"error":"open https://b.blob.core.windows.net/c?sv=2021\\u0026sig=x1y2z3\\u0026se=1"}`),
      `{"error":"open https://b.blob.core.windows.net/c?sv=2021\\u0026sig=[redacted]\\u0026se=1"}`,
      "the other parameters stay",
    );
  });

  it("URLs without credentials are left as they were (a backend's identity does not move)", () => {
    for (const url of [
      "s3://bucket/prefix?region=eu-west-1&endpoint=http://127.0.0.1:4566&s3ForcePathStyle=true",
      "file:///tmp/state",
      "file://~/state",
      "azblob://container?storage_account=acct",
      "gs://bucket",
      "https://api.pulumi.com",
    ]) {
      assert.equal(withoutCredentials(url), url);
      assert.equal(scrubCredentials(`the backend ${url} failed`), `the backend ${url} failed`);
    }
  });

  it("property: a raw password in a URL never shows, quoted plain, JSON-escaped or encoded in another URL", () => {
    fc.assert(
      fc.property(user, password, host, fc.constantFrom("postgres", "mysql", "s3", "https"), (u, p, h, scheme) => {
        const url = `${scheme}://${u}:${p}@${h}/db`;
        const texts = [
          `error: could not open backend "${url}": dial tcp ${h}: connect: connection refused`,
          JSON.stringify({ error: `open ${url}` }),
          `redirected to https://login.example.com/?next=${encodeURIComponent(url)}&x=1`,
          `failed: ${url}`,
          `{"error":"open ${url.replace(/\//g, "\\/")}"}`, // Go's JSON escapes `/`
          JSON.stringify(JSON.stringify({ error: `open ${url.replace(/\//g, "\\/")}` })), // escaped twice
        ];
        for (const text of texts) assertHidden(scrubCredentials(text), p);
        assert.ok(scrubCredentials(texts[0]).includes(`@${h}/db`), "the host stays");
        assert.equal(withoutCredentials(url), `${scheme}://${h}/db`);
      }),
      propertyRuns(400),
    );
  });

  it("property: a percent-encoded password never shows, nor its decoded form", () => {
    fc.assert(
      fc.property(user, password, host, (u, p, h) => {
        const url = `postgres://${u}:${encodeURIComponent(p)}@${h}/db?sslmode=disable`;
        const out = scrubCredentials(`cannot connect to ${url}`);
        assertHidden(out, p);
        assert.ok(out.endsWith(`@${h}/db?sslmode=disable`), out);
      }),
      propertyRuns(300),
    );
  });

  it("property: credential parameters of a query or a connection string never show; the others stay", () => {
    const value = fc
      .string({ unit: fc.constantFrom(..."abcXYZ019+/=%-_.~".split("")), minLength: 8, maxLength: 40 })
      .filter((v) => /[a-z0-9]{2}/i.test(v));
    fc.assert(
      fc.property(value, (v) => {
        const texts = [
          `postgres://host/db?sslmode=require&password=${v}`,
          `https://acct.blob.core.windows.net/c?sv=2021-08-06&se=2030-01-01&sig=${v}`,
          `https://b.s3.amazonaws.com/k?X-Amz-Credential=${v}&X-Amz-Signature=${v}&X-Amz-Security-Token=${v}`,
          `host=db port=5432 password=${v} dbname=state`,
          `next=${encodeURIComponent(`https://x/?access_token=${v}&a=b`)}`,
          `https://minio.internal/b?accessKey=AK&secretKey=${v}&pass=${v}&client_secret_value=${v}`,
        ];
        for (const text of texts) assertHidden(scrubCredentials(text), v);
        assert.match(scrubCredentials(texts[0]), /sslmode=require&password=\[redacted\]$/);
        assert.match(scrubCredentials(texts[1]), /sv=2021-08-06&se=2030-01-01&sig=\[redacted\]$/);
        assert.match(scrubCredentials(texts[3]), /port=5432 password=\[redacted\] dbname=state/);
      }),
      propertyRuns(300),
    );
  });

  it("property: a known URL's password is hidden wherever it shows, whitespace and quotes included", () => {
    const anyPassword = fc
      .string({ unit: fc.constantFrom(...PASSWORD_CHARS, " ", '"', "'"), minLength: 6, maxLength: 24 })
      .filter((p) => p.trim().length >= 4);
    fc.assert(
      fc.property(user, anyPassword, host, (u, p, h) => {
        const url = `postgres://${u}:${p}@${h}/db`;
        const texts = [
          `error: open ${url}: bad`,
          `user ${u} with password ${p} refused`,
          JSON.stringify(`parse "${url}": invalid`),
          `PASSWORD ${p.toUpperCase()} refused`,
        ];
        for (const text of texts) {
          const out = scrubCredentials(text, [url]);
          for (const form of [p, encodeURIComponent(p), JSON.stringify(p).slice(1, -1)])
            assert.ok(!out.toLowerCase().includes(form.toLowerCase()), `${JSON.stringify(form)} shows in ${out}`);
        }
      }),
      propertyRuns(300),
    );
  });
});
