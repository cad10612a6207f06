// What an existing stack file holds that `fleet new --force` must never drop: the stack's
// encryption state (encryptionsalt, encryptedkey, secretsprovider) and its encrypted values
// (`secure:`). Read by parsing the file, YAML or its JSON form, never by pattern: a pattern
// misses `"encryptionsalt": …` and a KMS stack's keys.
import * as path from "node:path";

interface YamlParser {
  load(text: string): unknown;
}

/** Keys at the top level of a stack file that carry its encryption state. */
const ENCRYPTION_KEYS = ["encryptionsalt", "encryptedkey", "secretsprovider"];

/**
 * js-yaml, the parser the Automation API itself reads stack files with, through the
 * `@pulumi/pulumi` the program (or this package, whose peer it is) resolves: no dependency of our own.
 */
export function yamlParser(projectDir: string): YamlParser {
  for (const from of [projectDir, __dirname]) {
    try {
      const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [from] }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(require.resolve("js-yaml", { paths: [pulumiDir] })) as YamlParser;
    } catch {
      // next place
    }
  }
  throw new Error(
    `cannot read the stack file without @pulumi/pulumi: run \`npm install\` in ${projectDir}, or edit the file by hand`,
  );
}

/** The paths (config keys) under which the value is a `{ secure: … }` mapping. */
function securePaths(value: unknown, at: string[], found: string[]): string[] {
  if (Array.isArray(value)) value.forEach((item, i) => securePaths(item, [...at, String(i)], found));
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (key.toLowerCase() === "secure") found.push(at.join(".") || "(top level)");
      else securePaths(inner, [...at, key], found);
    }
  }
  return found;
}

/**
 * Why writing `file` again would lose the stack's secrets, or undefined when it holds none.
 * A file that does not parse is refused too: what it holds cannot be told.
 */
export function encryptedContentOf(text: string, projectDir: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = yamlParser(projectDir).load(text);
  } catch (error) {
    if ((error as Error).message.startsWith("cannot read the stack file")) throw error;
    const reason = (error as { reason?: string }).reason ?? "not YAML or JSON";
    return `it does not parse (${reason}), so what it holds cannot be told`;
  }
  if (parsed === null || parsed === undefined) return undefined;
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return `a ${Array.isArray(parsed) ? "list" : typeof parsed}, not a stack file's mapping`;
  }
  const held = Object.keys(parsed).filter((k) => ENCRYPTION_KEYS.includes(k.toLowerCase()));
  const secure = securePaths((parsed as { config?: unknown }).config ?? {}, [], []);
  const elsewhere = securePaths(parsed, [], []).length - secure.length;
  const parts = [
    ...(held.length > 0 ? [`the stack's encryption state (${held.join(", ")})`] : []),
    ...(secure.length > 0 ? [`encrypted values (secure:) of ${secure.join(", ")}`] : []),
    ...(elsewhere > 0 ? [`${elsewhere} other secure: value(s)`] : []),
  ];
  return parts.length > 0 ? parts.join(" and ") : undefined;
}
