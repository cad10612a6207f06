// provider/client/undici-parts.ts loads undici's Pool and request API by their module paths,
// not through undici's entry (which loads all of undici). Those paths are undici's internals:
// if an undici release moved or replaced them, the client would silently use something else.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { Pool, request } from "./undici-parts";

describe("undici parts", () => {
  it("are the Pool and the request API that undici's entry exports", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const undici = require("undici") as typeof import("undici");
    assert.equal(Pool, undici.Pool);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    assert.equal(require("undici/lib/api/api-request"), undici.Dispatcher.prototype.request, "the entry's request API");
    const { MockAgent } = undici;
    const agent = new MockAgent({ connections: 1 });
    agent.disableNetConnect();
    const pool = agent.get("http://127.0.0.1:9");
    pool.intercept({ path: "/ping", method: "GET" }).reply(200, { ok: true });
    const answer = await request(pool, { method: "GET", path: "/ping" });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(await answer.body.json(), { ok: true });
    await agent.close();
  });

  it("leave undici's entry unloaded when the client is loaded (its memory and start-up time)", () => {
    const client = path.join(__dirname, "index.js");
    const script = `require(${JSON.stringify(client)}); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((f) => /undici[\\/]index\\.js$/.test(f))))`;
    assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })), []);
  });
});
