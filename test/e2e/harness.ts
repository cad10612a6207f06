// The end-to-end harness: stacks of the programs under test/e2e/programs/, run
// by the real engine in its hermetic environment (harness/engine.ts), with every byte
// the engine prints captured for the secrets scan.
//
// Programs are copied per stack into test/e2e/programs/.work/<stack>/ rather
// than run in place: the engine writes Pulumi.<stack>.yaml beside Pulumi.yaml,
// and the copy must stay inside the repository because the dynamic-provider
// process resolves `@pulumi/pulumi` and `pulumi-embedded-connectors` from its
// working directory by walking up to the repository's node_modules.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  ConfigMap,
  DestroyOptions,
  DestroyResult,
  LocalWorkspace,
  PreviewOptions,
  PreviewResult,
  RefreshOptions,
  RefreshResult,
  Stack,
  UpOptions,
  UpResult,
} from "@pulumi/pulumi/automation";
import { ensureEngine, execFileAsync, repoRoot } from "../../harness/engine";
import { stackIdentity, type StackIdentity } from "../../provider/project/stack-identity";

export {
  disposeEngine,
  ENGINE_TIMEOUT_MS,
  ensureEngine,
  NEWEST_CLI,
  repoRoot,
  type Engine,
} from "../../harness/engine";

/** Where the program sources live (not compiled by the root tsconfig). */
export const programsDir = path.join(repoRoot, "test", "e2e", "programs");
const workRoot = path.join(programsDir, ".work");

/** The connection of a stack to the service: becomes stack config `embedded:*`. */
export interface ServiceSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accountId?: string;
}

/** A program config value: strings as they are, anything else as JSON. */
export type ProgramConfigValue = string | number | boolean | object;

export interface StackOptions {
  /** A directory name under test/e2e/programs/. */
  program: string;
  /** An absolute directory to copy instead (examples/…, a generated program); `program` then only names it. */
  programDir?: string;
  /** A short name for the stack; a random suffix keeps it unique. */
  name: string;
  /**
   * Exactly this stack name instead (a stack of the same name in another backend: set
   * PULUMI_BACKEND_URL in `env`); its program copy still gets a directory of its own.
   */
  stackName?: string;
  service?: ServiceSettings;
  /** Program config (project namespace), set in plain text. */
  config?: Record<string, ProgramConfigValue>;
  /** Program config (project namespace), set as secrets. */
  secretConfig?: Record<string, ProgramConfigValue>;
  /** Extra environment variables of every engine run of this stack. */
  env?: Record<string, string>;
  /** The CLI version ("vX.Y.Z") whose engine runs this stack (ensureEngine); the suite's when absent. */
  cliVersion?: string;
}

function configValue(value: ProgramConfigValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Anything the engine run printed or threw, as text. */
function errorText(err: unknown): string {
  if (err instanceof Error) {
    return `${err.message}\n${err.stack ?? ""}`;
  }
  return String(err);
}

/**
 * A stack of a program copy, with every engine output captured. The methods
 * mirror the Automation API's and add the capture; `fail*` runs expect the
 * engine to fail and return what it printed.
 */
export class E2EStack {
  private readonly captured: string[] = [];

  private constructor(
    public readonly stack: Stack,
    public readonly workDir: string,
    private readonly options: StackOptions,
  ) {}

  static async create(options: StackOptions): Promise<E2EStack> {
    const engine = await ensureEngine(options.cliVersion);
    const suffix = randomBytes(4).toString("hex");
    const stackName = options.stackName ?? `${options.name}-${suffix}`;
    const workDir = path.join(workRoot, options.stackName ? `${stackName}-${suffix}` : stackName);
    await fs.mkdir(workRoot, { recursive: true });
    await fs.cp(options.programDir ?? path.join(programsDir, options.program), workDir, { recursive: true });
    if (!options.programDir) {
      // What the programs share, beside each copy (a program imports "./program-config").
      await fs.copyFile(path.join(programsDir, "shared", "program-config.ts"), path.join(workDir, "program-config.ts"));
    }
    const workspace = await LocalWorkspace.create({
      workDir,
      pulumiHome: engine.env.PULUMI_HOME,
      pulumiCommand: engine.command,
      envVars: { ...engine.env, ...options.env },
    });
    const stack = await Stack.create(stackName, workspace);
    const e2e = new E2EStack(stack, workDir, options);
    await e2e.setConfig(options.config ?? {}, options.secretConfig ?? {});
    return e2e;
  }

  get name(): string {
    return this.stack.name;
  }

  /** Sets (adds or overwrites) program config; service settings are always (re)applied. */
  async setConfig(
    config: Record<string, ProgramConfigValue>,
    secretConfig: Record<string, ProgramConfigValue> = {},
  ): Promise<void> {
    const all: ConfigMap = {};
    const service = this.options.service;
    if (service) {
      all["embedded:baseUrl"] = { value: service.baseUrl };
      all["embedded:clientId"] = { value: service.clientId };
      all["embedded:clientSecret"] = { value: service.clientSecret, secret: true };
      if (service.accountId) {
        all["embedded:accountId"] = { value: service.accountId };
      }
    }
    for (const [key, value] of Object.entries(config)) {
      all[key] = { value: configValue(value) };
    }
    for (const [key, value] of Object.entries(secretConfig)) {
      all[key] = { value: configValue(value), secret: true };
    }
    await this.stack.setAllConfig(all);
  }

  async removeConfig(...keys: string[]): Promise<void> {
    await this.stack.removeAllConfig(keys);
  }

  private capture<T extends { onOutput?: (s: string) => void; onError?: (s: string) => void }>(opts?: T): T {
    return {
      ...(opts ?? ({} as T)),
      onOutput: (s: string) => this.captured.push(s),
      onError: (s: string) => this.captured.push(s),
    };
  }

  private async run<R extends { stdout: string; stderr: string }>(op: () => Promise<R>): Promise<R> {
    try {
      const result = await op();
      this.captured.push(result.stdout, result.stderr);
      return result;
    } catch (err) {
      this.captured.push(errorText(err));
      throw err;
    }
  }

  up(opts?: UpOptions): Promise<UpResult> {
    return this.run(() => this.stack.up(this.capture(opts)));
  }

  preview(opts?: PreviewOptions): Promise<PreviewResult> {
    return this.run(() => this.stack.preview(this.capture(opts)));
  }

  refresh(opts?: RefreshOptions): Promise<RefreshResult> {
    return this.run(() => this.stack.refresh(this.capture(opts)));
  }

  destroy(opts?: DestroyOptions): Promise<DestroyResult> {
    return this.run(() => this.stack.destroy(this.capture(opts)));
  }

  /** Runs an engine operation that must fail; returns all it printed (message, stdout, stderr). */
  async expectFailure(op: (s: this) => Promise<unknown>): Promise<string> {
    try {
      await op(this);
    } catch (err) {
      return errorText(err);
    }
    throw new Error(`expected the engine run on stack ${this.name} to fail, but it succeeded`);
  }

  /** Runs the engine's CLI on this stack (for what the Automation API does not offer as is). */
  async cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
    const engine = await ensureEngine(this.options.cliVersion);
    try {
      const result = await execFileAsync(engine.command.command, [...args, "--stack", this.name, "--non-interactive"], {
        cwd: this.workDir,
        env: { ...process.env, ...engine.env, ...this.options.env },
        maxBuffer: 64 * 1024 * 1024,
      });
      this.captured.push(result.stdout, result.stderr);
      return result;
    } catch (err) {
      // A failed run's output is printed too (and scanned by the secrets suites).
      const { stdout, stderr } = err as { stdout?: unknown; stderr?: unknown };
      this.captured.push(String(stdout ?? ""), String(stderr ?? ""));
      throw err;
    }
  }

  /**
   * `pulumi stack export` as a user runs it (secrets encrypted). The
   * Automation API's exportStack() passes --show-secrets, which decrypts
   * every secret, so it is no evidence that a value is kept secret.
   */
  async exportText(): Promise<string> {
    return (await this.cli(["stack", "export"])).stdout;
  }

  /**
   * Every file the file:// backend holds for this stack (state, backups, history), as text;
   * `{ history: false }`: without the checkpoints of earlier updates (`history/`, `backups/`).
   */
  async backendText(opts: { history?: boolean } = {}): Promise<string> {
    const engine = await ensureEngine(this.options.cliVersion);
    const texts: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          await walk(full);
        } else if (full.includes(this.name) && (opts.history !== false || !/[\\/](history|backups)[\\/]/.test(full))) {
          texts.push(await fs.readFile(full, "utf8"));
        }
      }
    };
    await walk(engine.backendDir);
    if (texts.length === 0) {
      throw new Error(`the backend holds no file of stack ${this.name}`);
    }
    return texts.join("\n");
  }

  /** The stack's resources (secrets decrypted), without the stack and providers. */
  async resources(): Promise<StateResource[]> {
    const deployment = await this.stack.exportStack();
    const resources = (deployment.deployment as { resources?: StateResource[] }).resources ?? [];
    return resources.filter((r) => !r.type.startsWith("pulumi:"));
  }

  /** The stack outputs with secrets shown (values only). */
  async outputValues(): Promise<Record<string, unknown>> {
    const outputs = await this.stack.outputs();
    return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
  }

  /** Everything the engine printed on this stack so far. */
  engineOutput(): string {
    return this.captured.join("");
  }

  /**
   * The identity the provider processes of this stack's runs give it in their pending-Add and
   * pending-Configure records (stack-identity.ts): they run in the program copy, with the
   * engine's environment.
   */
  async recordIdentity(project: string): Promise<StackIdentity> {
    const engine = await ensureEngine(this.options.cliVersion);
    return stackIdentity(`${project}/${this.name}`, {
      env: { ...process.env, ...engine.env, ...this.options.env },
      cwd: this.workDir,
    });
  }

  /** The stack's config file (Pulumi.<stack>.yaml of the program copy), as text. */
  async stackConfigText(): Promise<string> {
    return fs.readFile(path.join(this.workDir, `Pulumi.${this.name}.yaml`), "utf8");
  }

  /** Destroys the stack's resources (best effort), removes the stack and its program copy. */
  async dispose(opts: { destroy?: boolean } = {}): Promise<void> {
    try {
      // Skips the engine run when the tests already destroyed everything.
      const left = opts.destroy === false ? [] : await this.resources().catch(() => undefined);
      if (left === undefined || left.length > 0) {
        await this.destroy().catch((err: unknown) => {
          console.warn(`e2e: destroy of ${this.name} failed during teardown: ${errorText(err).slice(0, 2000)}`);
        });
      }
      await this.stack.workspace.removeStack(this.name, { force: true }).catch((err: unknown) => {
        console.warn(`e2e: removing stack ${this.name} failed: ${errorText(err).slice(0, 500)}`);
      });
    } finally {
      await fs.rm(this.workDir, { recursive: true, force: true });
      await fs.rmdir(workRoot).catch(() => undefined);
    }
  }
}

/** A resource as `pulumi stack export` shows it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The logical name of a resource (last URN segment). */
export function resourceName(r: StateResource): string {
  return r.urn.slice(r.urn.lastIndexOf("::") + 2);
}

/** Throws when `text` contains `secret` (a fragment of context only, never the secret itself). */
export function assertNoSecret(text: string, secret: string, where: string): void {
  const at = text.indexOf(secret);
  if (at >= 0) {
    // The context around it, the secret itself masked (where it leaked tells which output did).
    const context = text
      .slice(Math.max(0, at - 300), at + secret.length + 100)
      .split(secret)
      .join("<THE SECRET>");
    throw new Error(
      `a secret appears in ${where} at offset ${at} (of ${text.length} characters), in: ${JSON.stringify(context)}`,
    );
  }
}
