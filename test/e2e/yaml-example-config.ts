// What the suites of examples/yaml-sub-account share: where it is, and the program config a
// stack of it sets (the README test checks these keys are every one the file requires).
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { repoRoot, type ProgramConfigValue } from "./harness";

export const exampleDir = path.join(repoRoot, "examples", "yaml-sub-account");

/** The values a stack of the example is given. */
export interface YamlExampleValues {
  partnerBaseUrl: string;
  partnerClientId: string;
  partnerAccountId: string;
  s3Password: string;
  facebookPassword: string;
  partnerClientSecret: string;
  segmentPassword: string;
}

/** The program config of a stack of the example: plain, and set as secrets. */
export function yamlExampleConfig(values: YamlExampleValues): {
  config: Record<string, ProgramConfigValue>;
  secretConfig: Record<string, ProgramConfigValue>;
} {
  return {
    config: {
      partnerBaseUrl: values.partnerBaseUrl,
      partnerClientId: values.partnerClientId,
      partnerAccountId: values.partnerAccountId,
    },
    secretConfig: {
      s3SecretAccessKey: values.s3Password,
      facebookClientSecret: values.facebookPassword,
      partnerClientSecret: values.partnerClientSecret,
      partnerSegmentApiKey: values.segmentPassword,
    },
  };
}

/** The top-level keys of Pulumi.yaml's `config:` section: whether each has a default, is a secret. */
export function declaredConfig(pulumiYaml: string): Map<string, { hasDefault: boolean; secret: boolean }> {
  const keys = new Map<string, { hasDefault: boolean; secret: boolean }>();
  const lines = pulumiYaml.split("\n");
  const start = lines.indexOf("config:");
  assert.ok(start >= 0, "Pulumi.yaml has a config: section");
  let current: { hasDefault: boolean; secret: boolean } | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break; // the next top-level section
    const key = /^ {2}(\w+):\s*$/.exec(line);
    if (key) {
      current = { hasDefault: false, secret: false };
      keys.set(key[1], current);
    } else if (current && /^ {4}default:/.test(line)) {
      current.hasDefault = true;
    } else if (current && /^ {4}secret:\s*true\s*$/.test(line)) {
      current.secret = true;
    }
  }
  return keys;
}
