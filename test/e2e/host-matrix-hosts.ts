// The hosts of the host matrix (host-matrix.test.ts): the dynamic provider and the plugin from
// TypeScript, Python, Go and YAML, each one program parameterised by stack config. A scenario
// gives the same three things to every host: the name the source is looked up by, the plain
// fields of its configuration and its Password; each host's program takes them its own way
// (the TypeScript programs' `connectors`/`configurations` of programs/shared/program-config.ts;
// programs/host-matrix-{python,go,yaml}'s `lookupName`, `destinationId`, `sourceFields`).
import { ensureEngine, type ProgramConfigValue } from "./harness";
import { FACEBOOK, S3 } from "./fixtures";
import { goEnv, pythonEnv, useRegeneratedGoSdk } from "./sdk-languages";

/** What a scenario asks of the program. */
export interface MatrixCase {
  lookupName: string;
  fields: Record<string, ProgramConfigValue>;
  password: string;
}

export interface MatrixHost {
  name: string;
  /** The directory under test/e2e/programs/. */
  program: string;
  /** The program's config and secret config for a case. */
  config(c: MatrixCase): {
    config: Record<string, ProgramConfigValue>;
    secretConfig: Record<string, ProgramConfigValue>;
    /** Program config written into the stack file as mappings. */
    objects?: Record<string, object>;
  };
  /** The environment of the host's engine runs (its toolchain). */
  env?(): Promise<Record<string, string>>;
  /** Adapts the program's copy before its first run. */
  adapt?(workDir: string, env: Record<string, string>): Promise<void>;
}

/** The TypeScript programs' shape: the source found by name, the destination by id, the source configured. */
function typescriptConfig(c: MatrixCase) {
  return {
    config: {
      connectors: [
        { key: "source", find: { name: c.lookupName, supportedType: "Source" } },
        { key: "destination", connectorId: FACEBOOK },
      ],
      configurations: [
        {
          key: "sourceConfiguration",
          connectorId: S3,
          after: "source",
          secretConfig: c.fields,
          secretRefs: { secretAccessKey: "password" },
        },
      ],
    },
    secretConfig: { secretValues: { password: c.password } },
  };
}

/** The Python, Go and YAML programs' shape. */
function sdkConfig(c: MatrixCase) {
  return {
    config: { lookupName: c.lookupName, destinationId: FACEBOOK },
    secretConfig: {},
    // A mapping in the stack file, not JSON text: Pulumi.yaml declares `sourceFields` an object,
    // and the CLI checks the declared type (on a secret's ciphertext too, so it is plain: the
    // resource makes its secretConfig secret).
    objects: { sourceFields: { ...c.fields, secretAccessKey: c.password } },
  };
}

export const MATRIX_HOSTS: MatrixHost[] = [
  { name: "the dynamic provider (TypeScript)", program: "connectors", config: typescriptConfig },
  { name: "the plugin from TypeScript", program: "plugin", config: typescriptConfig },
  {
    name: "the plugin from Python",
    program: "host-matrix-python",
    config: sdkConfig,
    env: async () => pythonEnv((await ensureEngine()).env),
  },
  { name: "the plugin from Go", program: "host-matrix-go", config: sdkConfig, env: goEnv, adapt: useRegeneratedGoSdk },
  { name: "the plugin from YAML", program: "host-matrix-yaml", config: sdkConfig },
];
