// A stack whose client secret sits in plain text in its stack file (`pulumi config set` without
// --secret) is refused before the engine runs it, by the one judgement of settings/plain-secrets.ts
// (the fleet's policy: refuse, and run the others). This module only reads each stack's file:
// parsed (YAML, or its JSON form), never read by pattern.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  judgePlainSecrets,
  SECRET_SETTING_KEYS,
  secretSettingOfKey,
  type PlainSecretReader,
} from "../../provider/settings/plain-secrets";
import type { SettingName } from "../../provider/settings/resolve";
import { stackFileName, type FleetProject } from "./project";
import { plainConfigKeys } from "../../provider/project/pulumi-project";

const FLEET: PlainSecretReader = "fleet";

/** The secret settings the stack file holds in plain text (a value that is not a `secure:` mapping). */
export function plainSecretKeys(text: string, file: string): string[] {
  return plainConfigKeys(text, file, SECRET_SETTING_KEYS);
}

/** Stack → why it is not run, for each stack whose file holds a secret setting in plain text. */
export async function plainSecretRefusals(project: FleetProject, stacks: string[]): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  for (const stack of stacks) {
    const file = stackFileName(stack);
    const text = await fs.readFile(path.join(project.dir, file), "utf8").catch(() => "");
    const plain = plainSecretKeys(text, file).map((key) => secretSettingOfKey(key) as SettingName);
    const { refusal } = judgePlainSecrets(FLEET, plain, { kind: "stack file", stack });
    if (refusal) refused.set(stack, refusal);
  }
  return refused;
}
