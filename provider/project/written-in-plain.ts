// Whether a value is written in plain in the project: a literal of its program (Python, Go, YAML,
// TypeScript or JavaScript source beside the project file, or in its `main` directory) or a
// plain value of a stack's config file (`Pulumi.<stack>.yaml`; a `--secret` value is ciphertext
// there). Such a value is no secret: whoever reads the repository reads it. An occurrence inside
// a longer word does not count, nor one that a secret marker precedes on its line
// (`Output.secret("…")`, `fn::secret: …`, `pulumi.ToSecret(pulumi.String("…"))`, `requireSecret(`).
// Its callers doubt in opposite directions, so each says which way a doubt falls:
// - the plugin asks it of a function's argument that its caller's SDK passed unmarked
//   (hosts/plugin/invoke.ts), where "not plain" keeps the value a secret: any word "secret"
//   before the value on its line (a key such as `secretAccessKey: "…"`) counts as a marker;
// - the policy pack asks it of a Password (policy/context.ts), where "not plain" lets the value
//   pass: only a real marker counts, so `secretConfig: { password: "…" }` on one line is plain.
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { findProjectFile, readIfPresent } from "./pulumi-project";

/** The files read: program sources and config, one level deep (no dependency folder is entered). */
const READ = /\.(py|go|ya?ml|[cm]?[jt]s|json)$/i;
/** A bound on what is read, so that a huge generated file costs nothing: past it, a value is not found. */
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 200;
/** A character that continues a word: an occurrence with one beside it is part of a longer value. */
const WORD = /[\p{L}\p{N}_-]/u;

/**
 * What starts the text of a stack's config file (`Pulumi.<stack>.yaml`): there a `--secret` value
 * is ciphertext, so a "secret" before a value on its line is a key's name (`secretAccessKey`,
 * `secretConfig`), never a marker; every occurrence there counts.
 */
const STACK_FILE = "\u0000stack file\n";
const isStackFile = (file: string) => /^Pulumi\.[^/\\]+\.ya?ml$/i.test(path.basename(file));

/** The texts of the project's files, read once per process and directory (the program does not change during a run). */
const texts = new Map<string, string[]>();

function filesOf(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && READ.test(entry.name) && !entry.name.startsWith("."))
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

/** The project's readable texts: the project file's directory and its `main` directory, when one is set. */
export function projectTexts(dir: string = process.cwd()): string[] {
  const known = texts.get(dir);
  if (known) return known;
  let project: ReturnType<typeof findProjectFile>;
  try {
    project = findProjectFile(dir);
  } catch {
    project = undefined; // an unreadable project file: the CLI reports it
  }
  const root = project ? path.dirname(project.file) : dir;
  const main = typeof project?.doc.main === "string" ? path.resolve(root, project.doc.main) : undefined;
  const dirs = [...new Set([root, ...(main ? [main] : [])])];
  const read: string[] = [];
  for (const file of dirs.flatMap(filesOf).slice(0, MAX_FILES)) {
    try {
      if (statSync(file).size > MAX_FILE_BYTES) continue;
      const text = readIfPresent(file);
      if (text !== undefined) read.push(isStackFile(file) ? STACK_FILE + text : text);
    } catch {
      // unreadable: as if absent
    }
  }
  texts.set(dir, read);
  return read;
}

/** A call or directive that makes a secret of what follows it on its line. */
const SECRET_MARKER = /fn::secret|\bsecret\s*\(|to_?secret\w*\s*\(|(?:require|get|try)_?secret\w*\s*\(|--secret\b/i;

/**
 * Which way a doubt falls: `secret`, any word "secret" before the value on its line marks it
 * (the value stays a secret); `plain`, only a marker does (the value is judged plain).
 */
export type Doubt = "secret" | "plain";

/** Whether `text` holds `value` as a whole value, with no secret marker before it on its line. */
function plainIn(text: string, value: string, doubt: Doubt): boolean {
  const marker = doubt === "secret" ? /secret/i : SECRET_MARKER;
  const stackFile = text.startsWith(STACK_FILE);
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    const before = text[at - 1] ?? "";
    const after = text[at + value.length] ?? "";
    if (WORD.test(before) || WORD.test(after)) continue;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    if (stackFile || !marker.test(text.slice(lineStart, at))) return true;
  }
  return false;
}

/** Whether the string `value` is written in plain in one of the project's files (an empty string never is). */
export function writtenInPlain(
  value: string,
  projectFiles: readonly string[] = projectTexts(),
  doubt: Doubt = "secret",
): boolean {
  return value.trim() !== "" && projectFiles.some((text) => plainIn(text, value, doubt));
}
