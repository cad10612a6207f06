// The read-only proof of issue 46, on a fleet the drift tests made already (fleet-drift-fixture.ts:
// no fleet of its own): with faults injected into the service (seeded: errors, 429s, dropped
// sockets, latency, a token expired early), `fleet drift` on the fast path, `fleet drift --engine`,
// `fleet preview` and `doctor` (without --write-check) each send the service nothing but token
// requests and reads — told by method and route from the service's request log (its stats count
// every request, faulted ones too) — and leave every file of the backend byte-identical (its
// checkpoints, history, backups and locks, hashed before and after each command).
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { routeKey } from "../../contract/routes";
import type { FaultSettings, Stats } from "../../harness/local-service";
import type { FleetDrift } from "./fleet-drift-fixture";
import { runCli } from "./fleet-cli";

/** Object key (or path) → sha256 of its bytes. */
export type BackendHashes = () => Promise<Map<string, string>>;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Every file under a file:// backend's directory, hashed. */
export function fileBackendHashes(dir: string): BackendHashes {
  return async () => {
    const hashes = new Map<string, string>();
    const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
    for (const e of entries.filter((x) => x.isFile())) {
      const file = path.join(e.parentPath, e.name);
      hashes.set(path.relative(dir, file), sha256(await fs.readFile(file)));
    }
    return hashes;
  };
}

/** Requests received between two snapshots: "METHOD /route" → count, faulted ones included. */
function received(before: Stats, after: Stats): Map<string, number> {
  const total = (s: Stats, route: string) => Object.values(s.byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
  const got = new Map<string, number>();
  for (const route of Object.keys(after.byRoute)) {
    const n = total(after, route) - total(before, route);
    if (n > 0) got.set(route, n);
  }
  return got;
}

/** Requests the faults answered (an error, a 429, a dropped socket) between two snapshots. */
function faulted(before: Stats, after: Stats): number {
  let n = 0;
  for (const [route, statuses] of Object.entries(after.byRoute)) {
    for (const [status, count] of Object.entries(statuses)) {
      if (/^(5\d\d|429|reset|dropped)$/.test(status)) n += count - (before.byRoute[route]?.[status] ?? 0);
    }
  }
  return n;
}

/** Seeded faults on every public route: what a flaky service does, and a token that dies early. */
export function readOnlyFaults(seed: string): FaultSettings {
  return {
    seed: parseInt(seed.slice(0, 8), 16) % 2 ** 31,
    rules: [
      { mode: "latency", latencyMs: 2, jitterMs: 20 },
      { mode: "expireToken", count: 1, rate: 0.05 },
      { mode: "error", rate: 0.08 },
      { mode: "rateLimit", rate: 0.03, retryAfterSeconds: 1 },
      { mode: "reset", rate: 0.03 },
    ],
  };
}

/**
 * Runs each read-only command over every stack of `f` with faults on; asserts per command: only
 * token requests and reads, the backend's files unchanged. Returns the commands' exit codes.
 */
export async function assertReadOnly(f: FleetDrift, hashes: BackendHashes, seed: string): Promise<string[]> {
  const [acme] = f.service.customers;
  const [stack, { accountId }] = [...f.accountOf].find(([, a]) => a.customer === 0)!;
  const commands: [string, () => Promise<{ code: number; output: string }>][] = [
    ["fleet drift", () => f.fleet(["drift", "--json", f.out("read-only-fast.json")])],
    ["fleet drift --engine", () => f.fleet(["drift", "--engine", "--json", f.out("read-only-engine.json")])],
    ["fleet preview", () => f.fleet(["preview", "--json", f.out("read-only-preview.json")])],
    [
      "doctor",
      () =>
        runCli(["doctor", "--no-stack", "--account-id", accountId], {
          cwd: f.workDir,
          env: { ...f.env, EMBEDDED_CLIENT_ID: acme.clientId, EMBEDDED_CLIENT_SECRET: acme.clientSecret },
        }),
    ],
  ];
  const token = routeKey("getToken");
  const codes: string[] = [];
  let faults = 0;
  await f.service.setFaults(readOnlyFaults(seed));
  try {
    for (const [name, run] of commands) {
      const [stats, files] = [await f.service.stats(), await hashes()];
      const result = await run();
      f.outputs.push(result.output);
      const after = await f.service.stats();
      const got = received(stats, after);
      faults += faulted(stats, after);
      const writes = [...got].filter(([route]) => route !== token && !route.startsWith("GET "));
      assert.deepEqual(writes, [], `${name} sent more than the token and reads: ${JSON.stringify([...got])}`);
      // It did its work (a command the faults stopped before its first read may have read nothing).
      assert.ok(result.code !== 0 || [...got].some(([route]) => route.startsWith("GET ")), `${name} read the service`);
      assert.deepEqual(await hashes(), files, `${name} left every file of the backend as it was`);
      // A command may fail under the faults (retries spent): said, never a reason to write.
      const last = result.output.trim().split("\n").pop() ?? "";
      codes.push(`${name}: exit ${result.code}${result.code === 0 ? "" : ` (${last.slice(0, 160)})`}`);
    }
  } finally {
    await f.service.setFaults({ rules: [] });
  }
  console.log(
    `    read-only (${stack} among ${f.accountOf.size} stacks): ${codes.join(", ")}; ${faults} faulted requests`,
  );
  assert.ok(faults > 0, "the faults were injected");
  return codes;
}
