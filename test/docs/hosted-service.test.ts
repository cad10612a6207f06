// docs/hosted-service.md's examples, run: every `sh` block's command against the local service
// serving the documented-conventions profile, through the built command line (`npx
// pulumi-embedded-connectors` is dist/cli/main.js), with the settings in the environment as the
// page says; its sample output's lines are doctor's own. `npm run service -- …` is run as
// dist/service/server.js with an ephemeral port and an in-memory database added.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startLocalService, type LocalService } from "../../harness/local-service";

const ROOT = path.resolve(__dirname, "../../..");
const DOC = readFileSync(path.join(ROOT, "docs/hosted-service.md"), "utf8");
const CLI = path.join(ROOT, "dist/cli/main.js");
const run = promisify(execFile);

function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] ?? "");
}
const commands = blocks("sh").flatMap((b) =>
  b
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean),
);

/** The exit code each doctor command of the page has against this service (default profile: 1). */
function expectedExit(command: string): number {
  return command.includes("--profile service-profile.yaml") ? 0 : 1;
}

describe("docs/hosted-service.md: its examples, run", function () {
  this.timeout(120_000);
  let service: LocalService;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const outputs: string[] = [];
  before(async () => {
    service = await startLocalService({ profile: path.join(ROOT, "profiles/documented-conventions.yaml") });
    dir = mkdtempSync(path.join(tmpdir(), "hosted-doc-"));
    const c = service.customers[0];
    env = {
      ...process.env,
      EMBEDDED_BASE_URL: service.baseUrl,
      EMBEDDED_CLIENT_ID: c.clientId,
      EMBEDDED_CLIENT_SECRET: c.clientSecret,
      EMBEDDED_ACCOUNT_ID: c.subAccountIds[0],
      SCRATCH_ACCOUNT_ID: c.subAccountIds[1],
    };
    delete env.EMBEDDED_SERVICE_PROFILE;
  });
  after(async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has doctor commands and a service command", () => {
    assert.ok(commands.filter((c) => c.startsWith("npx pulumi-embedded-connectors doctor")).length >= 4);
    assert.ok(commands.some((c) => c.startsWith("npm run service -- --profile")));
  });

  for (const command of commands.filter((c) => c.startsWith("npx pulumi-embedded-connectors doctor"))) {
    it(`\`${command}\` exits ${expectedExit(command)}`, async () => {
      const shell = command.replace("npx pulumi-embedded-connectors", `"${process.execPath}" "${CLI}"`);
      const result = await run("sh", ["-c", shell], { cwd: dir, env }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
      outputs.push(result.stdout);
      assert.equal(result.code, expectedExit(command), result.stdout);
      assert.ok(!result.stdout.includes(env.EMBEDDED_CLIENT_SECRET as string));
      for (const written of command.match(/--(?:write-profile|trace) (\S+)/g) ?? []) {
        assert.ok(existsSync(path.join(dir, written.split(" ")[1] as string)), `${written} wrote its file`);
      }
    });
  }

  it("doctor's secret fields, against a service that spells the Password type `password` and masks it", async () => {
    const consoleStyle = await startLocalService({ consolePasswords: true });
    try {
      const c = consoleStyle.customers[0];
      const at = `${consoleStyle.baseUrl}/es/v2`;
      const token = (
        (await (
          await fetch(`${at}/oauth/client-token`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ clientId: c.clientId, clientSecret: c.clientSecret }),
          })
        ).json()) as { accessToken: string }
      ).accessToken;
      await fetch(`${at}/connectors?accountId=${c.subAccountIds[0]}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ connectorIds: ["48e6ff62fb2b1dfa", "5dd1bb0b711cb603"] }),
      });
      const { stdout } = await run(process.execPath, [CLI, "doctor"], {
        cwd: dir,
        env: { ...env, EMBEDDED_BASE_URL: consoleStyle.baseUrl, EMBEDDED_CLIENT_SECRET: c.clientSecret },
      });
      outputs.push(stdout);
    } finally {
      await consoleStyle.stop();
    }
  });

  it("its sample outputs are doctor's (latency aside), the table's included", () => {
    const samples = blocks("text");
    assert.ok(samples.length >= 2);
    // The table's columns widen with the slowest request's time: latency and its padding aside.
    const normal = (text: string) => text.replace(/\d+ ms/g, "N ms").replace(/ {2,}/g, "  ");
    const printed = normal(outputs.join("\n"));
    for (const line of samples
      .join("\n")
      .split("\n")
      .filter((l) => l.trim() !== "")) {
      assert.ok(printed.includes(normal(line)), `doctor prints: ${line}`);
    }
  });

  it("`npm run service -- --profile …` serves the profile", async () => {
    const command = commands.find((c) => c.startsWith("npm run service -- --profile")) as string;
    const file = command.split("--profile ")[1] as string;
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "dist/service/server.js"), "--profile", file, "--port", "0", "--db", ":memory:", "--no-log"],
      { cwd: ROOT },
    );
    try {
      const text = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("profile:")) resolve(out);
        });
        child.on("exit", (code) => reject(new Error(`the service exited with ${code}: ${out}`)));
      });
      assert.match(text, /profile: profiles\/documented-conventions\.yaml/);
      const url = /listening on (\S+)/.exec(text)?.[1] as string;
      const res = await fetch(`${url}/es/v2/connectors/added?accountId=x`);
      assert.equal(res.status, 200, "a refusal (no token) inside a 2xx, as the profile says");
      assert.equal(((await res.json()) as { statusCode: number }).statusCode, 401);
    } finally {
      child.kill();
    }
  });
});
