import assert from "node:assert/strict";
import { TokenManager, type IssuedToken } from "./";

function fakeFetcher(expirySeconds = 3600) {
  let n = 0;
  const pending: ((t: IssuedToken) => void)[] = [];
  return {
    get count() {
      return n;
    },
    immediate: async (): Promise<IssuedToken> => ({ accessToken: `tok-${++n}`, expirySeconds }),
    /** A fetch that resolves only when release() is called. */
    deferred: (): Promise<IssuedToken> => {
      n++;
      const id = n;
      return new Promise((resolve) => pending.push(() => resolve({ accessToken: `tok-${id}`, expirySeconds })));
    },
    release: () => pending.splice(0).forEach((resolve) => resolve({ accessToken: "", expirySeconds: 0 })),
  };
}

describe("client token manager", () => {
  it("fetches once for many concurrent callers", async () => {
    const f = fakeFetcher();
    const tokens = new TokenManager(f.deferred);
    const callers = Array.from({ length: 20 }, () => tokens.get());
    f.release();
    const values = await Promise.all(callers);
    assert.deepEqual(new Set(values), new Set(["tok-1"]));
    assert.equal(tokens.tokenRequests, 1);
    assert.equal(await tokens.get(), "tok-1");
    assert.equal(tokens.tokenRequests, 1);
  });

  it("renews shortly before expiry: 30 s early, or 10% of a short lifetime", async () => {
    let now = 0;
    const f = fakeFetcher(3600);
    const tokens = new TokenManager(f.immediate, { now: () => now });
    assert.equal(await tokens.get(), "tok-1");
    now = 3_569_999;
    assert.equal(await tokens.get(), "tok-1");
    now = 3_570_000;
    assert.equal(await tokens.get(), "tok-2");

    let t = 0;
    const short = new TokenManager(fakeFetcher(1).immediate, { now: () => t });
    assert.equal(await short.get(), "tok-1");
    t = 899;
    assert.equal(await short.get(), "tok-1");
    t = 900;
    assert.equal(await short.get(), "tok-2");
  });

  it("renews once when several calls report the same rejected token", async () => {
    const f = fakeFetcher();
    const tokens = new TokenManager(f.immediate);
    const first = await tokens.get();
    tokens.invalidate(first);
    tokens.invalidate(first);
    const renewed = await Promise.all([tokens.get(), tokens.get()]);
    assert.deepEqual(renewed, ["tok-2", "tok-2"]);
    // A late 401 for the old token does not drop the new one.
    tokens.invalidate(first);
    assert.equal(await tokens.get(), "tok-2");
    assert.equal(tokens.tokenRequests, 2);
  });

  it("does not cache a failed fetch", async () => {
    let fail = true;
    const tokens = new TokenManager(async () => {
      if (fail) throw new Error("service down");
      return { accessToken: "tok-ok", expirySeconds: 60 };
    });
    await assert.rejects(tokens.get(), /service down/);
    fail = false;
    assert.equal(await tokens.get(), "tok-ok");
    assert.equal(tokens.tokenRequests, 2);
  });
});
