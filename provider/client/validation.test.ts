import assert from "node:assert/strict";
import { InvalidArgumentError, checkAccountId, checkConnectorIds, checkId, isLoopbackHost, parseBaseUrl } from "./";

describe("client validation", () => {
  it("accepts 16-character alphanumeric ids only", () => {
    assert.equal(checkId("connectorId", "0123456789abcdeF"), "0123456789abcdeF");
    for (const bad of [
      "",
      "0123456789abcde",
      "0123456789abcdef0",
      "0123456789abcde/",
      "../../../../etc/",
      16,
      null,
      undefined,
    ]) {
      assert.throws(
        () => checkId("connectorId", bad),
        (e: unknown) => e instanceof InvalidArgumentError && e.argument === "connectorId",
      );
    }
  });

  it("refuses account ids that can never be valid", () => {
    assert.equal(checkAccountId("a1b2c3d4e5f60718"), "a1b2c3d4e5f60718");
    for (const bad of ["", "   ", "a b", "x\n", "x".repeat(129), 5])
      assert.throws(() => checkAccountId(bad), InvalidArgumentError);
  });

  it("checks Add's ids: 1 to 50, duplicates dropped", () => {
    assert.deepEqual(checkConnectorIds(["0123456789abcdef", "fedcba9876543210", "0123456789abcdef"]), [
      "0123456789abcdef",
      "fedcba9876543210",
    ]);
    assert.throws(() => checkConnectorIds([]), /1 to 50/);
    assert.throws(
      () => checkConnectorIds(Array.from({ length: 51 }, (_, i) => i.toString(16).padStart(16, "0"))),
      /1 to 50/,
    );
    assert.throws(() => checkConnectorIds(["0123456789abcdef", "bad"]), /connectorIds\[1\]/);
    assert.throws(() => checkConnectorIds("0123456789abcdef"), InvalidArgumentError);
  });

  it("knows loopback hosts", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "[::1]", "::1", "::ffff:127.0.0.1"]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of [
      "example.com",
      "10.0.0.1",
      "128.0.0.1",
      "localhost.example.com",
      "[::2]",
      "127.example.com",
      "api.localhost",
      "anything.localhost",
    ]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it("refuses plain http to a remote host with a clear message", () => {
    assert.throws(
      () => parseBaseUrl("http://api.example.com"),
      /refusing plain http:\/\/ to api\.example\.com.*loopback/,
    );
    assert.deepEqual(parseBaseUrl("http://127.0.0.1:8080/"), {
      origin: "http://127.0.0.1:8080",
      basePath: "",
      normalized: "http://127.0.0.1:8080",
    });
    assert.equal(parseBaseUrl("http://[::1]:1/").origin, "http://[::1]:1");
    assert.deepEqual(parseBaseUrl("https://api.example.com/prefix/"), {
      origin: "https://api.example.com",
      basePath: "/prefix",
      normalized: "https://api.example.com/prefix",
    });
  });

  it("refuses other schemes, credentials, queries and non-URLs", () => {
    assert.throws(() => parseBaseUrl("ftp://x"), /https/);
    assert.throws(
      () => parseBaseUrl("https://user:pw@example.com"),
      (e: unknown) => e instanceof Error && !e.message.includes("pw"),
    );
    assert.throws(() => parseBaseUrl("https://example.com/?a=1"), /query/);
    assert.throws(() => parseBaseUrl("example.com"), /absolute URL/);
  });
});
