// State on a file database survives a restart (WAL mode), tokens included.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { addedIds, byName, expectEnvelope, harness, oauthBody, q } from "../../test/support/service";

const fb = byName("Facebook Custom Audiences");
const s3 = byName("Amazon S3");

describe("service: persistence", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecs-persist-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps added connectors, configurations and tokens across a restart", async () => {
    const file = path.join(dir, "nested", "service.db");
    const first = await harness({ db: file });
    const token = await first.token();
    expectEnvelope(
      await first.call("POST", `/es/v2/connectors${q(first.account)}`, {
        payload: { connectorIds: [fb.connectorId, s3.connectorId] },
      }),
      200,
    );
    const saved = expectEnvelope<{ lastUpdated: number }>(
      await first.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(first.account)}`, {
        payload: oauthBody(fb),
      }),
      200,
    );
    await first.close();

    const second = await harness({ db: file });
    try {
      assert.deepEqual(await addedIds(second), [fb.connectorId, s3.connectorId].sort());
      const config = expectEnvelope<{ configured: boolean; lastUpdated: number }>(
        await second.call("GET", `/es/v2/connectors/${fb.connectorId}/configuration${q(second.account)}`, { token }),
        200,
      );
      assert.equal(config.response.configured, true);
      assert.equal(config.response.lastUpdated, saved.response.lastUpdated);
      // Still strictly increasing after the restart, with the clock standing still.
      const next = expectEnvelope<{ lastUpdated: number }>(
        await second.call("PUT", `/es/v2/connectors/${fb.connectorId}/configuration${q(second.account)}`, {
          payload: oauthBody(fb),
        }),
        200,
      );
      assert.equal(next.response.lastUpdated, saved.response.lastUpdated + 1);
    } finally {
      await second.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    } finally {
      db.close();
    }
  });

  it("an in-memory database starts from the seed every time", async () => {
    const a = await harness();
    expectEnvelope(
      await a.call("POST", `/es/v2/connectors${q(a.account)}`, { payload: { connectorIds: [fb.connectorId] } }),
      200,
    );
    await a.close();
    const b = await harness();
    try {
      assert.deepEqual(await addedIds(b), []);
    } finally {
      await b.close();
    }
  });
});
