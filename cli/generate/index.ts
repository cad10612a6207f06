// `generate`: reads a sub-account and writes a Pulumi program that adopts it, in TypeScript,
// Python, Go or Pulumi YAML (docs/import.md). Python, Go and YAML use the plugin's resources,
// adopted by `pulumi import --file import.json` (written beside the program) with no change;
// TypeScript uses the package's dynamic resources with `adoptExisting` unless told
// `--resources plugin`. A Password is left to the service (`heldByService`, the default on the
// plugin: no write, no clear) or read from a named secret config key (`--passwords config`).
import { planOf, secretCommands, type ConnectorSnapshot, type PasswordSource, type SecretKey } from "./model";
import { renderImportFile } from "./import-file";
import { renderGo } from "./go";
import { renderPython } from "./python";
import { renderTypeScript, type TypeScriptResources } from "./typescript";
import { renderYaml } from "./yaml";

export {
  isSecretIn,
  literalOf,
  oneLine,
  snapshot,
  type ConnectorSnapshot,
  type PasswordSource,
  type SecretKey,
} from "./model";
export { IMPORT_COMMAND } from "./import-file";

export const LANGUAGES = ["ts", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface GenerateOptions {
  language: Language;
  /** TypeScript only (the other languages have the plugin's resources alone). Default: dynamic. */
  resources?: TypeScriptResources;
  /** Default: `held` on the plugin's resources, `config` on the dynamic ones (which cannot import). */
  passwords?: PasswordSource;
  /** The Pulumi YAML program's project name. */
  project?: string;
}

export interface GeneratedFiles {
  /** The program's file name (index.ts, __main__.py, main.go, Pulumi.yaml) and text. */
  program: { file: string; text: string };
  /** `import.json`, for a program on the plugin's resources. */
  importFile?: string;
  secrets: SecretKey[];
  /** `pulumi config set --secret <key>` lines (they prompt for the value). */
  commands: string[];
}

const PROGRAM_FILE: Record<Language, string> = {
  ts: "index.ts",
  python: "__main__.py",
  go: "main.go",
  yaml: "Pulumi.yaml",
};

/** The program of a sub-account in one language; a pure function of its input. */
export function generateFiles(
  accountId: string,
  connectors: ConnectorSnapshot[],
  options: GenerateOptions,
): GeneratedFiles {
  const dynamic = options.language === "ts" && (options.resources ?? "dynamic") === "dynamic";
  const plan = planOf(accountId, connectors, options.passwords ?? (dynamic ? "config" : "held"));
  const text = {
    ts: () => renderTypeScript(plan, dynamic ? "dynamic" : "plugin"),
    python: () => renderPython(plan),
    go: () => renderGo(plan),
    yaml: () => renderYaml(plan, options.project ?? "adopted"),
  }[options.language]();
  return {
    program: { file: PROGRAM_FILE[options.language], text },
    importFile: dynamic ? undefined : renderImportFile(plan),
    secrets: plan.secrets,
    commands: secretCommands(plan),
  };
}

/** The TypeScript program on the dynamic resources, Passwords from config: generate's program before languages. */
export function renderProgram(
  accountId: string,
  connectors: ConnectorSnapshot[],
): { program: string; secrets: SecretKey[]; commands: string[] } {
  const files = generateFiles(accountId, connectors, { language: "ts" });
  return { program: files.program.text, secrets: files.secrets, commands: files.commands };
}
