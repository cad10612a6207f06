// What the hostile-service suites share: seeded canaries and the scan for
// them in every form a hostile refusal may quote them in, and the stack of the README example
// (S3 configured, Facebook added) on either host.
import { randomBytes } from "node:crypto";
import { type E2EStack, type ProgramConfigValue } from "./harness";
import { connectorsStack, FACEBOOK, S3, storageFields, type E2EService } from "./fixtures";
import { pluginStack } from "./plugin-fixtures";
import { QUOTE_FORMS } from "./hostile-proxy";
import { seededRandom } from "../support/seed";

/** The seed of the hostile suites' canaries (HOSTILE_SEED replays them); printed by each suite. */
export const HOSTILE_SEED = process.env.HOSTILE_SEED ?? randomBytes(4).toString("hex");

const draw = seededRandom(HOSTILE_SEED);

/**
 * A canary: mixed case, with `/`, `"` and `+`, so that each quoted form (upper- and lower-cased,
 * URL-encoded, JSON-escaped, base64) differs from the value itself.
 */
export function hostileCanary(label: string): string {
  const hex = Array.from({ length: 12 }, () => Math.floor(draw() * 16).toString(16)).join("");
  return `Cnry${label}-${hex}/q"+Z`;
}

/** `value` in every form a hostile refusal quotes it in, with the form's name. */
export function quotedForms(value: string): [string, string][] {
  return [
    ["as is", value],
    ...Object.entries(QUOTE_FORMS).map(([name, form]): [string, string] => [name, form(value)]),
  ];
}

/**
 * Throws when any canary shows in `text`, in any quoted form. The message names the canary, the
 * form and the offset, with the context around it where every form of every canary is masked
 * (a refusal quotes several forms side by side: the test's own output must hold none).
 */
export function assertNoCanary(text: string, canaries: Record<string, string>, where: string): void {
  const all = Object.values(canaries).flatMap((v) => quotedForms(v).map(([, q]) => q));
  const mask = (s: string) => all.reduce((acc, q) => acc.split(q).join("<A CANARY>"), s);
  for (const [label, value] of Object.entries(canaries)) {
    for (const [form, quoted] of quotedForms(value)) {
      const at = text.indexOf(quoted);
      if (at < 0) continue;
      const masked = mask(text);
      const from = mask(text.slice(0, at)).length;
      const context = masked.slice(Math.max(0, from - 300), from + 300);
      throw new Error(
        `the ${label} canary (${form}) appears in ${where} at offset ${at}, in: ${JSON.stringify(context)}`,
      );
    }
  }
}

export type Host = "dynamic" | "plugin";
export const HOSTS: Host[] = ["dynamic", "plugin"];

/**
 * The README example's stack on `host`: S3 added and configured (its secret access key and its
 * bucket from secret config), Facebook added; `settings` points it at a service or a proxy.
 */
export function exampleStack(
  host: Host,
  svc: E2EService,
  name: string,
  secrets: { s3Key: string; bucket: string },
  extra: Record<string, ProgramConfigValue> = {},
): Promise<E2EStack> {
  const config = {
    ...extra,
    connectors: [
      { key: "s3", connectorId: S3 },
      { key: "facebook", connectorId: FACEBOOK },
    ],
    configurations: [
      {
        key: "s3Config",
        connectorId: S3,
        after: "s3",
        secretConfig: storageFields(),
        secretRefs: { secretAccessKey: "s3Key", bucket: "bucket" },
      },
    ],
  };
  const secretConfig = { secretValues: secrets };
  return host === "dynamic"
    ? connectorsStack(svc, name, config, secretConfig)
    : pluginStack(svc, name, { config, secretConfig });
}
