// The recorder's tools (record.ts): commands run with their output kept, a built checkout of a
// commit, the engine that commit's package asks for, and a local service of its own.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../../harness/engine";

const execFileAsync = promisify(execFile);

export function log(message: string): void {
  process.stderr.write(`record: ${message}\n`);
}

/** Runs a command; its output is kept, and printed when it fails. */
export async function run(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd: opts.cwd, env: opts.env, maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(" ")} (in ${opts.cwd}) failed: ${(err as Error).message}\n${stdout ?? ""}\n${stderr ?? ""}`,
    );
  }
}

export async function timed<T>(what: string, op: () => Promise<T>): Promise<T> {
  const start = Date.now();
  log(`${what}...`);
  const result = await op();
  log(`${what}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/** A git command in the repository (or `cwd`), its output trimmed. */
export const git = (args: string[], cwd = repoRoot) => run("git", args, { cwd }).then((r) => r.stdout.trim());

/** The checkout of the commit, built: --checkout as it is, else a temporary worktree (npm ci, npm run build). */
export async function checkoutOf(
  opts: { commit: string; checkout?: string },
  tmp: string,
): Promise<{ dir: string; commit: string; remove?: () => Promise<void> }> {
  if (opts.checkout) {
    const dir = path.resolve(opts.checkout);
    const commit = await git(["rev-parse", "HEAD"], dir);
    const wanted = await git(["rev-parse", `${opts.commit}^{commit}`]);
    if (commit !== wanted) throw new Error(`--checkout ${dir} is at ${commit}, not ${opts.commit} (${wanted})`);
    const dirty = await git(["status", "--porcelain", "--", "provider", "cli", "contract", "service", "sdk"], dir);
    if (dirty) throw new Error(`--checkout ${dir} has changes of its own in the package's sources:\n${dirty}`);
    if (!existsSync(path.join(dir, "dist", "plugin", "pulumi-resource-embedded")))
      throw new Error(`--checkout ${dir} is not built: run npm ci && npm run build there`);
    return { dir, commit };
  }
  const commit = await git(["rev-parse", `${opts.commit}^{commit}`]);
  const dir = path.join(tmp, "checkout");
  await git(["worktree", "add", "--detach", dir, commit]);
  const env = { ...process.env, CI: "true" };
  await timed(`npm ci in ${dir}`, () => run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, env }));
  await timed(`npm run build in ${dir}`, () => run("npm", ["run", "build"], { cwd: dir, env }));
  return { dir, commit, remove: () => git(["worktree", "remove", "--force", dir]).then(() => undefined) };
}

/** The engine: this checkout's scripts/ensure-pulumi.sh (the same CLI and language hosts as the commit's, or say so). */
export async function engineBin(checkout: string): Promise<{ bin: string; version: string }> {
  const version = JSON.parse(
    readFileSync(path.join(checkout, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
  ).version as string;
  const { stdout } = await run("bash", [path.join(repoRoot, "scripts", "ensure-pulumi.sh"), `v${version}`], {
    cwd: repoRoot,
  });
  return { bin: stdout.trim().split("\n").pop() ?? "", version };
}

/** The commit's own local service, in its own process, with a database file. */
export async function startService(
  checkout: string,
  dbPath: string,
  subAccounts: number,
): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      path.join(checkout, "dist", "service", "server.js"),
      ...["--port", "0", "--db", dbPath, "--sub-accounts", String(subAccounts), "--no-log"],
    ],
    { cwd: checkout, stdio: ["ignore", "pipe", "inherit"] },
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.on("exit", (code) => reject(new Error(`the service exited (${code}) before listening: ${out}`)));
  });
  return { baseUrl, child };
}

export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
