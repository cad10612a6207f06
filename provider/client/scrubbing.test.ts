// The scrubbing of the service's text cannot fail and never quotes what it
// scrubs, whatever the size or number of the values sent; and should it fail anyway, the typed
// error (and so the retry decision) is the same, with the service's text left out.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import {
  EmbeddedApiError,
  NOTHING_SENT,
  ServerError,
  ValidationError,
  errorFromResponse,
  redactSentValues,
  sentRequestOf,
} from "./";
import { routeLabel } from "../../contract/routes";

const MIB = 1024 * 1024;
const route = routeLabel("configure");

function canary(label: string, size = 0): string {
  const head = `canary-${label}-${randomBytes(6).toString("hex")}-`;
  return head + "x".repeat(Math.max(0, size - head.length));
}

describe("client: scrubbing the service's text of the values sent", () => {
  it("a 1 MiB value quoted back is replaced, without an exception, and nothing of it is left", () => {
    const huge = canary("huge", MIB);
    const text = `could not store ${huge} (too long)`;
    assert.equal(redactSentValues(text, [huge, "other"]), "could not store [redacted] (too long)");
  });

  it("a 1 MiB value of one repeated character, in a text of twice that: linear, every occurrence gone", () => {
    const value = "a".repeat(MIB);
    const text = `<${"a".repeat(2 * MIB + 1)}>`;
    const out = redactSentValues(text, [value, "a".repeat(MIB - 1) + "b"]);
    assert.ok(!out.includes(value), "the value is gone");
    assert.equal(out, "<[redacted]a>");
  });

  it("thousands of values, each quoted back: every one replaced", () => {
    const values = Array.from({ length: 3_000 }, (_, i) => `value-${i}-${randomBytes(4).toString("hex")}`);
    const text = values.map((v, i) => `field ${i}: ${v}`).join("; ");
    const out = redactSentValues(text, values);
    for (const v of values) assert.ok(!out.includes(v), `${v} is left`);
    assert.match(out, /^field 0: \[redacted\]; field 1: \[redacted\]/);
  });

  it("values that are substrings of each other: the longest takes its span, the shorter ones the rest", () => {
    const values = ["secret", "secret-long", "cret-l", "long-secret-longer"];
    assert.equal(
      redactSentValues("secret-long and secret, long-secret-longer", values),
      "[redacted] and [redacted], [redacted]",
    );
    // A shorter value's occurrences inside a longer one's do not split what the longer one hid.
    assert.equal(redactSentValues("x secret-longsecret y", ["secret", "secret-long"]), "x [redacted] y");
  });

  it("values of 1-3 characters only as whole words; values are text, never patterns", () => {
    assert.equal(
      redactSentValues('region "eu" in europe, EU and eu.', ["eu", "EU"]),
      'region "[redacted]" in europe, [redacted] and [redacted].',
    );
    assert.equal(redactSentValues("got 5 of 15, 5", ["5"]), "got [redacted] of 15, [redacted]");
    assert.equal(
      redactSentValues("a.b+c and axb+c, (?<x>) and .*", ["a.b+c", "(?<x>)", ".*"]),
      "[redacted] and axb+c, [redacted] and [redacted]",
    );
    assert.equal(redactSentValues("a [redacted] b", ["redacted"]), "a [[redacted]] b");
  });
});

describe("client: errorFromResponse whatever the scrubbing does", () => {
  const password = canary("password");
  const text = canary("text", 40_000);

  it("a 413 quoting a 40 KB value and a Password: typed, with its request id, and neither value anywhere", () => {
    const error = errorFromResponse({
      status: 413,
      body: { statusCode: 413, statusMessage: `too large: ${text} with ${password}`, response: null },
      requestId: "req-413",
      route,
      sent: sentRequestOf({ body: [password, text, "c0c0c0c0c0c0c0c0"], secrets: [] }),
    });
    assert.ok(error instanceof EmbeddedApiError, `a typed error, got ${String(error).slice(0, 80)}`);
    assert.equal(error.status, 413);
    assert.equal(error.requestId, "req-413");
    const shown = inspect(error, { depth: 10 });
    assert.ok(!shown.includes(password) && !shown.includes(text.slice(0, 40)), "a canary appears in the error");
    assert.match(error.message, /413 too large: \[redacted\] with \[redacted\] \(request id req-413\)/);
  });

  it("a scrubber that throws: the same typed error, status and request id kept, the service's text and the failure left out", () => {
    const failing = () => {
      throw new SyntaxError(`Invalid regular expression: /${password}/: Regular expression too large`);
    };
    const serviceText = `could not store ${password}`;
    const answer = (status: number) => ({
      status,
      body: {
        statusCode: status,
        statusMessage: serviceText,
        errors: [{ field: "secretConfig.apiKey", message: `bad ${password}` }],
        response: null,
      },
      requestId: `req-${status}`,
      route,
      sent: NOTHING_SENT,
    });
    const server = errorFromResponse(answer(503), failing);
    assert.ok(server instanceof ServerError && server.retryable, "a 503 stays a retryable ServerError");
    const refused = errorFromResponse(answer(400), failing);
    assert.ok(refused instanceof ValidationError);
    assert.deepEqual(refused.fieldErrors, []);
    for (const [error, generic] of [
      [server, "Service Unavailable"],
      [refused, "Bad Request"],
    ] as const) {
      const shown = inspect(error, { depth: 10 });
      assert.ok(!shown.includes(password), `the canary appears: ${shown}`);
      assert.ok(
        !shown.includes("could not store") && !shown.includes("regular expression"),
        `the service's text or the failure appears: ${shown}`,
      );
      assert.equal(error.statusMessage, generic);
      assert.match(
        error.message,
        new RegExp(
          `: ${error.status} ${generic}: the service's message is left out .*\\(request id req-${error.status}\\)$`,
        ),
      );
    }
  });
});
