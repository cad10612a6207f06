// A stack whose client secret sits in plain text in its stack file (`pulumi config set` without
// --secret) is refused before the engine runs it: the fleet would otherwise apply, and keep in its
// reports and CI logs, a stack whose credential anyone with the repository can read. The refusal
// gives the command that encrypts it, never the value. The file is parsed (YAML, or its JSON
// form), never read by pattern.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { SETTINGS, type SettingName } from "../../provider/settings/resolve";
import { stackFileName, type FleetProject } from "./project";
import { plainConfigKeys } from "../../provider/project/pulumi-project";

/** The stack config keys of the settings that are always secret (embedded:clientSecret). */
const SECRET_KEYS = (Object.keys(SETTINGS) as SettingName[])
  .filter((name) => SETTINGS[name].secret)
  .map((name) => SETTINGS[name].key);

/** The secret settings the stack file holds in plain text (a value that is not a `secure:` mapping). */
export function plainSecretKeys(text: string, file: string): string[] {
  return plainConfigKeys(text, file, SECRET_KEYS);
}

/** Stack → why it is not run, for each stack whose file holds a secret setting in plain text. */
export async function plainSecretRefusals(project: FleetProject, stacks: string[]): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  for (const stack of stacks) {
    const file = stackFileName(stack);
    const text = await fs.readFile(path.join(project.dir, file), "utf8").catch(() => "");
    const keys = plainSecretKeys(text, file);
    if (keys.length === 0) continue;
    const commands = keys.map((key) => `\`pulumi config set --secret ${key} --stack ${stack}\``).join(", ");
    refused.set(
      stack,
      `not run: ${keys.join(", ")} is in plain text in ${file}; encrypt it with ${commands} ` +
        `(it prompts for the value), then run again`,
    );
  }
  return refused;
}
