// docs/import.md's adoption commands ("## Adopting a sub-account in any language"), as the tests
// that run them as written read and run them (generate-languages.test.ts, in every language
// against the SDKs as generated; generate-fresh-home.test.ts, from an empty PULUMI_HOME with the
// SDKs installed by name).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import type { E2EService } from "./fixtures";

/** The section's commands, one per line: `generate`, then the engine's (`pulumi import`, `pulumi preview`). */
export async function adoptionCommands(): Promise<{ generate: string; engine: string[] }> {
  const text = await fs.readFile(path.join(repoRoot, "docs", "import.md"), "utf8");
  const start = text.indexOf("\n## Adopting a sub-account in any language\n");
  assert.ok(start >= 0, "docs/import.md has the section");
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(start))?.[1];
  assert.ok(block, "the section shows its commands");
  const [generate, ...engine] = block.trim().split("\n");
  assert.equal(engine.length, 2, block);
  return { generate, engine };
}

/**
 * Runs the docs' `generate` line in dir, its placeholders filled, with the service's settings in
 * the environment (as the docs say): the package's CLI, which `npx pulumi-embedded-connectors` runs.
 */
export async function runGenerate(
  line: string,
  svc: E2EService,
  dir: string,
  target: { language: string; file: string },
): Promise<{ stdout: string; stderr: string }> {
  const words = line
    .replace("<accountId>", svc.accountId)
    .replace("<language>", target.language)
    .replace("<file>", target.file)
    .split(/\s+/);
  assert.deepEqual(words.slice(0, 3), ["npx", "pulumi-embedded-connectors", "generate"]);
  return promisify(execFile)(process.execPath, [path.join(repoRoot, "dist", "cli", "main.js"), ...words.slice(2)], {
    cwd: dir,
    env: {
      ...process.env,
      EMBEDDED_BASE_URL: svc.baseUrl,
      EMBEDDED_CLIENT_ID: svc.clientId,
      EMBEDDED_CLIENT_SECRET: svc.clientSecret,
    },
  });
}
