// What an existing stack file holds that `fleet new --force` must never drop: the stack's
// encryption state (encryptionsalt, encryptedkey, secretsprovider) and its encrypted values
// (`secure:`). Read by parsing the file, YAML or its JSON form, never by pattern: a pattern
// misses `"encryptionsalt": …` and a KMS stack's keys. Parsed with the `yaml` package, as every
// Pulumi file the fleet reads (provider/project/pulumi-project.ts).
import { parseYaml } from "../../provider/project/pulumi-project";

/** Keys at the top level of a stack file that carry its encryption state. */
const ENCRYPTION_KEYS = ["encryptionsalt", "encryptedkey", "secretsprovider"];

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
export function encryptedContentOf(text: string, file: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = parseYaml(text, file);
  } catch (error) {
    return `${(error as Error).message}, so what it holds cannot be told`;
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
