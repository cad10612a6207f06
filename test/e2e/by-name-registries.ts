// The registries of the by-name e2e tests (by-name-*.test.ts): started by the command a person
// runs, docs/installation-configuration.md's `npm run registries -- <arguments>` with its
// arguments as written, plus --json (scripts/registries.js, after the suite's build), once per
// mocha process (a release with the single executable takes about a minute), and stopped by
// SIGTERM after the last test, as Ctrl-C stops it. The tests' users take the environment a person
// gets from the doc's next block (`. ./registries.env`, run by bash). What it starts and how it
// fills them: harness/registries.ts.
import { strict as assert } from "node:assert";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promises as fs, mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";
import { docSection } from "./doc-section";
import type { RegistriesInfo } from "../../harness/registries";

export interface Registries extends RegistriesInfo {
  /** The requests the plugin's release host has answered so far, as `<method> <path> <status>`. */
  releaseRequests(): Promise<string[]>;
}

interface Started {
  child: ChildProcess;
  registries: Registries;
  /** The command's standard error so far (its progress, then its stop). */
  stderr(): string;
}

let started: Promise<Started> | undefined;

/** The registries, filled with this checkout's release (once per process). */
export async function publishedRegistries(): Promise<Registries> {
  return (await (started ??= startCommand())).registries;
}

/** The variables `names` as bash has them after `source` (a command such as `. ./registries.env`) in cwd, in an empty environment. */
export async function sourced(source: string, cwd: string, names: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)("/bin/bash", ["-c", `${source}\nenv -0`], { env: {}, cwd });
  const all = new Map(
    stdout.split("\0").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return Object.fromEntries(names.map((name) => [name, all.get(name) ?? ""]));
}

/** The doc's `npm run registries -- <arguments>` (its arguments) and the line that sources what it wrote. */
async function docCommands(): Promise<{ args: string[]; source: string }> {
  const lines = (await docSection("Before a release: `npm run registries`")).commands
    .join("\n")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));
  const args = lines
    .map((line) => /^npm run registries -- (.+)$/.exec(line)?.[1])
    .find(Boolean)
    ?.split(/\s+/);
  const source = lines.find((line) => /^\. \S+$/.test(line));
  assert.ok(args && source, "the doc gives `npm run registries -- <arguments>`, then `. <its file>`");
  return { args, source };
}

/** The doc's command (`node scripts/registries.js <its arguments> --json` in a directory of its own): resolves once the registries are filled. */
async function startCommand(): Promise<Started> {
  const { args, source } = await docCommands();
  const cwd = mkdtempSync(path.join(os.tmpdir(), "embedded-registries-user-"));
  const script = path.join(repoRoot, "scripts", "registries.js");
  const child = spawn(process.execPath, [script, ...args, "--json"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  process.once("exit", () => {
    child.kill("SIGTERM"); // it stops its servers and removes its directory itself
    rmSync(cwd, { recursive: true, force: true });
  });
  let stdout = "";
  let stderr = "";
  let ready = false;
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (ready || !stdout.includes("\n")) return;
      ready = true;
      const info = JSON.parse(stdout.split("\n")[0]) as RegistriesInfo;
      const releaseRequests = async () =>
        (await fs.readFile(info.release.requestLog, "utf8")).split("\n").filter(Boolean);
      sourced(source, cwd, Object.keys(info.env))
        .then((env) => {
          assert.deepEqual(env, info.env, `\`${source}\` gives the environment the command printed`);
          resolve({ child, registries: { ...info, env, releaseRequests }, stderr: () => stderr });
        })
        .catch(reject);
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`npm run registries exited (${code ?? signal}) before it was ready:\n${stderr}`)),
    );
  });
}

/** Whether a URL still answers (any HTTP status) on loopback. */
const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

// After the last test of the process: the command stops as a person's Ctrl-C stops it.
after(
  "npm run registries stops cleanly on SIGTERM: exit 0, no registry answers, its directory removed",
  async function () {
    const running = await started?.catch(() => undefined);
    if (!running) return;
    this.timeout(60_000);
    const { child, registries, stderr } = running;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    assert.equal(await exited, 0, `npm run registries exits 0 on SIGTERM:\n${stderr()}`);
    for (const url of [registries.npm, registries.pypi, registries.release.url])
      assert.equal(await answers(url), false, `${url} no longer answers`);
    await assert.rejects(fs.access(registries.dir), `${registries.dir} is removed`);
  },
);
