// What the Pulumi CLI reads to choose a stack's backend and secrets provider, read the way the
// CLI reads it (pulumi v3.248.0): the project file is the first of Pulumi.json, Pulumi.yaml,
// Pulumi.yml in the directory or the nearest parent (sdk/go/common/workspace/paths.go,
// DetectProjectPathFrom), parsed as YAML (a comment line, CRLF line ends and flow style
// included); the backend is PULUMI_BACKEND_URL, else the project's `backend.url`, else the
// login's `current` in credentials.json (pkg/workspace/creds.go, GetCurrentCloudURL), the file
// living in PULUMI_CREDENTIALS_PATH, else PULUMI_HOME, else ~/.pulumi. Used by the fleet's fast
// path (which backend's checkpoint to read) and by the pending-Add records (stack-identity.ts).
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { parse } from "yaml";

/** The project file names, in the CLI's order (encoding.Exts). */
const PROJECT_FILES = ["Pulumi.json", "Pulumi.yaml", "Pulumi.yml"];

export interface ProjectFile {
  /** The file's absolute path. */
  file: string;
  /** Its top-level mapping. */
  doc: Record<string, unknown>;
}

/** A YAML (or JSON) text's document; throws naming the file and line, never the text, when it does not parse. */
export function parseYaml(text: string, file: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    // The parser's message quotes the line, which may hold a value: name the file and line only.
    const at = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new Error(`${file} does not parse as YAML${at ? ` (line ${at})` : ""}`);
  }
}

/**
 * Where JSON.parse stopped in `text`, for a message. Never the parser's own message: V8 quotes the
 * text around the fault, which may be a value.
 */
export function jsonFaultOf(text: string, error: unknown): string {
  const message = (error as Error).message;
  const at = /at position (\d+)/.exec(message);
  if (!at) return /end of JSON/.test(message) ? "at its end" : "not valid JSON";
  const before = text.slice(0, Number(at[1])).split("\n");
  return `at line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** A JSON text, or an error naming the file, where the parser stopped and, if given, what to write. */
export function parseJson(text: string, file: string, write?: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${file} does not parse as JSON (${jsonFaultOf(text, error)})${write ? `; write ${write}` : ""}`);
  }
}

/** A YAML (or JSON) text's top-level mapping; throws naming the file when it is not one. */
export function parseMapping(text: string, file: string): Record<string, unknown> {
  const doc = parseYaml(text, file);
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new Error(`${file} is not a mapping`);
  return doc as Record<string, unknown>;
}

/** A file's text, or undefined when there is no such file. */
export function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw error;
  }
}

/** The project file of `dir` or its nearest parent that has one; undefined when none has. */
export function findProjectFile(dir: string): ProjectFile | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    for (const name of PROJECT_FILES) {
      const file = path.join(at, name);
      const text = readIfPresent(file);
      if (text !== undefined) return { file, doc: parseMapping(text, file) };
    }
    if (path.dirname(at) === at) return undefined;
  }
}

/** The config file of `stack` (`Pulumi.<stack>.yaml`) of the project of `dir`: beside its project file, or in its `stackConfigDir`. */
export function stackConfigFile(dir: string, stack: string): string | undefined {
  const project = findProjectFile(dir);
  if (!project) return undefined;
  const configDir = typeof project.doc.stackConfigDir === "string" ? project.doc.stackConfigDir : "";
  return path.join(path.dirname(project.file), configDir, `Pulumi.${stack}${path.extname(project.file)}`);
}

/** The `config:` mapping of a stack config file's text (empty when it has none or does not parse). */
function configOf(text: string, file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseYaml(text, file);
  } catch {
    return {}; // the CLI reports a file it cannot read, naming it
  }
  const config = (parsed as { config?: unknown } | null)?.config;
  return config !== null && typeof config === "object" ? (config as Record<string, unknown>) : {};
}

function isSecure(value: unknown): boolean {
  return value !== null && typeof value === "object" && "secure" in value;
}

/** Which of `keys` a stack config file's text holds in plain text (set, and not a `secure:` mapping); none when it does not parse. */
export function plainConfigKeys(text: string, file: string, keys: readonly string[]): string[] {
  const values = configOf(text, file);
  return keys.filter((key) => values[key] !== undefined && values[key] !== null && !isSecure(values[key]));
}

/** Which of `keys` the stack config file `text` sets as secrets (`secure:`, what `pulumi config set --secret` writes). */
export function secureConfigKeys(text: string, file: string, keys: readonly string[]): string[] {
  const values = configOf(text, file);
  return keys.filter((key) => isSecure(values[key]));
}

export type BackendChoice =
  { url: string; from: "PULUMI_BACKEND_URL" | "backend.url" | "pulumi login" } | { reason: string };

/** The project's `backend.url` ("" when unset); throws when it is set but not a string, as the CLI refuses. */
function projectBackendUrl(project: ProjectFile | undefined): string {
  const backend = project?.doc.backend;
  if (backend === undefined || backend === null) return "";
  if (typeof backend !== "object" || Array.isArray(backend))
    throw new Error(`${project?.file}: backend is not a mapping`);
  const url = (backend as { url?: unknown }).url;
  if (url === undefined || url === null) return "";
  if (typeof url !== "string") throw new Error(`${project?.file}: backend.url is not a string`);
  return url;
}

/** The backend the CLI run in `projectDir` with `env` uses, or why it cannot be told. */
export function currentBackend(projectDir: string, env: NodeJS.ProcessEnv = process.env): BackendChoice {
  if (env.PULUMI_BACKEND_URL) return { url: env.PULUMI_BACKEND_URL, from: "PULUMI_BACKEND_URL" };
  try {
    const url = projectBackendUrl(findProjectFile(projectDir));
    if (url) return { url, from: "backend.url" };
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const dir = env.PULUMI_CREDENTIALS_PATH || env.PULUMI_HOME || path.join(homedir(), ".pulumi");
  const file = path.join(dir, "credentials.json");
  let text: string;
  try {
    text = readIfPresent(file) ?? ""; // no login file: no login
  } catch {
    return { reason: `${file} cannot be read` };
  }
  let current: unknown;
  try {
    current = text.trim() === "" ? undefined : (JSON.parse(text) as { current?: unknown }).current;
  } catch {
    return { reason: `${file} does not parse` };
  }
  if (typeof current === "string" && current !== "") return { url: current, from: "pulumi login" };
  return { reason: "no backend is set (PULUMI_BACKEND_URL, Pulumi.yaml's backend.url or pulumi login)" };
}

/** A `file://` backend's directory, resolved as the CLI resolves it (massageBlobPath); undefined for another scheme. */
export function fileBackendPath(url: string, cwd: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const rest = url.slice("file://".length).split("?")[0];
  const expanded = rest === "~" ? homedir() : rest.startsWith("~") ? path.join(homedir(), rest.slice(2)) : rest;
  return path.resolve(cwd, expanded);
}
