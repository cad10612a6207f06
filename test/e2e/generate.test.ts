// Adopting what already exists: `pulumi-embedded-connectors generate` reads a
// sub-account populated out of band and writes a program; with the secrets it names set,
// `up` adopts every connector without an Add call and writes each configuration once,
// and a preview is then clean.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stats } from "../../harness/local-service";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, repoRoot } from "./harness";
import { apiKeyFields, e2eSuite, MIXPANEL, S3, SEGMENT, storageFields } from "./fixtures";
import { routeKey } from "../../contract/routes";

const execFileAsync = promisify(execFile);

function calls(stats: Stats, route: string): number {
  return Object.values(stats.byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
}

describe("e2e: generate adopts a sub-account populated out of band", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  let programDir: string;
  const segmentKey = "generate-e2e-segment-api-key-5a1";
  const s3Key = "generate-e2e-s3-secret-key-77b";

  // The test sets the stack. The service is in memory and goes away: no engine run to destroy what was adopted.
  const e2e = e2eSuite({
    destroy: false,
    setUp: async ({ svc }) => {
      // Out of band: three connectors, two of them configured.
      await svc.outOfBand.add(svc.accountId, [SEGMENT, S3, MIXPANEL]);
      await svc.outOfBand.configure(svc.accountId, SEGMENT, { ...apiKeyFields(), apiKey: segmentKey });
      await svc.outOfBand.configure(svc.accountId, S3, {
        ...storageFields({ fileFormats: ["csv", "json"], maxFileSizeMb: 64 }),
        secretAccessKey: s3Key,
      });
      programDir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-generate-"));
    },
  });
  after(() => fs.rm(programDir, { recursive: true, force: true }));

  let addCalls: number | undefined;

  it("generates, adopts every connector, writes each configuration once, then previews clean", async () => {
    const out = path.join(programDir, "index.ts");
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(repoRoot, "dist", "cli", "main.js"), "generate", "--account", e2e.svc.accountId, "--out", out],
      {
        env: {
          ...process.env,
          EMBEDDED_BASE_URL: e2e.svc.baseUrl,
          EMBEDDED_CLIENT_ID: e2e.svc.clientId,
          EMBEDDED_CLIENT_SECRET: e2e.svc.clientSecret,
        },
      },
    );
    const program = await fs.readFile(out, "utf8");
    for (const text of [program, stdout, stderr]) {
      assertNoSecret(text, segmentKey, "the generator's output");
      assertNoSecret(text, s3Key, "the generator's output");
    }
    assert.equal((program.match(/new ec\.AddedConnector\(/g) ?? []).length, 3);
    assert.equal((program.match(/new ec\.ConnectorConfiguration\(/g) ?? []).length, 2);
    const secretKeys = [...stderr.matchAll(/pulumi config set --secret (\S+)/g)].map((m) => m[1]).sort();
    assert.deepEqual(secretKeys, ["amazonS3SecretAccessKey", "segmentApiKey"]);

    await fs.writeFile(path.join(programDir, "Pulumi.yaml"), "name: generated\nruntime: nodejs\n");
    await fs.writeFile(
      path.join(programDir, "package.json"),
      JSON.stringify({ name: "generated", private: true, main: "index.ts" }),
    );
    await fs.copyFile(
      path.join(repoRoot, "examples", "quickstart", "tsconfig.json"),
      path.join(programDir, "tsconfig.json"),
    );
    e2e.stack = await E2EStack.create({
      program: "generated",
      programDir,
      name: "generated",
      service: { baseUrl: e2e.svc.baseUrl, clientId: e2e.svc.clientId, clientSecret: e2e.svc.clientSecret },
      secretConfig: { amazonS3SecretAccessKey: s3Key, segmentApiKey: segmentKey },
    });

    const before = await e2e.svc.service.stats();
    const result = await e2e.stack.up();
    const after = await e2e.svc.service.stats();
    assert.equal(result.summary.resourceChanges?.create, 1 + 3 + 2, JSON.stringify(result.summary.resourceChanges));
    addCalls = calls(after, routeKey("addConnectors")) - calls(before, routeKey("addConnectors"));
    const put = routeKey("configure");
    assert.equal(calls(after, put) - calls(before, put), 2, "each configuration written once");
    assert.deepEqual(await e2e.svc.outOfBand.addedIds(e2e.svc.accountId), [SEGMENT, S3, MIXPANEL].sort());

    await e2e.stack.preview({ refresh: true, expectNoChanges: true });
    assertNoSecret(e2e.stack.engineOutput(), segmentKey, "the engine output");
    assertNoSecret(e2e.stack.engineOutput(), s3Key, "the engine output");
  });

  // Adoption reads the sub-account first: connectors already there cost no Add call.
  it("no Add call reaches the service when adopting", () => {
    assert.equal(addCalls, 0, "Add calls during the adopting up");
  });
});
