// A user's own infrastructure repository: the packed package (npm pack) installed into a
// fresh project outside this repository, with the package.json and tsconfig.json that
// `pulumi new typescript` writes, and no link back into the clone. The consumer tests
// (types.test.ts, consumer.test.ts) and the compatibility run (compat.ts) use it.
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../harness/engine";

const execFileAsync = promisify(execFile);

/** templates/typescript/tsconfig.json of `pulumi new typescript`: strict, no skipLibCheck, no esModuleInterop. */
export const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** The package under test, as a user names it. */
export const PACKAGE_NAME = "pulumi-embedded-connectors";

export interface ConsumerProjectOptions {
  /** The @pulumi/pulumi version the project depends on. Default: the repository's. */
  pulumiVersion?: string;
  /** Directory of the `node` (and `npm`) to install with. Default: the one on PATH. */
  nodeBinDir?: string;
}

export interface ConsumerProject {
  dir: string;
  tarball: string;
  pulumiVersion: string;
  /** Wall time of `npm install`, milliseconds. */
  installMs: number;
}

/** The repository's version of a dev dependency, so that installs come from the npm cache `npm ci` filled. */
export function repoVersion(name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(repoRoot, "node_modules", name, "package.json")) as { version: string }).version;
}

let packed: Promise<string> | undefined;

/**
 * `npm pack` of the built package into a temporary directory, once per process; the tarball's
 * path. CONSUMER_TARBALL names a tarball to test instead (another build, a release).
 */
export function packPackage(): Promise<string> {
  const given = process.env.CONSUMER_TARBALL;
  if (given) return Promise.resolve(path.resolve(given));
  packed ??= (async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-pack-"));
    // --ignore-scripts: packing needs no script (the build made dist/).
    const { stdout } = await execFileAsync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [info] = JSON.parse(stdout) as { filename: string }[];
    return path.join(out, info.filename);
  })();
  return packed;
}

/** The environment of a command run with another Node.js first on PATH (or the current one). */
export function withNode(nodeBinDir: string | undefined, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return nodeBinDir ? { ...env, PATH: `${nodeBinDir}${path.delimiter}${env.PATH ?? ""}` } : { ...env };
}

/**
 * A new project in the system's temporary directory: the template's package.json (plus the
 * tarball) and tsconfig.json, `npm install`ed from the npm cache where it can, running no
 * install script.
 */
export async function createConsumerProject(options: ConsumerProjectOptions = {}): Promise<ConsumerProject> {
  const pulumiVersion = options.pulumiVersion ?? repoVersion("@pulumi/pulumi");
  const tarball = await packPackage();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-consumer-"));
  const pkg = {
    name: "acme-infra",
    main: "index.ts",
    devDependencies: { "@types/node": repoVersion("@types/node"), typescript: repoVersion("typescript") },
    dependencies: { "@pulumi/pulumi": pulumiVersion, [PACKAGE_NAME]: `file:${tarball}` },
  };
  await fs.writeFile(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  await fs.writeFile(path.join(dir, "tsconfig.json"), `${JSON.stringify(TEMPLATE_TSCONFIG, null, 2)}\n`);
  await fs.writeFile(
    path.join(dir, "Pulumi.yaml"),
    "name: acme-infra\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\ndescription: a user's infrastructure repository\n",
  );
  const started = Date.now();
  // --prefer-offline: package tarballs come from the cache `npm ci` filled; npm still asks the
  // registry for the package lists it never cached (set-up, like `npm ci` itself).
  try {
    await execFileAsync(
      "npm",
      ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      {
        cwd: dir,
        env: withNode(options.nodeBinDir),
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, tarball, pulumiVersion, installMs: Date.now() - started };
}

let shared: Promise<ConsumerProject> | undefined;

/** One consumer project of the repository's versions per mocha run, shared by the consumer tests. */
export function sharedConsumerProject(): Promise<ConsumerProject> {
  shared ??= createConsumerProject();
  return shared;
}

// A root hook: after the whole mocha run, drop the shared project and the tarball.
if (typeof after === "function") {
  after(async () => {
    const project = await shared?.catch(() => undefined);
    shared = undefined;
    await removeConsumerProject(project);
    const tarball = await packed?.catch(() => undefined);
    packed = undefined;
    // Only the tarball packed here: never a CONSUMER_TARBALL's directory.
    if (tarball) await fs.rm(path.dirname(tarball), { recursive: true, force: true });
  });
}

/** Removes a consumer project (its tarball stays: packPackage shares it). */
export async function removeConsumerProject(project: ConsumerProject | undefined): Promise<void> {
  if (project) await fs.rm(project.dir, { recursive: true, force: true });
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}

/** What installing the package brought that the rest of the project does not need. */
export interface InstallFootprint {
  /** Packages reachable only through the package (not through @pulumi/pulumi, typescript, @types/node). */
  addedPackages: string[];
  /** Packages anywhere in the project that declare an install script (a native build, say). */
  withInstallScripts: string[];
}

/** Reads the consumer's package-lock.json and splits the tree by who needs what. */
export async function installFootprint(project: ConsumerProject): Promise<InstallFootprint> {
  const lock = JSON.parse(await fs.readFile(path.join(project.dir, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const entries = lock.packages;
  // npm's lookup: node_modules/<name> nested under the requiring package first, then hoisted.
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
      const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
      if (entries[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  const closure = (roots: string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = roots.map((name) => resolve("", name)).filter((key): key is string => key !== undefined);
    while (queue.length > 0) {
      const key = queue.pop() as string;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = entries[key];
      const names = Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies });
      for (const name of names) {
        const found = resolve(key, name);
        if (found) queue.push(found);
      }
    }
    return seen;
  };
  const others = closure(["@pulumi/pulumi", "typescript", "@types/node"]);
  const ours = closure([PACKAGE_NAME]);
  const nameOf = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
  return {
    addedPackages: [...ours]
      .filter((key) => !others.has(key))
      .map(nameOf)
      .sort(),
    withInstallScripts: Object.entries(entries)
      .filter(([key, entry]) => key !== "" && entry.hasInstallScript === true)
      .map(([key]) => nameOf(key))
      .sort(),
  };
}

/** Every ```ts block of a Markdown text, in order. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((match) => match[1]);
}

/** `tsc --noEmit -p <dir>` with the project's own TypeScript; the compiler's output ("" when clean). */
export async function typeCheck(project: ConsumerProject, dir = project.dir, nodeBinDir?: string): Promise<string> {
  const tsc = path.join(project.dir, "node_modules", "typescript", "bin", "tsc");
  try {
    await execFileAsync("node", [tsc, "--noEmit", "--pretty", "false", "-p", dir], {
      cwd: dir,
      env: withNode(nodeBinDir),
      maxBuffer: 16 * 1024 * 1024,
    });
    return "";
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout ?? ""}${stderr ?? ""}` || message;
  }
}
