// The hosts and languages policy-pack.test.ts runs the pack on: the plugin from YAML, Python, Go
// and TypeScript, and the dynamic provider (TypeScript). Each host's program declares the same
// resources from stack config; a case says which declaration a run makes (the violating one
// breaks every rule, the compliant one none) and each host puts it in its own program's terms.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ensureEngine, type ProgramConfigValue } from "./harness";
import { connectorId, FACEBOOK, S3, type E2EService } from "./fixtures";
import { goEnv, pythonEnv, useRegeneratedGoSdk } from "./sdk-languages";

const SEGMENT = connectorId("Segment");

/** What a run declares: the violating one breaks every rule, the compliant one none. */
export interface PolicyCase {
  violating: boolean;
  password: string;
  configurationId: string;
  svc: E2EService;
}

export type Declared = {
  config: Record<string, ProgramConfigValue>;
  secretConfig: Record<string, ProgramConfigValue>;
};

export interface PolicyHost {
  name: string;
  /** The directory under test/e2e/programs/. */
  program: string;
  config(c: PolicyCase): Declared;
  /** The environment of the host's engine runs (its toolchain). */
  env?(): Promise<Record<string, string>>;
  /** Adapts the program's copy before its first run. */
  adapt?(workDir: string, env: Record<string, string>): Promise<void>;
  /**
   * A program that reads its ids plain from config (Python, Go: a secret config value read with
   * `require` arrives plain): the violating run reads configurationId with the secret reader
   * instead, an edit of the copy's file [file, as written, as the violating run has it].
   */
  secretIdEdit?: [string, string, string];
}

const FIELDS = { bucket: "acme-exports", accessKeyId: "AKIAE2EEXAMPLE", region: "eu-west-1" };

export function typescriptConfig(c: PolicyCase): Declared {
  return {
    config: {
      connectors: [
        { key: "source", connectorId: S3 },
        {
          key: "destination",
          connectorId: c.violating ? SEGMENT : FACEBOOK,
          accountId: c.violating ? c.svc.accountId : c.svc.otherAccountId,
        },
      ],
      configurations: [
        {
          key: "sourceConfiguration",
          connectorId: S3,
          after: "source",
          ...(c.violating
            ? { configurationIdRef: "configurationId", secretConfig: { ...FIELDS, secretAccessKey: c.password } }
            : {
                configurationId: c.configurationId,
                secretConfig: { ...FIELDS, fileFormats: ["csv"] },
                secretRefs: { secretAccessKey: "password" },
              }),
        },
      ],
    },
    secretConfig: {
      secretValues: { password: c.password },
      ...(c.violating ? { configurationId: c.configurationId } : {}),
    },
  };
}

/** The YAML, Python and Go programs' keys (programs/policy-{yaml,python,go}). */
function flatConfig(c: PolicyCase): Declared {
  const ids = {
    sourceId: S3,
    destinationId: c.violating ? SEGMENT : FACEBOOK,
    destinationAccountId: c.violating ? c.svc.accountId : c.svc.otherAccountId,
  };
  return c.violating
    ? {
        config: { ...ids, ...FIELDS, secretAccessKey: c.password },
        secretConfig: { configurationId: c.configurationId },
      }
    : {
        config: { ...ids, ...FIELDS, configurationId: c.configurationId, fileFormats: "csv" },
        secretConfig: { secretAccessKey: c.password },
      };
}

export const POLICY_HOSTS: PolicyHost[] = [
  { name: "the plugin from YAML", program: "policy-yaml", config: flatConfig },
  {
    name: "the plugin from Python",
    program: "policy-python",
    config: flatConfig,
    env: async () => pythonEnv((await ensureEngine()).env),
    secretIdEdit: [
      "__main__.py",
      'configuration_id=config.require("configurationId")',
      'configuration_id=config.require_secret("configurationId")',
    ],
  },
  {
    name: "the plugin from Go",
    program: "policy-go",
    config: flatConfig,
    env: goEnv,
    adapt: useRegeneratedGoSdk,
    secretIdEdit: ["main.go", 'pulumi.String(cfg.Require("configurationId"))', 'cfg.RequireSecret("configurationId")'],
  },
  { name: "the plugin from TypeScript", program: "plugin", config: typescriptConfig },
  { name: "the dynamic provider (TypeScript)", program: "connectors", config: typescriptConfig },
];

/** Applies (or undoes) a host's secretIdEdit in the program's copy. */
export async function readIdsAsSecrets(host: PolicyHost, workDir: string, secret: boolean): Promise<void> {
  if (!host.secretIdEdit) return;
  const [file, plain, asSecret] = host.secretIdEdit;
  const at = path.join(workDir, file);
  const text = await fs.readFile(at, "utf8");
  const [from, to] = secret ? [plain, asSecret] : [asSecret, plain];
  if (text.includes(to)) return;
  if (!text.includes(from)) throw new Error(`${file} has no ${from}`);
  await fs.writeFile(at, text.replace(from, to));
}

/**
 * The TypeScript programs' compliant declaration with the Password left to the service
 * (`heldByService`), instead of given from a secret.
 */
export function heldConfig(c: PolicyCase): Declared {
  const declared = typescriptConfig({ ...c, violating: false });
  const [configuration] = declared.config.configurations as Record<string, unknown>[];
  const { secretRefs: _given, ...held } = configuration;
  return {
    config: { ...declared.config, configurations: [{ ...held, heldByService: ["secretAccessKey"] }] },
    secretConfig: declared.secretConfig,
  };
}

/** A service profile under which a configuration whose Password the service holds can be written (the provider's check refuses it otherwise). */
export const KEEPS_LEFT_OUT_FIELDS = "name: keeps-left-out-fields\nsemantics:\n  configureWrites: given\n";
